#include "lib/render/tail_rows.h"

#include <algorithm>
#include <cmath>

#include "lib/pairs/percentiles.h"
#include "lib/render/cells.h"

namespace alignbench {
namespace {

std::string TailRow(const SideView& v) {
  std::string row;
  for (const PercentileField& p : kTailPercentiles) {
    const double ns = v.total_ns.*p.field;
    row += " " + Pad(std::isfinite(ns) ? Printf("%.4g", ns / 1e6) : "n/a", 9);
  }
  return row + " " + Pad(Printf("%.4g", v.total_ns.max / 1e6), 9);
}

bool HasTail(const SideView& v) {
  return v.ran && std::isfinite(v.total_ns.p999);
}

std::string ErrorBound(const GroupView& g) {
  double bound = 0;
  for (const RowView& row : g.rows) {
    bound = std::max({bound, row.unaligned.total_ns.relative_error,
                      row.aligned.total_ns.relative_error});
  }
  return bound > 0 ? Printf("within %.2g%% of exact", bound * 100) : "exact";
}

// The most writes a variant of the group with percentiles had (a
// mailing-list table has means only: 0).
std::size_t MostWrites(const GroupView& g) {
  std::size_t most = 0;
  for (const RowView& row : g.rows) {
    for (const SideView* v : {&row.unaligned, &row.aligned}) {
      if (v->ran && std::isfinite(v->total_ns.p99)) {
        most = std::max(most, v->total_ns.count);
      }
    }
  }
  return most;
}

// The tail's gain of each pair (lib/pairs/pairs.h, TailInference): the p99
// of each run, block by block, by the test the typical gain is made with;
// where no pair has one, why not, once.
void TailGainRows(std::ostream& out, const GroupView& g) {
  const RowView* without = nullptr;
  bool any = false;
  for (const RowView& row : g.rows) {
    any = any || row.tail.test.has_value();
    if (!row.tail.why_not.empty() && !without) without = &row;
  }
  if (!any) {
    if (without) {
      out << "tail's gain (p99): none: " << without->tail.why_not << "\n";
    }
    return;
  }
  out << "tail's gain: the runs' p99 of write+sync, block by block, as "
         "%gain is from their medians:\n"
      << Pad("size", 6) << "  " << Pad("p99 %gain", 9) << " "
      << Pad("95% interval", 16) << " " << Pad("p", 8) << " verdict\n";
  for (const RowView& row : g.rows) {
    const Inference& tail = row.tail;
    if (!tail.test) {
      out << Pad(row.size, 6) << "  " << tail.why_not << "\n";
      continue;
    }
    const Interval& i = tail.test->interval_pct;
    out << Pad(row.size, 6) << "  "
        << Pad(Printf("%+.1f", tail.test->estimate_pct), 9) << " "
        << Pad("[" + Printf("%+.1f", i.low) + ", " + Printf("%+.1f", i.high) +
                   "]",
               16)
        << " " << Pad(Printf("%.3g", tail.test->p_value), 8) << " "
        << row.tail_verdict << "\n";
  }
}

}  // namespace

void RenderTailRows(std::ostream& out, const GroupView& g) {
  TailGainRows(out, g);
  bool any = false;
  for (const RowView& row : g.rows) {
    any = any || HasTail(row.unaligned) || HasTail(row.aligned);
  }
  if (!any) {
    // Said, not silently left out: a reader looking for the tail learns why.
    const std::size_t most = MostWrites(g);
    if (most > 0) {
      out << "tail: percentiles left out: p99.9 needs 1000 writes of a "
             "variant, these had at most "
          << most << " (more --writes or blocks give them)\n";
    }
    return;
  }
  out << "tail: ms per write+sync (percentiles " << ErrorBound(g) << "):\n"
      << Pad("", 6) << "  " << Pad("", 9);
  for (const PercentileField& p : kTailPercentiles)
    out << " " << Pad(p.name, 9);
  out << " " << Pad("max", 9) << "\n";
  for (const RowView& row : g.rows) {
    const std::pair<const char*, const SideView*> rows[] = {
        {"unaligned", &row.unaligned}, {"aligned", &row.aligned}};
    for (const auto& [name, v] : rows) {
      if (!HasTail(*v)) continue;
      out << Pad(name == rows[0].first ? row.size : "", 6) << "  "
          << Pad(name, 9) << TailRow(*v) << "\n";
    }
  }
}

}  // namespace alignbench
