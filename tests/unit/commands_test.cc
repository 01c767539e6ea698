// The command table (lib/cli/commands.h) and docs/reference.md: every
// command, option, format and exit code the binary knows is documented, and
// every option the reference's table lists is one the binary knows.
#include "lib/cli/commands.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "lib/base/error.h"
#include "lib/config/options.h"

using namespace alignbench;

namespace {

std::string Reference() {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR "/docs/reference.md");
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool Mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("commands: the run first, names and options unique") {
  REQUIRE_FALSE(Commands().empty());
  CHECK(Commands().front().id == CommandId::kRun);
  CHECK(Commands().front().name.empty());
  std::set<std::string_view> names;
  for (const Command& command : Commands()) {
    INFO(command.name);
    CHECK(names.insert(command.name).second);
    CHECK(command.min_operands <= command.max_operands);
    REQUIRE_FALSE(command.formats.empty());
    std::set<std::string_view> options;
    for (const CliOption& option : command.options) {
      INFO(option.name);
      CHECK(options.insert(option.name).second);
      CHECK_FALSE(option.help.empty());
    }
    CHECK(FindCliOption(command, "format") != nullptr);
    CHECK(FindCliOption(command, "help") != nullptr);
    if (!command.name.empty()) CHECK(FindCommand(command.name) == &command);
  }
  CHECK(FindCommand("") == nullptr);
  CHECK(FindCommand("bogus") == nullptr);
}

TEST_CASE("commands: the run takes every settings row with a name") {
  const Command& run = Commands().front();
  for (const Option& row : SettingOptions()) {
    if (row.name.empty()) continue;
    const CliOption* option = FindCliOption(run, row.name);
    REQUIRE(option != nullptr);
    CHECK(option->repeatable == row.repeatable);
    CHECK(option->value_name == row.value_name);
  }
  CHECK(FindCliOption(run, "dir")->repeatable);
  CHECK(run.passes_benchmark_flags);
}

TEST_CASE("commands: usage lines name the formats of a subcommand") {
  CHECK(UsageLine(*FindCommand("env")) ==
        "alignbench env [DIR] [--format text|json]");
  CHECK(UsageLine(*FindCommand("compare")) ==
        "alignbench compare FILE FILE... [--format table|markdown|csv|json]");
  CHECK(UsageLine(Commands().front()) == "alignbench [OPTIONS]");
}

TEST_CASE(
    "commands: docs/reference.md knows every command, option, format "
    "and exit code") {
  const std::string reference = Reference();
  for (const Command& command : Commands()) {
    INFO(command.name);
    if (!command.name.empty()) {
      CHECK(Mentions(reference, "`" + UsageLine(command) + "`"));
    }
    for (const CliOption& option : command.options) {
      CHECK(Mentions(reference, "`--" + std::string(option.name)));
    }
    for (const FormatChoice& format : command.formats) {
      CHECK(Mentions(reference, "`" + std::string(format.name)));
    }
  }
  for (const ExitCodeRow& row : kExitCodes) {
    CHECK(Mentions(reference, "\n| " + std::string(row.code) + " | "));
  }
}

TEST_CASE(
    "commands: every option and exit code docs/reference.md lists is "
    "known") {
  const std::string reference = Reference();
  std::set<std::string> known;
  for (const Command& command : Commands()) {
    for (const CliOption& option : command.options) {
      known.insert(std::string(option.name));
    }
  }
  // Rows of the option table: "| `--name VALUE` | meaning |".
  const std::regex option_row(R"(\n\| `--([a-z][a-z0-9-]*))");
  int rows = 0;
  for (std::sregex_iterator it(reference.begin(), reference.end(), option_row),
       end;
       it != end; ++it, ++rows) {
    INFO((*it)[1]);
    CHECK(known.count((*it)[1]) == 1);
  }
  CHECK(rows >= 20);
  // Rows of the exit-code table: "| 4 | meaning |".
  std::set<std::string> codes;
  for (const ExitCodeRow& row : kExitCodes) codes.insert(std::string(row.code));
  const std::regex code_row(R"(\n\| (N|[0-9]+(\+N)?) \| [^|\n]+\|)");
  rows = 0;
  for (std::sregex_iterator it(reference.begin(), reference.end(), code_row),
       end;
       it != end; ++it, ++rows) {
    INFO((*it)[1]);
    CHECK(codes.count((*it)[1]) == 1);
  }
  CHECK(rows == static_cast<int>(std::size(kExitCodes)));
}
