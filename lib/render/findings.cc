#include "lib/render/findings.h"

#include <algorithm>
#include <cmath>

#include "lib/config/size.h"
#include "lib/pairs/pairs.h"
#include "lib/render/cells.h"

namespace alignbench {
namespace {

bool SameAxes(const PairSpec& a, const PairSpec& b) {
  return a.sync == b.sync && a.io == b.io && a.layout == b.layout &&
         a.cache == b.cache;
}

// "4K" for Derby's one-axis sweep; "4K fsync direct" where the plan has
// several combinations of the axes, "4K (shift 512 B)" where several shifts.
std::string PairName(const PairResult& pair, bool with_axes, bool with_shift) {
  std::string name = SizeText(pair.spec.size);
  if (with_axes) name += " " + AxesLabel(pair.spec);
  if (with_shift) name += " (shift " + std::to_string(pair.spec.shift) + " B)";
  return name;
}

}  // namespace

Finding FindingOf(const PairResult& pair, double precision) {
  if (!pair.verdict || !pair.inference.test) return Finding::kUnmeasured;
  const Interval& ci = pair.inference.test->interval_pct;
  switch (*pair.verdict) {
    case Verdict::kAlignedFaster:
      return Finding::kHelps;
    case Verdict::kUnalignedFaster:
      return Finding::kHurts;
    case Verdict::kLeansAligned:
    case Verdict::kLeansUnaligned:
      return Finding::kLeans;
    case Verdict::kNoSignificantDifference:
      if (ci.low >= -precision && ci.high <= precision) {
        return Finding::kNoDifference;
      }
      return ci.HalfWidth() <= precision ? Finding::kNarrowButPast
                                         : Finding::kUnanswered;
    case Verdict::kUndecided:
      return Finding::kUnmeasured;
  }
  return Finding::kUnmeasured;
}

std::string Names(const std::vector<const PairResult*>& pairs,
                  const std::vector<std::uint64_t>& all_sizes, bool with_axes,
                  bool with_shift) {
  if (!with_axes && !with_shift) {
    std::vector<std::uint64_t> chosen;
    for (const PairResult* pair : pairs) chosen.push_back(pair->spec.size);
    return SizeRanges(std::move(chosen), all_sizes);
  }
  std::string text;
  for (const PairResult* pair : pairs) {
    text += (text.empty() ? "" : ", ") + PairName(*pair, with_axes, with_shift);
  }
  return text;
}

std::string GainRange(const std::vector<const PairResult*>& pairs,
                      Inference PairResult::*gain_of) {
  double low = INFINITY, high = 0;
  for (const PairResult* pair : pairs) {
    const double gain = std::fabs(((*pair).*gain_of).test->estimate_pct);
    low = std::min(low, gain);
    high = std::max(high, gain);
  }
  const std::string a = Printf("%.0f", low), b = Printf("%.0f", high);
  return (a == b ? a : a + "-" + b) + " %";
}

std::string Reached(const std::vector<const PairResult*>& pairs) {
  double low = INFINITY, high = 0;
  for (const PairResult* pair : pairs) {
    const double half = pair->inference.test->interval_pct.HalfWidth();
    low = std::min(low, half);
    high = std::max(high, half);
  }
  const std::string a = ReachedPoints(low), b = ReachedPoints(high);
  return "±" + (a == b ? a : a + "-" + b);
}

std::string Hull(const std::vector<const PairResult*>& pairs) {
  double low = INFINITY, high = -INFINITY;
  for (const PairResult* pair : pairs) {
    low = std::min(low, pair->inference.test->interval_pct.low);
    high = std::max(high, pair->inference.test->interval_pct.high);
  }
  return "[" + Printf("%+.1f", low) + ", " + Printf("%+.1f", high) + "]";
}

std::string CountText(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

Findings Classify(const Report& report, double precision) {
  Findings f;
  for (const PairResult& pair : report.pairs) {
    const Finding finding = FindingOf(pair, precision);
    const bool decided =
        finding == Finding::kHelps || finding == Finding::kHurts;
    const auto& m = pair.mechanisms;
    if (decided &&
        std::find(m.begin(), m.end(), Mechanism::kPlacement) != m.end()) {
      f.placed.push_back(&pair);
    } else if (decided &&
               pair.inference.test->interval_pct.HalfWidth() > precision) {
      f.short_of.push_back(&pair);
    } else {
      f.by[static_cast<int>(finding)].push_back(&pair);
    }
  }
  return f;
}

Naming NamingOf(const Report& report) {
  Naming naming;
  for (const PairResult& pair : report.pairs) {
    naming.sizes.push_back(pair.spec.size);
    naming.with_axes =
        naming.with_axes || !SameAxes(pair.spec, report.pairs.front().spec);
  }
  naming.with_shift = report.settings.shifts.size() > 1;
  std::sort(naming.sizes.begin(), naming.sizes.end());
  naming.sizes.erase(std::unique(naming.sizes.begin(), naming.sizes.end()),
                     naming.sizes.end());
  return naming;
}

}  // namespace alignbench
