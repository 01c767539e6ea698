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

// The most writes a variant of the group with percentiles had (a
// mailing-list table has means only: 0).
std::size_t MostWrites(const GroupView& g) {
  std::size_t most = 0;
  for (const RowView& row : g.rows) {
    for (const VariantResult* v : {&row.pair->unaligned, &row.pair->aligned}) {
      if (v->repetitions > 0 && std::isfinite(v->total_ns.p99)) {
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
    any = any || row.pair->tail.test.has_value();
    if (!row.pair->tail.why_not.empty() && !without) without = &row;
  }
  if (!any) {
    if (without) {
      out << "tail's gain (p99): none: " << without->pair->tail.why_not << "\n";
    }
    return;
  }
  out << "tail's gain: the runs' p99 of write+sync, block by block, as "
         "%gain is from their medians:\n"
      << Pad("size", 6) << "  " << Pad("p99 %gain", 9) << " "
      << Pad("95% interval", 16) << " " << Pad("p", 8) << " verdict\n";
  for (const RowView& row : g.rows) {
    const Inference& tail = row.pair->tail;
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
        << (row.pair->tail_verdict
                ? std::string(NameOf(kVerdicts, *row.pair->tail_verdict))
                : std::string("undecided"))
        << "\n";
  }
}

}  // namespace

void RenderTailRows(std::ostream& out, const GroupView& g) {
  TailGainRows(out, g);
  bool any = false;
  for (const RowView& row : g.rows) {
    any = any || HasTail(row.pair->unaligned) || HasTail(row.pair->aligned);
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
