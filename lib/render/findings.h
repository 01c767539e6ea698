// What the answer line is made from: each pair's finding (what its interval
// says about the question), the run's pairs by finding, and how the answer
// names them. lib/render/answer.h says them as one sentence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

// What a pair's interval says about the question. kLeans: on one side of 0
// at 5 % but not at the 1 % a rerun would repeat. kNarrowButPast: no
// significant difference and the interval as narrow as asked (half-width at
// most the precision), but not inside [-P, +P], so neither "no difference
// beyond ±P" nor "unanswered" is true of it: a larger budget would not change
// it, a smaller --precision would.
enum class Finding {
  kHelps,
  kHurts,
  kLeans,
  kNoDifference,
  kNarrowButPast,
  kUnanswered,
  kUnmeasured,
  kCount
};

Finding FindingOf(const PairResult& pair, double precision);

// Sizes that follow each other in the plan's sorted list of sizes are one
// range ("32K-512K"); axes or shifts make every pair its own name ("4K fsync
// direct", "4K (shift 512 B)").
std::string Names(const std::vector<const PairResult*>& pairs,
                  const std::vector<std::uint64_t>& all_sizes, bool with_axes,
                  bool with_shift = false);

// "8-20 %" over the pairs' estimates (the interval centres), magnitudes; of
// the typical gain, or of the tail's with &PairResult::tail.
std::string GainRange(const std::vector<const PairResult*>& pairs,
                      Inference PairResult::*gain = &PairResult::inference);

// "±2.1-2.4": the range of the pairs' half-widths as a precision reached
// is printed (ReachedPoints: rounded up to a tenth).
std::string Reached(const std::vector<const PairResult*>& pairs);

// "[-1.2, +7.3]": the smallest range holding every pair's interval.
std::string Hull(const std::vector<const PairResult*>& pairs);

// "1 size", "3 sizes": a count and its noun.
std::string CountText(std::size_t n, const char* one, const char* many);

// The run's pairs by what their intervals say. A decided pair whose interval
// is wider than asked is kept apart from the helps and hurts: its direction is
// known, its size less well than the run promised, so that no gain range
// leads the answer with it.
struct Findings {
  std::vector<const PairResult*> by[static_cast<int>(Finding::kCount)];
  std::vector<const PairResult*> short_of;
  // Decided pairs whose variants' files landed differently: their difference
  // is not presented as alignment's.
  std::vector<const PairResult*> placed;

  const std::vector<const PairResult*>& Of(Finding f) const {
    return by[static_cast<int>(f)];
  }
};

Findings Classify(const Report& report, double precision);

// How the answer names pairs: by size, with the axes where the plan has
// several combinations of them.
struct Naming {
  std::vector<std::uint64_t> sizes;
  bool with_axes = false;
  // The report measured several shifts.
  bool with_shift = false;

  std::string Of(const std::vector<const PairResult*>& pairs) const {
    return Names(pairs, sizes, with_axes, with_shift);
  }
  std::string Counted(std::size_t n) const {
    return with_axes || with_shift ? CountText(n, "pair", "pairs")
                                   : CountText(n, "size", "sizes");
  }
};

Naming NamingOf(const Report& report);

}  // namespace alignbench
