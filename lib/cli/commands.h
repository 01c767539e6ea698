// The one table of the command surface: every command (the run itself, env,
// show, compare) with its operands, its options and the values its --format
// takes. The run's options are the settings table's rows (options.h) and the
// output options below; every command has --format and --help. The parser,
// --help of each command and the docs check read this table; exit codes are
// kExitCodes (lib/base/error.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace alignbench {

enum class CommandId { kRun, kEnv, kShow, kCompare, kRecord, kUnit };

struct CliOption {
  std::string_view name;
  // The value's name in --help; empty: a flag that takes no value.
  std::string_view value_name;
  std::string help;
  // Given more than once, every value counts (--dir); otherwise refused.
  bool repeatable = false;
};

// A value --format takes, with one line of help.
struct FormatChoice {
  std::string_view name;
  std::string_view help;
};

struct Command {
  CommandId id;
  // The first word (`alignbench env`); empty for the run.
  std::string_view name;
  // The operands in the usage line, and how many may be given.
  std::string_view operands;
  std::size_t min_operands;
  std::size_t max_operands;
  // What the command does, for its --help.
  std::string summary;
  // What --format takes; the first is the default.
  std::vector<FormatChoice> formats;
  // Every option, --format and --help included, in --help order; left out
  // where WithCommonOptions adds them.
  std::vector<CliOption> options = {};
  // Google Benchmark's --benchmark_* flags are checked and passed on.
  bool passes_benchmark_flags = false;
  // Everything after the first "--" is a command to run (record), not read.
  bool takes_command = false;
};

// Every command, the run first.
const std::vector<Command>& Commands();
// The command whose name is `word`, or nullptr.
const Command* FindCommand(std::string_view word);
// The row of --name in `command`, or nullptr.
const CliOption* FindCliOption(const Command& command, std::string_view name);
// The usage line of a command ("alignbench show FILE [--format NAME]").
std::string UsageLine(const Command& command);

}  // namespace alignbench
