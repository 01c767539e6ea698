#include "lib/render/cells.h"

#include <charconv>

#include "lib/config/size.h"

namespace alignbench {

std::string Pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text
                              : std::string(width - text.size(), ' ') + text;
}

std::string SizeColumn(std::uint64_t size) {
  return size % 1024 == 0 ? std::to_string(size / 1024) : FormatSize(size);
}

std::string JavaDouble(double value) {
  char text[64];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  std::string s(text, ec == std::errc() ? end : text);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

}  // namespace alignbench
