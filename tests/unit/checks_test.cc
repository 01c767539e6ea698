// lib/session/checks.h: what a session is refused for before a write is
// timed, on real temporary directories.
#include "lib/session/checks.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

SessionOptions Options(const std::vector<std::string>& dirs) {
  SessionOptions options;
  options.settings.sizes = {4096};
  options.settings.writes = 4;
  options.settings.dir = dirs.front();
  options.dirs = dirs;
  return options;
}

}  // namespace

TEST_CASE("checks: one result path per directory, none without --out") {
  TempDir a;
  TempDir b;
  SessionOptions options = Options({a.path(), b.path()});
  std::ostringstream log;
  const std::vector<PairSpec> plan = ExpandPlan(options.settings);
  Result<std::vector<std::string>> none =
      CheckBeforeMeasuring(options, plan, log);
  REQUIRE(none);
  CHECK(none.value().empty());
  options.out = a.path() + "/r.json";
  Result<std::vector<std::string>> paths =
      CheckBeforeMeasuring(options, plan, log);
  REQUIRE(paths);
  CHECK(paths.value() == ResultPaths(*options.out, options.dirs));
  CHECK(paths.value().size() == 2);
  // The probe's test file is gone again; no result file is made yet.
  CHECK(a.Names().empty());
  CHECK(b.Names().empty());
}

TEST_CASE("checks: an existing result or the case file itself is refused") {
  TempDir dir;
  SessionOptions options = Options({dir.path()});
  const std::string kept = dir.path() + "/kept.json";
  std::ofstream(kept) << "{}\n";
  options.out = kept;
  std::ostringstream log;
  const std::vector<PairSpec> plan = ExpandPlan(options.settings);
  Result<std::vector<std::string>> refused =
      CheckBeforeMeasuring(options, plan, log);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().Message().find(kept) != std::string::npos);
  options.overwrite = Overwrite::kReplace;
  CHECK(CheckBeforeMeasuring(options, plan, log));
  options.case_path = kept;
  CHECK_FALSE(CheckBeforeMeasuring(options, plan, log));
  std::ifstream in(kept);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "{}\n");
}

TEST_CASE("checks: a directory that is not there is refused by name") {
  TempDir dir;
  const std::string gone = dir.path() + "/not-there";
  SessionOptions options = Options({dir.path(), gone});
  std::ostringstream log;
  Result<std::vector<std::string>> refused =
      CheckBeforeMeasuring(options, ExpandPlan(options.settings), log);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().Message().find(gone) != std::string::npos);
}
