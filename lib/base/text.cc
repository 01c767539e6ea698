#include "lib/base/text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace alignbench {

std::string Printf(const char* pattern, double value) {
  // Sized by a first call, so that no value is ever cut short.
  int length = std::snprintf(nullptr, 0, pattern, value);
  // A fixed-point 1e308 is 309 digits: beyond any column, and no more
  // informative than "1e+308". Past 24 characters the same flags with %g.
  std::string shorter;
  if (length > 24) {
    const std::string text = pattern;
    const std::size_t percent = text.find('%');
    const std::size_t conversion = text.find_first_of("fF", percent);
    if (percent != std::string::npos && conversion != std::string::npos) {
      const std::size_t flags_end =
          text.find_first_not_of("+- #0", percent + 1);
      shorter = text.substr(0, flags_end) + ".6g" + text.substr(conversion + 1);
      pattern = shorter.c_str();
      length = std::snprintf(nullptr, 0, pattern, value);
    }
  }
  if (length <= 0) return "";
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), pattern, value);
  text.pop_back();
  return text;
}

std::string Fixed(double value, int digits) {
  char pattern[] = "%.0f";
  pattern[2] = static_cast<char>('0' + std::clamp(digits, 0, 9));
  return Printf(pattern, value);
}

std::string Wrapped(const std::string& text, std::size_t width,
                    const std::string& indent) {
  // A unit sign ("%", "% of") stays with its figure: one word with it.
  std::vector<std::string> units;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (word.front() == '%' && !units.empty()) {
      units.back() += " " + word;
    } else {
      units.push_back(word);
    }
  }
  std::string out, line;
  bool fresh = true;  // no word on `line` yet
  for (const std::string& word : units) {
    if (!fresh && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
      fresh = true;
    }
    line += (fresh ? "" : " ") + word;
    fresh = false;
  }
  return out + line;
}

}  // namespace alignbench
