// The subcommands and the one way errors reach the user
// (lib/cli/subcommands.h).
#include "lib/cli/subcommands.h"

#include <catch2/catch.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "temp_dir.h"

using namespace alignbench;

namespace {

// Standard output or error captured for the life of the object.
class Capture {
 public:
  explicit Capture(std::ostream& stream)
      : stream_(stream), saved_(stream.rdbuf(text_.rdbuf())) {}
  ~Capture() { stream_.rdbuf(saved_); }
  std::string Text() const { return text_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream text_;
  std::streambuf* saved_;
};

ParsedCommand Parsed(std::vector<std::string> args) {
  Result<ParsedCommand> parsed = ParseCommandLine(args);
  REQUIRE(parsed.ok());
  return parsed.value();
}

}  // namespace

TEST_CASE("subcommands: an error is one line with its exit code") {
  Capture err(std::cerr);
  CHECK(ReportError(PlainError(ErrorKind::kIo, "pwrite", "broken")) == 3);
  CHECK(err.Text() == "alignbench: error: pwrite: broken\n");
  CHECK(ReportError(PlainError(ErrorKind::kUsage, "option --x", "bad")) == 1);
  CHECK_THAT(err.Text(), Catch::EndsWith("Try 'alignbench --help'.\n"));
}

TEST_CASE("subcommands: env --format json is the environment object") {
  TempDir dir;
  Capture out(std::cout);
  CHECK(RunSubcommand(Parsed({"env", dir.path(), "--format", "json"})) == 0);
  const nlohmann::json env = nlohmann::json::parse(out.Text());
  CHECK(env.is_object());
}

TEST_CASE("subcommands: a missing result file is a usage error") {
  TempDir dir;
  Capture err(std::cerr);
  CHECK(RunSubcommand(Parsed({"show", dir.path() + "/nope.json"})) == 1);
  CHECK_THAT(err.Text(), Catch::Contains("No such file or directory"));
}
