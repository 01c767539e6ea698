// What a pair came to, in the words every layer above uses.
#include "lib/pairs/pair_result.h"

#include <catch2/catch.hpp>
#include <cerrno>

#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("Verdict text says why a pair is undecided or unmeasured") {
  PairResult pair;
  pair.unaligned.repetitions = pair.aligned.repetitions = 2;
  pair.means_gain_pct = 0;
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

TEST_CASE("A pair's axes in words, and specs the same by their key") {
  const PairSpec spec = testing::kFsync4K;
  CHECK(AxesLabel(spec) == "fsync buffered extend warm");
  CHECK(AxesLabel(spec, "/") == "fsync/buffered/extend/warm");
  PairSpec other = spec;
  CHECK(SameSpec(spec, other));
  other.size = 8192;
  CHECK_FALSE(SameSpec(spec, other));
  CHECK(RefusedDirectWrite(IoMode::kDirect, EINVAL));
  CHECK_FALSE(RefusedDirectWrite(IoMode::kBuffered, EINVAL));
  CHECK_FALSE(RefusedDirectWrite(IoMode::kDirect, EIO));
}

TEST_CASE("Every mechanism has a name a result file can carry") {
  for (const auto& m : kMechanisms) {
    CHECK(FromName(kMechanisms, m.name) == m.value);
  }
}
