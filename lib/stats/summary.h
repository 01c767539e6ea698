// Summaries of per-operation times as pure functions (no I/O, no state).
// Edge cases: an empty vector gives count 0 and NaN everywhere else; n = 1
// gives stddev 0. Percentiles are exact: linear interpolation between the
// closest ranks of a sorted copy (Hyndman & Fan type 7, numpy's default), so
// p50 of an even-length vector is the mean of the middle two.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace alignbench {

struct Summary {
  std::size_t count = 0;
  double mean = 0;
  // Sample standard deviation (n − 1), computed in two passes
  double stddev = 0;
  double min = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  // The tail, where the count allows it (1000 and 10000 values); else NaN.
  double p999 = std::numeric_limits<double>::quiet_NaN();
  double p9999 = std::numeric_limits<double>::quiet_NaN();
  double max = 0;
  // Bound of the percentiles' error relative to exact ones: 0 when exact,
  // kPercentileRelativeError when they come from a histogram.
  double relative_error = 0;
};

Summary Summarize(std::vector<double> values);

// q in [0, 1]; `sorted` must be sorted ascending and non-empty.
double Percentile(const std::vector<double>& sorted, double q);

double Mean(const std::vector<double>& values);

// Derby's gain column exactly: (unaligned / aligned − 1) · 100; positive =
// aligning helps.
double GainPct(double unaligned, double aligned);

}  // namespace alignbench
