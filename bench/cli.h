// The command line: one options table (Boost.Program_options) that drives
// parsing, --help and validation. Usage errors come back as Error with kind
// kUsage and name the option. Of Google Benchmark's own --benchmark_* flags
// only an allow-list is passed on, each value checked first: Google Benchmark
// accepts nonsense values without a word.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/render/table.h"
#include "lib/session/session.h"

namespace alignbench {

struct RunOptions {
  // What the measuring session needs: settings, directories, where the
  // result goes (command_line is filled in by the caller).
  SessionOptions session;
  Format format = Format::kTable;
  // --benchmark_* for Google Benchmark
  std::vector<std::string> benchmark_flags;
};

enum class Command { kRun, kHelp, kVersion };

struct ParsedRun {
  Command command = Command::kRun;
  RunOptions options;
  // The text for --help
  std::string help;
};

Result<ParsedRun> ParseRunCommandLine(const std::vector<std::string>& args);

// "Did you mean --writes?" for an unknown option, or "" when nothing is close.
std::string ClosestOption(const std::string& unknown,
                          const std::vector<std::string>& known);

}  // namespace alignbench
