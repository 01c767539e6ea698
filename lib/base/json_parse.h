// Parsing JSON from outside the program. nlohmann keeps the last of two equal
// keys in one object; a case or result file that says a key twice says two
// things, and which one was meant cannot be known, so it is refused.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "lib/base/error.h"

namespace alignbench {

// The document in `text`; on failure a kUsage error whose detail is "not
// valid JSON" or "duplicate key 'writes' (line 4)" (the line where the second
// one can be found in the text), for the caller to give an operation.
Result<nlohmann::json> ParseJsonStrict(const std::string& text);

// A non-negative whole number as JSON Schema's "integer" reads one: 4096 and
// 4096.0 alike (nlohmann keeps the second as a double); nothing for a
// fraction, a negative number, one past 2^64 - 1, or another type.
std::optional<std::uint64_t> WholeNumber(const nlohmann::json& value);

}  // namespace alignbench
