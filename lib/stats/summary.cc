#include "lib/stats/summary.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace alignbench {

double Mean(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double Percentile(const std::vector<double>& sorted, double q) {
  assert(!sorted.empty() && q >= 0 && q <= 1);
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

Summary Summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.mean = s.stddev = s.min = s.p50 = s.p90 = s.p99 = s.max = nan;
    return s;
  }
  s.mean = Mean(values);
  // Two passes: summing squared deviations from the mean avoids the
  // cancellation that sum(x²) − n·mean² suffers when the spread is tiny against
  // the mean.
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.stddev = values.size() > 1
                 ? std::sqrt(squares / static_cast<double>(values.size() - 1))
                 : 0.0;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  s.p50 = Percentile(values, 0.50);
  s.p90 = Percentile(values, 0.90);
  s.p99 = Percentile(values, 0.99);
  if (values.size() >= 1000) s.p999 = Percentile(values, 0.999);
  if (values.size() >= 10000) s.p9999 = Percentile(values, 0.9999);
  return s;
}

// Evaluated as the Java program did (100*b/a-100), which reproduces its printed
// column to the last bit; (b/a - 1)*100 is the same number but rounds
// differently in the last digits.
double GainPct(double unaligned, double aligned) {
  return 100 * unaligned / aligned - 100;
}

}  // namespace alignbench
