#include "lib/report/escape.h"

#include <cstdio>
#include <vector>

namespace alignbench {

std::string EscapeControl(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    }
  }
  return out;
}

void EscapeControlStrings(nlohmann::json& document) {
  // A stack of our own, not recursion: a hostile file may nest a million deep.
  std::vector<nlohmann::json*> pending{&document};
  while (!pending.empty()) {
    nlohmann::json& value = *pending.back();
    pending.pop_back();
    if (value.is_string()) {
      value = EscapeControl(value.get_ref<const std::string&>());
    } else if (value.is_structured()) {
      for (auto& element : value) pending.push_back(&element);
    }
  }
}

}  // namespace alignbench
