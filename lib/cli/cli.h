// The command line: one parser over the command table (commands.h) for every
// command, --help generated from it, and the run's options applied to the
// settings. Usage errors come back as Error with kind kUsage and name the
// option. Of Google Benchmark's own --benchmark_* flags only an allow-list is
// passed on, each value checked first: Google Benchmark accepts nonsense
// values without a word.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lib/base/error.h"
#include "lib/cli/commands.h"
#include "lib/render/writers.h"
#include "lib/session/session.h"

namespace alignbench {

// argv past argv[0], read by the command it names.
struct ParsedCommand {
  const Command* command = nullptr;
  // Every option given, by name, with its values (a flag: one empty value).
  std::map<std::string, std::vector<std::string>, std::less<>> values;
  std::vector<std::string> operands;
  // One of the command's formats: the one given, or its default.
  std::string format;
  // --benchmark_* for Google Benchmark (the run only)
  std::vector<std::string> benchmark_flags;
  // A command that takes one (record): the words after the first "--".
  std::vector<std::string> command_argv;

  bool Has(std::string_view name) const;
  // The value of an option given once.
  const std::string& Value(std::string_view name) const;
};

// The command and its options; with --help (or the run's --version) the
// operands and --format are not checked.
Result<ParsedCommand> ParseCommandLine(const std::vector<std::string>& args);

// --help of a command: usage, what it does, its options and the exit codes.
std::string HelpText(const Command& command);

// show, compare and the run: the report format --format named.
Format ReportFormat(const ParsedCommand& parsed);

// --details: every figure of the text table; without it the compact report.
Detail ReportDetail(const ParsedCommand& parsed);

struct RunOptions {
  // What the measuring session needs: settings, directories, where the
  // result goes (command_line is filled in by the caller).
  SessionOptions session;
  Format format = Format::kTable;
  Detail detail = Detail::kCompact;
  // --format json: the result document on stdout instead of a report.
  bool result_json = false;
  // --benchmark_* for Google Benchmark
  std::vector<std::string> benchmark_flags;
};

// The run's settings (over --case's) and output options.
Result<RunOptions> RunOptionsOf(const ParsedCommand& parsed);

// "Did you mean --writes?" for an unknown option, or "" when nothing is close.
std::string ClosestOption(const std::string& unknown,
                          const std::vector<std::string>& known);

}  // namespace alignbench
