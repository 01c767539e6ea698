// Streaming latency histograms: every write's time counted in
// log-linear buckets, so memory does not grow with the number of writes.
// Buckets: values below 128 ns are exact; above, each power of two is split
// into 128 equal buckets, so a bucket is at most 1/128 (0.78 %) of its lower
// bound wide. A percentile places the items of a bucket evenly inside it and
// interpolates between ranks as Percentile() in summary.h does (type 7): it is
// within kPercentileRelativeError of the exact percentile of the same samples.
// Count, sum, sum of squares, min and max are exact, so mean and standard
// deviation are too. Histograms of the same layout merge by adding counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/stats/summary.h"

namespace alignbench {

inline constexpr int kHistogramSubBits = 7;
// The bound of every percentile taken from a histogram, relative to the
// exact one: one bucket's width over its lower bound.
inline constexpr double kPercentileRelativeError =
    1.0 / (1 << kHistogramSubBits);

// Times from 2^40 ns (about 18 minutes) on share the last bucket.
inline constexpr int kHistogramTopBit = 40;

// Bucket index of a time in ns, not negative; inline: the timed loop calls it.
inline std::uint32_t BucketOf(std::int64_t ns) {
  constexpr std::uint64_t kSub = 1u << kHistogramSubBits;
  if (ns < 0) return 0;
  const auto v = static_cast<std::uint64_t>(ns);
  if (v < kSub) return static_cast<std::uint32_t>(v);
  const int top = 63 - __builtin_clzll(v);
  if (top >= kHistogramTopBit) {
    return static_cast<std::uint32_t>(
        kSub * (kHistogramTopBit - kHistogramSubBits + 1));
  }
  const int shift = top - kHistogramSubBits;
  return static_cast<std::uint32_t>(kSub * (shift + 1) + (v >> shift) - kSub);
}
// A bucket's bounds: [lower, lower + width).
std::uint64_t BucketLowerNs(std::uint32_t index);
std::uint64_t BucketWidthNs(std::uint32_t index);
// Buckets in all.
inline constexpr std::uint32_t kBucketCount =
    (1u << kHistogramSubBits) * (kHistogramTopBit - kHistogramSubBits + 1) + 1;

// GCC's and Clang's 128-bit integer; __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 SumOfSquares;

struct HistogramBucket {
  std::uint32_t index = 0;
  std::uint64_t count = 0;
};

// The sparse form: what a run keeps, what merges and what the JSON holds.
struct Histogram {
  std::uint64_t count = 0;
  std::int64_t sum_ns = 0;
  // Exact: a million writes of 1 s each square to 1e24, beyond 64 bits.
  SumOfSquares sum_squares = 0;
  std::int64_t min_ns = 0;
  std::int64_t max_ns = 0;
  // Non-empty buckets, ascending by index.
  std::vector<HistogramBucket> buckets;

  // Adds another histogram's counts and exact figures.
  void Merge(const Histogram& other);
  double Mean() const;
  // q in [0, 1]; NaN when empty.
  double Percentile(double q) const;
  // Count, exact mean/stddev/min/max, percentiles within the bound; p99.9
  // needs 1000 writes and p99.99 10000, else they are NaN.
  Summary ToSummary() const;
};

// The dense form, for the timed loop: every bucket allocated at construction,
// so Record() never allocates.
class HistogramRecorder {
 public:
  HistogramRecorder();
  void Record(std::int64_t ns) {
    if (ns < 0) ns = 0;  // steady_clock does not go back; be safe anyway
    ++counts_[BucketOf(ns)];
    ++count_;
    sum_ns_ += ns;
    sum_squares_ +=
        static_cast<SumOfSquares>(ns) * static_cast<SumOfSquares>(ns);
    if (count_ == 1 || ns < min_ns_) min_ns_ = ns;
    if (ns > max_ns_) max_ns_ = ns;
  }
  void Reset();
  Histogram Sparse() const;

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::int64_t sum_ns_ = 0;
  SumOfSquares sum_squares_ = 0;
  std::int64_t min_ns_ = 0;
  std::int64_t max_ns_ = 0;
};

// A histogram of the given values, for tests and fixtures.
Histogram HistogramOf(const std::vector<double>& values_ns);

}  // namespace alignbench
