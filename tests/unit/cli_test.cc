// The command line (lib/cli/cli.h): one parser over the command table for
// every command, and the run's options applied to the settings.
#include "lib/cli/cli.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace alignbench;

namespace {

Result<ParsedCommand> Parse(std::vector<std::string> args) {
  return ParseCommandLine(args);
}

std::string ErrorOf(std::vector<std::string> args) {
  Result<ParsedCommand> parsed = Parse(std::move(args));
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().kind == ErrorKind::kUsage);
  return parsed.error().Message();
}

}  // namespace

TEST_CASE("cli: the first word names a subcommand, else it is the run") {
  Result<ParsedCommand> run = Parse({"--writes", "3"});
  REQUIRE(run.ok());
  CHECK(run.value().command->id == CommandId::kRun);
  CHECK(run.value().Value("writes") == "3");
  CHECK(run.value().format == "table");
  Result<ParsedCommand> show = Parse({"show", "r.json", "--format=csv"});
  REQUIRE(show.ok());
  CHECK(show.value().command->id == CommandId::kShow);
  CHECK(show.value().operands == std::vector<std::string>{"r.json"});
  CHECK(show.value().format == "csv");
  CHECK(ReportFormat(show.value()) == Format::kCsv);
  Result<ParsedCommand> env = Parse({"env"});
  REQUIRE(env.ok());
  CHECK(env.value().format == "text");
}

TEST_CASE("cli: --format takes the values of its command only") {
  CHECK_THAT(ErrorOf({"compare", "a", "b", "--format", "derby"}),
             Catch::Contains("unknown value 'derby' (expected table, "
                             "markdown, csv, json)"));
  CHECK_THAT(ErrorOf({"env", "--format", "csv"}),
             Catch::Contains("option --format: unknown value 'csv' (expected "
                             "text, json)"));
  CHECK_THAT(ErrorOf({"--format", "table,csv"}),
             Catch::Contains("takes one value"));
  CHECK_THAT(ErrorOf({"show", "a", "--format", "csv", "--format", "table"}),
             Catch::Contains("cannot be specified more than once"));
}

TEST_CASE("cli: operands are counted; the run takes none") {
  CHECK_THAT(ErrorOf({"show"}),
             Catch::Contains("show takes 1 operand(s), got 0"));
  CHECK_THAT(ErrorOf({"compare", "a"}),
             Catch::Contains("compare takes 2 to 64 operand(s), got 1"));
  CHECK_THAT(ErrorOf({"--sizes", "4K", "stray"}),
             Catch::Contains("unexpected argument 'stray'"));
  CHECK_THAT(ErrorOf({"show", "--operand", "x"}),
             Catch::Contains("unknown option '--operand'"));
  CHECK_THAT(ErrorOf({"env", "--", "x"}),
             Catch::Contains("unexpected argument '--'"));
}

TEST_CASE("cli: --help is taken before the operands are counted") {
  Result<ParsedCommand> help = Parse({"compare", "--help"});
  REQUIRE(help.ok());
  CHECK(help.value().Has("help"));
}

TEST_CASE("cli: -h is --help, but not in the recorded program's command") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-h"}, {"show", "-h"}, {"record", "-h"}}) {
    Result<ParsedCommand> help = Parse(args);
    REQUIRE(help.ok());
    CHECK(help.value().Has("help"));
  }
  Result<ParsedCommand> record =
      Parse({"record", "--file", "log", "--", "grep", "-h", "x"});
  REQUIRE(record.ok());
  CHECK_FALSE(record.value().Has("help"));
  CHECK(record.value().command_argv ==
        std::vector<std::string>{"grep", "-h", "x"});
}

TEST_CASE("cli: an unknown option names the closest one of its command") {
  CHECK_THAT(ErrorOf({"--wrties", "3"}),
             Catch::Contains("did you mean --writes?"));
  CHECK_THAT(ErrorOf({"show", "a", "--formt", "csv"}),
             Catch::Contains("did you mean --format?"));
  CHECK(ClosestOption("--x", {"writes"}).empty());
}

TEST_CASE("cli: --benchmark_* flags pass on for the run only") {
  Result<ParsedCommand> run = Parse({"--benchmark_color=false"});
  REQUIRE(run.ok());
  CHECK(run.value().benchmark_flags ==
        std::vector<std::string>{"--benchmark_color=false"});
  CHECK_THAT(ErrorOf({"--benchmark_filter=4K"}),
             Catch::Contains("is not passed to Google Benchmark"));
  CHECK_THAT(ErrorOf({"env", "--benchmark_color=false"}),
             Catch::Contains("unknown option"));
}

TEST_CASE("cli: the run's options set the settings and the output") {
  Result<ParsedCommand> parsed =
      Parse({"--dir", "/tmp", "--dir", "/", "--writes", "7", "--format",
             "markdown", "--out", "r.json", "--force"});
  REQUIRE(parsed.ok());
  Result<RunOptions> options = RunOptionsOf(parsed.value());
  REQUIRE(options.ok());
  const RunOptions& o = options.value();
  CHECK(o.session.dirs == std::vector<std::string>{"/tmp", "/"});
  CHECK(o.session.settings.dir == "/tmp");
  CHECK(o.session.settings.writes == 7);
  CHECK(o.format == Format::kMarkdown);
  CHECK(o.session.out == "r.json");
  CHECK(o.session.overwrite == Overwrite::kReplace);
  // Neither --budget nor --repetitions: measured in rounds.
  CHECK(o.session.settings.budget_seconds == 60.0);
}

TEST_CASE(
    "cli: the default budget follows --precision; --repetitions has none") {
  auto budget = [](std::vector<std::string> args) {
    Result<ParsedCommand> parsed = Parse(std::move(args));
    REQUIRE(parsed.ok());
    Result<RunOptions> options = RunOptionsOf(parsed.value());
    REQUIRE(options.ok());
    return options.value().session.settings.budget_seconds;
  };
  CHECK(budget({"--precision", "5"}) == 60.0);
  // An interval narrows as 1/sqrt(blocks): +-2 needs 6.25 times the blocks.
  CHECK(budget({"--precision", "2"}) == 375.0);
  CHECK(budget({"--precision", "10"}) == 15.0);
  CHECK(budget({"--precision", "2", "--budget", "30"}) == 30.0);
  CHECK_FALSE(budget({"--precision", "2", "--repetitions", "12"}).has_value());
  // A week at most, however fine the precision asked for.
  CHECK(budget({"--precision", "0.01"}) == kMaxBudgetSeconds);
}

TEST_CASE("cli: the same directory twice is refused") {
  Result<ParsedCommand> parsed = Parse({"--dir", "/tmp", "--dir", "/tmp/"});
  REQUIRE(parsed.ok());
  Result<RunOptions> options = RunOptionsOf(parsed.value());
  REQUIRE_FALSE(options.ok());
  CHECK_THAT(options.error().Message(),
             Catch::Contains("is the same directory as"));
}

TEST_CASE(
    "cli: --help lists every option of its command and the exit "
    "codes") {
  for (const Command& command : Commands()) {
    const std::string help = HelpText(command);
    INFO(help);
    CHECK_THAT(help, Catch::Contains(UsageLine(command)));
    for (const CliOption& option : command.options) {
      CHECK_THAT(help, Catch::Contains("  --" + std::string(option.name)));
    }
    // Every exit code the command can return: a measurement's (4, 130) only
    // where it measures, the recorded command's only in record.
    for (const ExitCodeRow& row : kExitCodes) {
      const std::string line = "\n  " + std::string(row.code) + " ";
      const bool own =
          row.scope == ExitScope::kEveryCommand ||
          (row.scope == ExitScope::kMeasurement &&
           (command.id == CommandId::kRun || command.id == CommandId::kUnit)) ||
          (row.scope == ExitScope::kRecord &&
           command.id == CommandId::kRecord) ||
          (row.scope == ExitScope::kCompare &&
           command.id == CommandId::kCompare);
      if (!own) {
        CHECK_THAT(help, !Catch::Contains(line));
      } else {
        CHECK_THAT(help, Catch::Contains(line));
      }
    }
  }
  const Command* env = FindCommand("env");
  REQUIRE(env != nullptr);
  CHECK_THAT(HelpText(*env), !Catch::Contains("what was measured is saved"));
  // A command that measures nothing says its codes in its own words: none
  // of them speaks of measuring.
  for (const char* name : {"env", "show", "compare", "record"}) {
    const std::string help = HelpText(*FindCommand(name));
    const std::string codes = help.substr(help.find("Exit codes:"));
    INFO(codes);
    CHECK_THAT(codes, !Catch::Contains("measur"));
    CHECK_THAT(codes, Catch::Contains("standard output not written"));
  }
  CHECK_THAT(HelpText(Commands().front()),
             Catch::Contains("I/O error during measurement"));
  // record does not save a measurement on Ctrl-C nor keep a fallback file; it
  // passes on its command's status.
  const Command* record = FindCommand("record");
  REQUIRE(record != nullptr);
  CHECK_THAT(HelpText(*record), !Catch::Contains("marked incomplete"));
  CHECK_THAT(HelpText(*record), Catch::Contains("COMMAND's own exit status"));
}

TEST_CASE("cli: every command's --help fits in 80 columns") {
  for (const Command& command : Commands()) {
    std::istringstream lines(HelpText(command));
    for (std::string line; std::getline(lines, line);) {
      // Columns are characters: UTF-8's continuation bytes take none.
      std::size_t columns = 0;
      for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
      INFO(command.name << ": " << line);
      CHECK(columns <= 80);
    }
  }
}

TEST_CASE("cli: --format json for the run, show and compare") {
  for (const char* name : {"show", "compare"}) {
    CHECK_THAT(UsageLine(*FindCommand(name)), Catch::EndsWith("|json]"));
  }
  std::vector<std::string> run = {"--dir", "/tmp", "--format", "json"};
  Result<ParsedCommand> parsed = Parse(run);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().format == "json");
  Result<RunOptions> options = RunOptionsOf(parsed.value());
  REQUIRE(options.ok());
  CHECK(options.value().result_json);
  CHECK_THAT(ErrorOf({"show", "r.json", "--format", "json", "--details"}),
             Catch::Contains("--details"));
}
