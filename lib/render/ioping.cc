#include "lib/render/ioping.h"

#include <algorithm>
#include <cmath>

#include "lib/render/cells.h"

namespace alignbench {
namespace {

// Milliseconds with one decimal, as ioping 0.6 printed them, and more where the
// smallest value shown would read 0.0 (a write to tmpfs takes microseconds).
int DecimalsFor(double smallest_ms) {
  if (!(smallest_ms > 0) || smallest_ms >= 0.1) return 1;
  return std::min(4, 1 - static_cast<int>(std::floor(std::log10(smallest_ms))));
}

std::string Ms(const std::optional<double>& ms, int decimals) {
  const std::string format = "%." + std::to_string(decimals) + "f";
  return ms ? Printf(format.c_str(), *ms) : "n/a";
}

}  // namespace

std::string IopingHeading(const ReportView& v, const RowView& row,
                          Variant variant) {
  const std::string what = variant == Variant::kUnaligned
                               ? v.unaligned + v.unaligned_shift
                               : v.aligned;
  return "--- " + v.subject + " alignbench statistics: " + row.size + " " +
         row.axes + ", " + (v.atomic.empty() ? "" : v.atomic + ", ") + what +
         " ---";
}

namespace {

// "4K: aligning gains +9.9 % [-1.5, +9.8], p 0.25: no significant
// difference"
std::string GainLine(const RowView& row) {
  if (!row.measured) return row.size + ": " + row.verdict_words;
  if (!row.test) {
    return row.size + ": gain of means " + row.means_gain + " %, " +
           row.verdict_words;
  }
  return row.size + ": aligning gains " + row.short_gain + " % " +
         row.interval + ", p " + row.p + ": " + row.verdict;
}

}  // namespace

std::optional<IopingSummary> IopingSummaryOf(const SideView& v,
                                             std::uint64_t size) {
  const Summary& t = v.total_ns;
  if (!v.ran || t.count == 0 || !(t.mean > 0)) return std::nullopt;
  IopingSummary s;
  s.requests = t.count;
  s.avg_ms = t.mean / 1e6;
  s.total_ms = s.avg_ms * static_cast<double>(t.count);
  s.iops = 1000 / s.avg_ms;
  s.mib_per_s = s.iops * static_cast<double>(size) / (1 << 20);
  // A mailing-list table holds its means only: no spread, no extremes.
  if (t.max > 0) {
    s.min_ms = t.min / 1e6;
    s.max_ms = t.max / 1e6;
    s.mdev_ms = t.stddev / 1e6;
  }
  return s;
}

void RenderIopingLines(std::ostream& out, const IopingSummary& s) {
  const int decimals = DecimalsFor(s.min_ms.value_or(s.avg_ms));
  // The total to the precision of the figures below it: 40 requests of
  // 0.0007 ms take 0.0261 ms, not "0.0".
  out << s.requests << " requests completed in " << Ms(s.total_ms, decimals)
      << " ms, " << Printf("%.0f", s.iops) << " iops, "
      << Printf("%.1f", s.mib_per_s) << " MiB/s\n"
      << "min/avg/max/mdev = " << Ms(s.min_ms, decimals) << "/"
      << Ms(s.avg_ms, decimals) << "/" << Ms(s.max_ms, decimals) << "/"
      << Ms(s.mdev_ms, decimals) << " ms\n";
}

void RenderIoping(std::ostream& out, const ReportView& view) {
  for (const GroupView& group : view.groups) {
    for (const RowView& row : group.rows) {
      for (Variant variant : {Variant::kUnaligned, Variant::kAligned}) {
        const SideView& v = row.Of(variant);
        out << IopingHeading(view, row, variant) << "\n";
        if (auto s = IopingSummaryOf(v, row.size_bytes)) {
          RenderIopingLines(out, *s);
        } else {
          out << "no request completed: "
              << (v.error.empty() ? "not measured" : v.error) << "\n";
        }
      }
      out << GainLine(row) << "\n\n";
    }
  }
}

}  // namespace alignbench
