// Every string of a result file is escaped when it is read, as all text from
// outside the program is before it is printed (EscapeControl,
// lib/base/error.h).
#pragma once

#include <nlohmann/json.hpp>

#include "lib/base/error.h"

namespace alignbench {

// EscapeControl on every string value of a JSON document, in place (keys are
// never printed).
void EscapeControlStrings(nlohmann::json& value);

}  // namespace alignbench
