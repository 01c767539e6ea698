#include "lib/stats/histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace alignbench {
namespace {

constexpr std::uint32_t kSub = 1u << kHistogramSubBits;
constexpr std::uint32_t kLast = kBucketCount - 1;

// The value of the item of rank `rank` (0-based), its bucket's items placed
// evenly inside it and kept within the exact min and max.
double ValueAtRank(const Histogram& h, std::uint64_t rank) {
  std::uint64_t before = 0;
  for (const HistogramBucket& b : h.buckets) {
    if (rank < before + b.count) {
      const double lower = static_cast<double>(BucketLowerNs(b.index));
      const double width = static_cast<double>(BucketWidthNs(b.index));
      const double at = static_cast<double>(rank - before) + 0.5;
      const double value =
          width <= 1 ? lower
                     : lower + width * at / static_cast<double>(b.count);
      return std::clamp(value, static_cast<double>(h.min_ns),
                        static_cast<double>(h.max_ns));
    }
    before += b.count;
  }
  return static_cast<double>(h.max_ns);
}

}  // namespace

std::uint64_t BucketLowerNs(std::uint32_t index) {
  if (index < kSub) return index;
  if (index >= kLast) return std::uint64_t{1} << kHistogramTopBit;
  const std::uint32_t shift = index / kSub - 1;
  return std::uint64_t{index - kSub * shift} << shift;
}

std::uint64_t BucketWidthNs(std::uint32_t index) {
  if (index < kSub) return 1;
  if (index >= kLast) return std::numeric_limits<std::uint64_t>::max() / 2;
  return std::uint64_t{1} << (index / kSub - 1);
}

void Histogram::Merge(const Histogram& other) {
  if (other.count == 0) return;
  min_ns = count == 0 ? other.min_ns : std::min(min_ns, other.min_ns);
  max_ns = count == 0 ? other.max_ns : std::max(max_ns, other.max_ns);
  count += other.count;
  sum_ns += other.sum_ns;
  sum_squares += other.sum_squares;
  std::vector<HistogramBucket> merged;
  merged.reserve(buckets.size() + other.buckets.size());
  auto a = buckets.cbegin();
  auto b = other.buckets.cbegin();
  while (a != buckets.end() || b != other.buckets.end()) {
    if (b == other.buckets.end() ||
        (a != buckets.end() && a->index < b->index)) {
      merged.push_back(*a++);
    } else if (a == buckets.end() || b->index < a->index) {
      merged.push_back(*b++);
    } else {
      merged.push_back({a->index, a->count + b->count});
      ++a;
      ++b;
    }
  }
  buckets = std::move(merged);
}

double Histogram::Mean() const {
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(sum_ns) / static_cast<double>(count);
}

double Histogram::Percentile(double q) const {
  assert(q >= 0 && q <= 1);
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  const double rank = q * static_cast<double>(count - 1);
  const auto below = static_cast<std::uint64_t>(std::floor(rank));
  const std::uint64_t above = std::min(below + 1, count - 1);
  const double low = ValueAtRank(*this, below);
  const double high = above == below ? low : ValueAtRank(*this, above);
  return low + (high - low) * (rank - static_cast<double>(below));
}

Summary Histogram::ToSummary() const {
  Summary s = Summarize({});
  s.count = count;
  if (count == 0) return s;
  const double n = static_cast<double>(count);
  s.mean = Mean();
  // The exact sums in long double (64-bit mantissa): n·Σx² − (Σx)² loses
  // nothing that matters even when the spread is a millionth of the mean.
  const long double sum = sum_ns;
  const long double squares =
      n * static_cast<long double>(sum_squares) - sum * sum;
  s.stddev = count > 1 ? static_cast<double>(std::sqrt(
                             std::max<long double>(squares, 0) / (n * (n - 1))))
                       : 0.0;
  s.min = static_cast<double>(min_ns);
  s.max = static_cast<double>(max_ns);
  s.p50 = Percentile(0.50);
  s.p90 = Percentile(0.90);
  s.p99 = Percentile(0.99);
  if (count >= 1000) s.p999 = Percentile(0.999);
  if (count >= 10000) s.p9999 = Percentile(0.9999);
  s.relative_error = kPercentileRelativeError;
  return s;
}

HistogramRecorder::HistogramRecorder() : counts_(kBucketCount, 0) {}

void HistogramRecorder::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  sum_ns_ = 0;
  sum_squares_ = 0;
  min_ns_ = max_ns_ = 0;
}

Histogram HistogramRecorder::Sparse() const {
  Histogram h;
  h.count = count_;
  h.sum_ns = sum_ns_;
  h.sum_squares = sum_squares_;
  h.min_ns = min_ns_;
  h.max_ns = max_ns_;
  for (std::uint32_t i = 0; i < kBucketCount; ++i) {
    if (counts_[i] != 0) h.buckets.push_back({i, counts_[i]});
  }
  return h;
}

Histogram HistogramOf(const std::vector<double>& values_ns) {
  HistogramRecorder recorder;
  for (double v : values_ns) recorder.Record(std::llround(v));
  return recorder.Sparse();
}

}  // namespace alignbench
