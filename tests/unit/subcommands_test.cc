// The subcommands and the one way errors reach the user
// (lib/cli/subcommands.h).
#include "lib/cli/subcommands.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/result/result_json.h"
#include "temp_dir.h"
#include "tests/unit/report_fixture.h"

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

// `report` saved in `dir` as NAME, as a run saves it; its path.
std::string Saved(const TempDir& dir, const std::string& name,
                  const Report& report) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path) << ResultDocumentText(
      nlohmann::json{{"alignbench", ToJson(report)}}, false);
  return path;
}

nlohmann::json Read(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The fixture with its 4K pair's typical gain at `estimate`, in an
// interval from 8 blocks 4 points either side: aligned faster, firmly.
Report WithSmallGain(double estimate) {
  Report r = testing::FixedReport();
  PairResult& pair = r.pairs[1];
  for (VariantResult* v : {&pair.unaligned, &pair.aligned}) {
    while (v->runs.size() < 8) {
      RunPoint run = v->runs.back();
      run.order = run.block = v->runs.size() + 1;
      v->runs.push_back(run);
    }
    v->repetitions = v->runs.size();
  }
  GainTest& test = *pair.inference.test;
  test.estimate_pct = estimate;
  test.interval_pct = {estimate - 4, estimate + 4};
  test.p_value = 0.001;
  test.units = 8;
  pair.verdict = Verdict::kAlignedFaster;
  return r;
}

}  // namespace

TEST_CASE("subcommands: show and compare --format json print the documents") {
  TempDir dir;
  const std::string a = Saved(dir, "a.json", WithSmallGain(10));
  const std::string b = Saved(dir, "b.json", WithSmallGain(30));
  {
    Capture out(std::cout);
    CHECK(RunSubcommand(Parsed({"show", a, "--format", "json"})) == 0);
    CHECK(nlohmann::json::parse(out.Text()) == Read(a));
  }
  Capture out(std::cout);
  CHECK(RunSubcommand(Parsed({"compare", b, a, "--format", "json"})) == 0);
  CHECK(nlohmann::json::parse(out.Text()) ==
        nlohmann::json::array({Read(b), Read(a)}));
}

TEST_CASE("subcommands: compare --fail-on-regression exits 5 after the table") {
  TempDir dir;
  const std::string base = Saved(dir, "base.json", WithSmallGain(10));
  const std::string next = Saved(dir, "next.json", WithSmallGain(30));
  Capture out(std::cout);
  Capture err(std::cerr);
  CHECK(RunSubcommand(
            Parsed({"compare", base, next, "--fail-on-regression", "5"})) == 5);
  CHECK_THAT(out.Text(), Catch::Contains("gain grew"));
  CHECK_THAT(err.Text(),
             Catch::Matches("alignbench: error: compare --fail-on-regression "
                            "5: firmly slower than in .*base\\.json \\(the "
                            "typical or the p99 gain, each named\\): "
                            ".*next\\.json: 4K "
                            "fdatasync buffered prewritten cold: typical gain "
                            "\\+10\\.0% -> \\+30\\.0%, 18\\.2% slower\n"));
  // Beyond the growth, in the other direction, or not asked: 0.
  CHECK(RunSubcommand(Parsed(
            {"compare", base, next, "--fail-on-regression", "18.5"})) == 0);
  CHECK(RunSubcommand(
            Parsed({"compare", next, base, "--fail-on-regression", "0"})) == 0);
  CHECK(RunSubcommand(Parsed({"compare", base, next})) == 0);
  // --format json: the documents, and the exit all the same.
  CHECK(RunSubcommand(Parsed({"compare", base, next, "--format", "json",
                              "--fail-on-regression", "5"})) == 5);
  for (const char* limit : {"-1", "five", "0x5", "inf"}) {
    CHECK(RunSubcommand(
              Parsed({"compare", base, next,
                      std::string("--fail-on-regression=") + limit})) == 1);
  }
}

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
