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
#include "lib/io/result_file.h"
#include "lib/report/table.h"

namespace alignbench {

struct RunOptions {
  // Settings of every directory; settings.dir is the first of `dirs`.
  Settings settings;
  // Every --dir in order: the same plan is measured in each, in one
  // interleaved schedule, with one result per directory.
  std::vector<std::string> dirs;
  // Result JSON path
  std::optional<std::string> out;
  // --force
  Overwrite overwrite = Overwrite::kRefuse;
  // Never to be overwritten
  std::optional<std::string> case_path;
  Format format = Format::kTable;
  bool redact_host = false;
  // Progress lines on stderr
  bool progress = false;
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
