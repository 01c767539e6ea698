// lib/session/reports.h: a report per directory started with its probe, and
// finished from the runs of the stages, on a real temporary directory.
#include "lib/session/reports.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

SessionOptions Options(const std::vector<std::string>& dirs) {
  SessionOptions options;
  options.settings.dir = dirs.front();
  options.settings.sizes = {4096, 8192};
  options.settings.writes = 3;
  options.settings.repetitions = 6;
  options.settings.syncs = {SyncMethod::kNone};
  options.settings.seed = 5;
  options.dirs = dirs;
  options.command_line = {"alignbench", "--dir", dirs.front()};
  return options;
}

}  // namespace

TEST_CASE("reports: one per directory, each with its own probe") {
  TempDir a;
  TempDir b;
  SessionOptions options = Options({a.path(), b.path()});
  options.redact_host = true;
  std::ostringstream log;
  Result<std::vector<Report>> started = StartReports(options, 2, log);
  REQUIRE(started);
  REQUIRE(started.value().size() == 2);
  CHECK(started.value()[0].settings.dir == a.path());
  CHECK(started.value()[1].settings.dir == b.path());
  CHECK(started.value()[1].target.dir == b.path());
  CHECK(started.value()[0].command_line == options.command_line);
  CHECK_FALSE(started.value()[0].target.host.hostname.has_value());
  CHECK(log.str().find("measuring 2 pairs x 2 variants x 6 run(s) x 3 writes "
                       "in each of 2 directories") != std::string::npos);
}

TEST_CASE("reports: finished from the runs, incomplete when stopped") {
  TempDir dir;
  const SessionOptions options = Options({dir.path()});
  std::ostringstream log;
  Result<std::vector<Report>> started = StartReports(options, 2, log);
  REQUIRE(started);
  Report report = started.value()[0];
  const std::vector<PairSpec> plan = ExpandPlan(options.settings);
  PlainRunner runner;
  StagesResult stages = MeasureStages({report.settings}, {report.target}, plan,
                                      false, runner, SystemFileOps());
  REQUIRE_FALSE(stages.fatal);
  stages.interrupted = true;
  FinishReport(report, 0, plan, stages, {"from the runner"});
  REQUIRE(report.pairs.size() == 2);
  CHECK(report.pairs[1].spec.size == 8192);
  CHECK(report.pairs[0].aligned.repetitions == 6);
  CHECK(report.settings.seed == std::optional<std::uint64_t>(5));
  CHECK_FALSE(report.complete);
  REQUIRE(report.errors.size() == 1);
  CHECK(report.errors[0].find("interrupted (SIGINT)") == 0);
  CHECK(report.warnings.back() == "from the runner");
  CHECK(report.finished_at.has_value());
}
