// Byte sizes as people write them: "4096", "4K", "512KiB", "1M" (binary units),
// size lists "512K,256K,1K" and power-of-two ranges "1K..512K" (ascending) or
// "512K..1K" (descending). One suffix table drives parsing and printing.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

Result<std::uint64_t> ParseByteSize(std::string_view text);
Result<std::vector<std::uint64_t>> ParseSizeList(std::string_view text);

// 1, 2, 4, ... (not 0): the sizes an alignment, a stripe or a doubling
// range may have.
inline bool IsPowerOfTwo(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// `value` rounded up to a multiple of `to` (> 0): 24 to 4096 is 4096.
inline std::uint64_t RoundUp(std::uint64_t value, std::uint64_t to) {
  return (value + to - 1) / to * to;
}

// The shortest exact form: 524288 → "512K", 1048576 → "1M", 1000 → "1000".
std::string FormatSize(std::uint64_t bytes);

// A byte size as case files and the command line give one: 4096 or "4K".
// Nothing, or why not. Here, beside the parser, so that the log rules and the
// option table read sizes alike without including each other.
std::optional<std::string> ParseByteValue(const nlohmann::json& value,
                                          std::uint64_t& bytes);

}  // namespace alignbench
