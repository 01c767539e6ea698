// Text from outside the program (a directory name, a device model, any string
// in a result file) is printed only through these: a control character (C0 or
// DEL) becomes a C escape, so printing it can neither split a line, forge a
// header nor send a command to the terminal. Backslashes are kept as they are.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace alignbench {

// "a\nb" for a, newline, b; "\x1b" for ESC; "\x7f" for DEL.
std::string EscapeControl(std::string_view text);

// EscapeControl on every string value of a JSON document, in place (keys are
// never printed).
void EscapeControlStrings(nlohmann::json& value);

}  // namespace alignbench
