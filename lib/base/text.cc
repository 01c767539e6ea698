#include "lib/base/text.h"

#include <algorithm>
#include <cstdio>

namespace alignbench {

std::string Printf(const char* pattern, double value) {
  // Sized by a first call, so that no value is ever cut short.
  const int length = std::snprintf(nullptr, 0, pattern, value);
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

}  // namespace alignbench
