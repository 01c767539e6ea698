// Two results side by side: pairs matched by size and axes, both gains with
// their intervals, the change in each variant's mean and p99, whether the gain
// changed, and every setting or environment fact that differs between the two
// (the first thing a reader must know).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

// One setting or environment fact as a comparison shows it.
struct Fact {
  std::string name;
  // "unknown" when it could not be probed.
  std::string text;
};

// Every setting and environment fact a comparison looks at, in a fixed order
// (the environment's from the field table, lib/result/env_fields.h): the same
// names for every report.
std::vector<Fact> ComparedFacts(const Report& report);

// "write cache: write back -> write through", one entry per differing field.
std::vector<std::string> DifferingFields(const Report& base,
                                         const Report& next);

// Whether a run agrees with a mailing-list table it is compared with (a
// result with `reference`), in one sentence: at how many sizes the post's
// gain lies inside the run's interval, and at how many the run's firm
// verdict lies on the other side of 0.
std::string AgreementWithPost(const Report& post, const Report& run);

void RenderComparison(std::ostream& out, const Report& base,
                      const Report& next);

// How a pair's typical gain changed from BASE to NEW, by the one rule compare
// prints: it grew or shrank firmly only where the two 95 % intervals are
// apart and each is from kMinBlocksForFirmVerdict blocks or more.
enum class GainChange {
  kNotComparable,   // a variant of either was not measured
  kNoInterval,      // a mailing-list table: no interval to tell by
  kUnchanged,       // the intervals overlap
  kApartFewBlocks,  // apart, but from fewer blocks than a firm verdict needs
  kGrew,
  kShrank,
};
GainChange ChangeOfGain(const PairResult& base, const PairResult& next);

// A pair whose writes got firmly slower from BASE to NEW: its typical gain,
// or its tail's (the runs' p99, `tail_gain`), grew by ChangeOfGain's rule,
// and unaligned's time relative to aligned's by more than a limit.
struct Regression {
  // "4K fsync buffered extend warm": the size and the pair's group.
  std::string pair;
  // Which gain grew: "typical gain" or "p99 gain".
  std::string which;
  double base_gain_pct = 0;
  double next_gain_pct = 0;
  // (1 + next gain) / (1 + base gain) - 1, in %: how much slower unaligned
  // writes got relative to aligned ones.
  double slower_pct = 0;
};

// The pairs of BASE matched in NEW (as compare matches them) that got firmly
// slower by more than `limit_pct`, in BASE's order.
std::vector<Regression> Regressions(const Report& base, const Report& next,
                                    double limit_pct);

// "4K fsync buffered extend warm: typical gain +10.0% -> +25.0%, 13.6%
// slower".
std::string RegressionText(const Regression& regression);

}  // namespace alignbench
