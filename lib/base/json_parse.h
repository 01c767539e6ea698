// Parsing JSON from outside the program. nlohmann keeps the last of two equal
// keys in one object; a case or result file that says a key twice says two
// things, and which one was meant cannot be known, so it is refused.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/error.h"

namespace alignbench {

// The document in `text`; on failure a kUsage error whose detail is "not
// valid JSON" or "duplicate key 'writes' (line 4)" (the line where the second
// one can be found in the text), for the caller to give an operation.
Result<nlohmann::json> ParseJsonStrict(const std::string& text);

}  // namespace alignbench
