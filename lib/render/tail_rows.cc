#include "lib/render/tail_rows.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "lib/pairs/percentiles.h"
#include "lib/render/cells.h"
#include "lib/render/report_parts.h"

namespace alignbench {
namespace {

std::string TailRow(const VariantResult& v) {
  std::string row;
  for (const PercentileField& p : kTailPercentiles) {
    const double ns = v.total_ns.*p.field;
    row += " " + Pad(std::isfinite(ns) ? Printf("%.4g", ns / 1e6) : "n/a", 9);
  }
  return row + " " + Pad(Printf("%.4g", v.total_ns.max / 1e6), 9);
}

bool HasTail(const VariantResult& v) {
  return v.repetitions > 0 && std::isfinite(v.total_ns.p999);
}

std::string ErrorBound(const GroupView& g) {
  double bound = 0;
  for (const RowView& row : g.rows) {
    bound = std::max({bound, row.pair->unaligned.total_ns.relative_error,
                      row.pair->aligned.total_ns.relative_error});
  }
  return bound > 0 ? Printf("within %.2g%% of exact", bound * 100) : "exact";
}

}  // namespace

void RenderTailRows(std::ostream& out, const GroupView& g) {
  bool any = false;
  for (const RowView& row : g.rows) {
    any = any || HasTail(row.pair->unaligned) || HasTail(row.pair->aligned);
  }
  if (!any) return;
  out << "tail: ms per write+sync (percentiles " << ErrorBound(g) << "):\n"
      << Pad("", 6) << "  " << Pad("", 9);
  for (const PercentileField& p : kTailPercentiles)
    out << " " << Pad(p.name, 9);
  out << " " << Pad("max", 9) << "\n";
  for (const RowView& row : g.rows) {
    const PairResult& p = *row.pair;
    const std::pair<const char*, const VariantResult*> rows[] = {
        {"unaligned", &p.unaligned}, {"aligned", &p.aligned}};
    for (const auto& [name, v] : rows) {
      if (!HasTail(*v)) continue;
      out << Pad(name == rows[0].first ? row.size : "", 6) << "  "
          << Pad(name, 9) << TailRow(*v) << "\n";
    }
  }
}

void RenderPercentileMoves(std::ostream& out, const Report& base,
                           const Report& next) {
  // Indexed by spec, as compare's table: the last of equal specs wins.
  std::map<PairKey, const PairResult*> by_spec;
  for (const PairResult& n : next.pairs) by_spec[MatchKeyOf(next, n.spec)] = &n;
  std::string lines;
  for (const PairResult& b : base.pairs) {
    const auto found = by_spec.find(MatchKeyOf(base, b.spec));
    if (found == by_spec.end()) continue;
    if (auto moved = MostMovedPercentile(b, *found->second)) {
      lines += Pad(SizeText(b.spec.size), 6) + "  " + AxesLabel(b.spec) + ": " +
               *moved + "\n";
    }
  }
  if (lines.empty()) return;
  out << "\npercentile of write+sync that moved most, base to new:\n" << lines;
}

}  // namespace alignbench
