// Pair-level logic on hand-made run records: the verdict text and the
// level-shift warning.
#include "lib/report/pairs.h"

#include <catch2/catch.hpp>
#include <cerrno>

#include "lib/report/explain.h"

using namespace alignbench;

namespace {

// A pair whose runs' medians follow `p50_ms` (unaligned and aligned alike),
// run in block order, two runs a block.
PairResult PairWithRuns(const std::vector<double>& p50_ms,
                        std::size_t first_order) {
  PairResult pair;
  std::size_t order = first_order;
  for (std::size_t i = 0; i < p50_ms.size(); ++i) {
    const RunPoint run{0, i + 1, 0, 0, p50_ms[i] * 1e6, p50_ms[i] * 1e6};
    pair.unaligned.runs.push_back(run);
    pair.unaligned.runs.back().order = order++;
    pair.aligned.runs.push_back(run);
    pair.aligned.runs.back().order = order++;
  }
  pair.unaligned.repetitions = pair.aligned.repetitions = p50_ms.size();
  return pair;
}

}  // namespace

TEST_CASE("A level shift across all pairs is said, with where it started") {
  // Two pairs, eight blocks each, the second pair's runs after the first's:
  // the disk is 4x slower from the second half of each pair's runs on.
  const std::vector<double> slow_later = {1, 1, 1, 1, 4, 4, 4, 4};
  std::vector<PairResult> pairs = {PairWithRuns(slow_later, 1),
                                   PairWithRuns(slow_later, 17)};
  const std::optional<std::string> shift = LevelShift(pairs);
  REQUIRE(shift);
  CHECK_THAT(*shift, Catch::Contains("4.0x longer"));

  const std::vector<double> steady = {1, 1.2, 0.9, 1.1, 1, 1.3, 0.8, 1};
  CHECK_FALSE(LevelShift({PairWithRuns(steady, 1), PairWithRuns(steady, 17)}));
  CHECK_FALSE(LevelShift({PairWithRuns({1, 5}, 1)}));  // too few runs
}

TEST_CASE("Verdict text says why a pair is undecided or unmeasured") {
  PairResult pair = PairWithRuns({1, 1}, 1);
  pair.gain_pct = 0;
  pair.verdict = Verdict::kUndecided;
  CHECK(VerdictText(pair) == "undecided: 2 runs");
  pair.verdict = Verdict::kAlignedFaster;
  CHECK(VerdictText(pair) == "aligned faster");

  PairResult refused;
  refused.spec = {4096, SyncMethod::kFsync, IoMode::kDirect, Layout::kExtend,
                  CacheState::kWarm};
  refused.aligned.repetitions = 3;
  refused.unaligned.error_errno = EINVAL;
  CHECK(VerdictText(refused) == "not measurable");
  refused.unaligned.error_errno = ENOSPC;
  CHECK(VerdictText(refused) == "stopped by an error");
}

TEST_CASE("Explain names the variant that has no time, and why") {
  // The shifted variant stopped on its first run (ENOSPC); the aligned one has
  // a time although one of its runs failed too.
  PairResult pair;
  pair.spec = {262144, SyncMethod::kFsync, IoMode::kBuffered, Layout::kExtend,
               CacheState::kWarm};
  pair.unaligned.error = "pwrite /d/f: No space left on device (ENOSPC)";
  pair.unaligned.error_errno = ENOSPC;
  pair.aligned.repetitions = 2;
  pair.aligned.failed_repetitions = 1;
  pair.aligned.error = "fsync /d/g: Input/output error (EIO)";
  pair.aligned.error_errno = EIO;
  CHECK(Explain(pair, 24) ==
        "shifted writes were stopped by an error: pwrite /d/f: No space left "
        "on device (ENOSPC)");
  pair.spec.io = IoMode::kDirect;
  pair.unaligned.error_errno = EINVAL;
  CHECK_THAT(Explain(pair, 24),
             Catch::StartsWith("shifted writes are not measurable here"));
}

TEST_CASE("Explain gives no verdict with too few runs, and says so") {
  PairResult pair = PairWithRuns({1, 1}, 1);
  pair.gain_pct = 3;
  pair.verdict = Verdict::kUndecided;
  pair.unaligned.device = pair.aligned.device = DevicePerOp{0, 0, 1, 4, 1};
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::Contains("No verdict (undecided: 2 runs)"));
  CHECK_THAT(text, !Catch::Contains("cannot explain this difference"));
}
