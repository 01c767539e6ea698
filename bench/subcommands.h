// The subcommands besides the measurement itself, and the one way errors reach
// the user: `alignbench: error: <message>` on stderr and the documented exit
// code.
#pragma once

#include <string>
#include <vector>

#include "lib/io/error.h"

namespace alignbench {

int ReportError(const Error& error);
int EnvCommand(const std::vector<std::string>& args);  // alignbench env [DIR]
int ShowCommand(
    const std::vector<std::string>& args);  // alignbench show FILE [--format F]
int CompareCommand(
    const std::vector<std::string>& args);  // alignbench compare BASE NEW

}  // namespace alignbench
