// lib/session/stages.h: MeasureStages with PlainRunner on a temporary
// directory. A fixed design collects every planned run, each block one run
// of each variant of one pair; with a budget the rounds are recorded per pair
// with a final state, and every block they spent is a collected pair of runs.
#include "lib/session/stages.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

Settings Small(const std::string& dir) {
  Settings s;
  s.dir = dir;
  s.sizes = {4096, 8192};
  s.writes = 3;
  s.repetitions = 6;
  s.syncs = {SyncMethod::kNone};
  s.seed = 11;
  return s;
}

TargetInfo Target(const std::string& dir) {
  TargetInfo target;  // no device: no idle windows to wait for
  target.dir = dir;
  return target;
}

// Every block is one run of each variant of one pair; orders are 1..N.
void CheckBlocks(const std::vector<CollectedRun>& runs) {
  std::map<std::size_t, std::vector<const CollectedRun*>> blocks;
  std::set<std::size_t> orders;
  for (const CollectedRun& run : runs) {
    blocks[run.block].push_back(&run);
    orders.insert(run.order);
  }
  CHECK(orders.size() == runs.size());
  CHECK(*orders.begin() == 1);
  CHECK(*orders.rbegin() == runs.size());
  for (const auto& [block, pair] : blocks) {
    CAPTURE(block);
    REQUIRE(pair.size() == 2);
    CHECK(pair[0]->variant != pair[1]->variant);
    CHECK(KeyOf(pair[0]->pair) == KeyOf(pair[1]->pair));
  }
}

}  // namespace

TEST_CASE("stages: a fixed design collects every planned run") {
  TempDir dir;
  const Settings settings = Small(dir.path());
  PlainRunner runner;
  const std::vector<PairSpec> plan = ExpandPlan(settings);
  const StagesResult result = MeasureStages(
      {settings}, {Target(dir.path())}, plan, false, runner, SystemFileOps());
  CHECK_FALSE(result.fatal.has_value());
  CHECK_FALSE(result.interrupted);
  CHECK(result.seed == 11);
  CHECK(result.rounds_run == 1);
  CHECK(result.rounds.empty());
  REQUIRE(result.runs.size() == 1);
  const std::vector<CollectedRun>& runs = result.runs[0];
  // 2 sizes x 2 variants x 6 repetitions.
  REQUIRE(runs.size() == 24);
  std::map<std::pair<std::uint64_t, Variant>, int> per;
  for (const CollectedRun& run : runs) {
    CHECK(run.record.Writes() == settings.writes);
    CHECK_FALSE(run.record.error.has_value());
    CHECK(run.dir == 0);
    ++per[{run.pair.size, run.variant}];
  }
  REQUIRE(per.size() == 4);
  for (const auto& [key, n] : per) CHECK(n == 6);
  CheckBlocks(runs);
  // A target without a device has no disk to watch, but the CPUs are the
  // machine's: each pair's idle sample holds their time and no device I/O.
  REQUIRE(result.idle.size() == 1);
  for (const auto& sample : result.idle[0]) {
    REQUIRE(sample.has_value());
    REQUIRE(sample->cpu.has_value());
    CHECK(sample->cpu->all > 0);
    CHECK(sample->delta.writes == 0);
  }
  CHECK(dir.Names().empty());  // every test file removed
}

TEST_CASE("stages: with a budget, rounds are recorded per pair") {
  TempDir dir;
  Settings settings = Small(dir.path());
  settings.budget_seconds = 1.0;
  settings.precision_points = 5;
  PlainRunner runner;
  const StagesResult result =
      MeasureStages({settings}, {Target(dir.path())}, ExpandPlan(settings),
                    false, runner, SystemFileOps());
  CHECK_FALSE(result.fatal.has_value());
  CHECK(result.rounds_run >= 1);
  REQUIRE(result.rounds.size() == 1);
  REQUIRE(result.rounds[0].size() == 2);  // one per pair of the plan
  REQUIRE(result.runs.size() == 1);
  std::uint64_t blocks = 0;
  for (const PairRounds& r : result.rounds[0]) {
    CAPTURE(NameOf(kPairStates, r.state));
    CHECK(r.blocks >= settings.repetitions);
    CHECK(r.rounds >= 1);
    CHECK(r.rounds <= result.rounds_run);
    // The rounds ended without a fault: no pair is left open.
    CHECK(r.state != PairState::kOpen);
    CHECK(r.state != PairState::kNotMeasurable);
    if (r.state == PairState::kPrecisionReached) {
      REQUIRE(r.stand_in_points.has_value());
      CHECK(*r.stand_in_points <= settings.precision_points);
    }
    blocks += r.blocks;
  }
  // Every block the rounds gave is one run of each variant.
  CHECK(result.runs[0].size() == 2 * blocks);
  CheckBlocks(result.runs[0]);
  CHECK(dir.Names().empty());
}

TEST_CASE(
    "stages: a spent budget holds the first round to a verdict's blocks") {
  // The budget is gone before the first round ends: every pair still gets
  // the blocks a verdict needs, and none of the rest of --repetitions.
  TempDir dir;
  Settings settings = Small(dir.path());
  settings.repetitions = 10;
  settings.budget_seconds = 1e-6;
  PlainRunner runner;
  const StagesResult result =
      MeasureStages({settings}, {Target(dir.path())}, ExpandPlan(settings),
                    false, runner, SystemFileOps());
  REQUIRE(result.rounds.size() == 1);
  for (const PairRounds& r : result.rounds[0]) {
    CHECK(r.blocks == kMinRunsForVerdict);
    CHECK(r.rounds == 1);
    CHECK(r.state == PairState::kOutOfBudget);
  }
  REQUIRE(result.runs.size() == 1);
  CHECK(result.runs[0].size() == 2 * 2 * kMinRunsForVerdict);
  CheckBlocks(result.runs[0]);
}

TEST_CASE("stages: a failed create stops the runs and is recorded") {
  class Broken final : public FileOpsWrapper {
   public:
    Broken() : FileOpsWrapper(SystemFileOps()) {}
    int creates = 0;
    int Create(const char* p, int f, mode_t m) override {
      if (++creates > 3) {
        errno = EIO;
        return -1;
      }
      return FileOpsWrapper::Create(p, f, m);
    }
  } ops;
  TempDir dir;
  PlainRunner runner;
  const Settings settings = Small(dir.path());
  const StagesResult result =
      MeasureStages({settings}, {Target(dir.path())}, ExpandPlan(settings),
                    false, runner, ops);
  REQUIRE(result.fatal.has_value());
  CHECK(result.fatal->errno_value == EIO);
  REQUIRE(result.runs.size() == 1);
  std::size_t ok = 0, failed = 0;
  for (const CollectedRun& run : result.runs[0]) {
    (run.record.error ? failed : ok) += 1;
  }
  CHECK(ok == 3);
  CHECK(failed >= 1);
  CHECK(dir.Names().empty());
}
