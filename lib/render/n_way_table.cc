#include "lib/render/n_way_table.h"

#include <map>

#include "lib/render/answer.h"
#include "lib/render/cells.h"
#include "lib/render/comparison.h"
#include "lib/render/conditions.h"
#include "lib/render/differences.h"
#include "lib/render/log_columns.h"
#include "lib/render/report_parts.h"

namespace alignbench {
namespace {

// The results' reports, in order.
std::vector<const Report*> Reports(const std::vector<LabeledReport>& results) {
  std::vector<const Report*> reports;
  for (const LabeledReport& r : results) reports.push_back(&r.report);
  return reports;
}

// The rows: every pair spec of any result, in the order first seen, and each
// result's pair for each row (null where it has none).
struct Grid {
  std::vector<PairSpec> specs;
  std::vector<std::vector<const PairResult*>> cells;
  // The axes besides size vary between rows: then rows name them.
  bool axes_vary = false;
  // Some result measured several shifts: then rows name theirs.
  bool shifts_vary = false;
};

Grid BuildGrid(const std::vector<LabeledReport>& results) {
  Grid grid;
  std::map<PairKey, std::size_t> row_of;
  for (std::size_t r = 0; r < results.size(); ++r) {
    grid.shifts_vary =
        grid.shifts_vary || results[r].report.settings.shifts.size() > 1;
    for (const PairResult& pair : results[r].report.pairs) {
      auto [it, added] = row_of.emplace(
          MatchKeyOf(results[r].report, pair.spec), grid.specs.size());
      if (added) {
        grid.specs.push_back(pair.spec);
        grid.cells.emplace_back(results.size(), nullptr);
      }
      grid.cells[it->second][r] = &pair;
    }
  }
  for (const PairSpec& spec : grid.specs) {
    const PairSpec& first = grid.specs.front();
    grid.axes_vary = grid.axes_vary || spec.sync != first.sync ||
                     spec.io != first.io || spec.layout != first.layout ||
                     spec.cache != first.cache;
  }
  return grid;
}

// The centre of the interval beside it (the verdict statistic's estimate),
// so that a gain never sits outside its own interval; Derby's gain of means
// where a result has no interval (a mailing-list table).
std::string GainText(const PairResult* p) {
  return p ? GainOrMeansCell(*p) : "-";
}

std::string IntervalCell(const PairResult* p) {
  if (!p) return "-";
  if (!p->inference.test) return "n/a";
  const Interval& i = p->inference.test->interval_pct;
  return "[" + Printf("%+.1f", i.low) + "," + Printf("%+.1f", i.high) + "]";
}

// Short words keep ten column groups on a wide terminal.
std::string ShortVerdict(const PairResult* p) {
  if (!p) return "-";
  if (!p->verdict) return "n/a";
  switch (*p->verdict) {
    case Verdict::kAlignedFaster:
      return "aligned";
    case Verdict::kUnalignedFaster:
      return "unaligned";
    case Verdict::kLeansAligned:
      return "lean al.";
    case Verdict::kLeansUnaligned:
      return "lean un.";
    case Verdict::kNoSignificantDifference:
      return "n.s.";
    case Verdict::kUndecided:
      return "undecided";
  }
  return "n/a";
}

// Where some results were measured beside others' traffic and some were
// not: which were, as a warning; "" otherwise (all alike: the times compare).
std::string BusyWarning(const std::vector<LabeledReport>& results) {
  std::string busy;
  std::size_t count = 0;
  for (std::size_t g = 0; g < results.size(); ++g) {
    if (!BusyConditions(results[g].report)) continue;
    busy += (busy.empty() ? "" : ", ") + ("[" + std::to_string(g + 1) + "]");
    ++count;
  }
  if (count == 0 || count == results.size()) return "";
  return "only " + busy + (count == 1 ? " was" : " were") +
         " measured beside others' traffic: " +
         (count == 1 ? "its times include" : "their times include") + " it";
}

// What others did beside each run (conditions.h): a line per result, then
// the warning where only some were busy; in markdown a list.
void RenderConditions(std::ostream& out,
                      const std::vector<LabeledReport>& results,
                      bool markdown) {
  out << "\n" << kConditionsHeading << "\n" << (markdown ? "\n" : "");
  for (std::size_t g = 0; g < results.size(); ++g) {
    out << (markdown ? "- [" : "  [") << g + 1 << "] "
        << ConditionsText(results[g].report) << "\n";
  }
  const std::string warning = BusyWarning(results);
  if (warning.empty()) return;
  out << (markdown ? "\n**warning:** " : "warning: ") << warning << "\n";
}

std::string RowName(const Grid& grid, std::size_t row) {
  std::string name = SizeText(grid.specs[row].size);
  if (grid.axes_vary) name += " " + AxesLabel(grid.specs[row], "/");
  if (grid.shifts_vary) name += " +" + SizeText(grid.specs[row].shift);
  return name;
}

void RenderText(std::ostream& out, const std::vector<LabeledReport>& results,
                const Grid& grid) {
  for (std::size_t g = 0; g < results.size(); ++g) {
    out << "[" << g + 1 << "] " << EscapeControl(results[g].label) << "\n";
  }
  std::vector<std::string> rows;
  for (std::size_t row = 0; row < grid.specs.size(); ++row) {
    rows.push_back(RowName(grid, row));
  }
  const std::size_t row_width = WidestOf(rows, 4);
  out << "\n" << PadEnd("size", row_width);
  for (std::size_t g = 0; g < results.size(); ++g) {
    out << " | " << Pad("[" + std::to_string(g + 1) + "] %gain", 10) << " "
        << Pad("95% interval", 15) << " " << Pad("verdict", 9);
  }
  out << "\n";
  for (std::size_t row = 0; row < grid.specs.size(); ++row) {
    out << PadEnd(rows[row], row_width);
    for (const PairResult* p : grid.cells[row]) {
      out << " | " << Pad(GainText(p), 10) << " " << Pad(IntervalCell(p), 15)
          << " " << Pad(ShortVerdict(p), 9);
    }
    out << "\n";
  }
  RenderConditions(out, results, false);
  RenderDifferencesText(out, Differences(Reports(results)), results.size());
  out << "\nsize: K for KiB, B for bytes; %gain: the typical gain of a block "
         "of two runs back "
         "to back, the centre of its 95% interval (from run medians; Derby's "
         "(unaligned/aligned - 1)*100 of means where there is no interval); "
         "verdict: aligned/unaligned faster, lean al./lean un. = leans that "
         "way (significant, but a rerun may not repeat it), n.s. = no "
         "significant difference; - = no such pair in that result.\n";
}

void RenderMarkdownMany(std::ostream& out,
                        const std::vector<LabeledReport>& results,
                        const Grid& grid) {
  for (std::size_t g = 0; g < results.size(); ++g) {
    out << "[" << g + 1 << "] " << MarkdownCell(results[g].label) << "  \n";
  }
  out << "\n| size |";
  std::string rule = "|---:|";
  for (std::size_t g = 0; g < results.size(); ++g) {
    const std::string n = "[" + std::to_string(g + 1) + "]";
    out << " " << n << " %gain | " << n << " 95% interval | " << n
        << " verdict |";
    rule += "---:|:---:|:---|";
  }
  out << "\n" << rule << "\n";
  for (std::size_t row = 0; row < grid.specs.size(); ++row) {
    out << "| " << RowName(grid, row) << " |";
    for (std::size_t g = 0; g < results.size(); ++g) {
      const PairResult* p = grid.cells[row][g];
      out << " " << GainText(p) << " | " << IntervalCell(p) << " | "
          << (p ? VerdictWords(results[g].report, *p) : "-") << " |";
    }
    out << "\n";
  }
  RenderConditions(out, results, true);
  const std::vector<Difference> differences = Differences(Reports(results));
  if (differences.empty()) return;
  out << "\n| field |";
  for (std::size_t g = 0; g < results.size(); ++g)
    out << " [" << g + 1 << "] |";
  out << "\n|:---|";
  for (std::size_t g = 0; g < results.size(); ++g) out << ":---|";
  out << "\n";
  for (const Difference& d : differences) {
    out << "| " << MarkdownCell(d.name) << " |";
    for (const std::string& text : d.texts)
      out << " " << MarkdownCell(text) << " |";
    out << "\n";
  }
}

void RenderCsvMany(std::ostream& out, const std::vector<LabeledReport>& results,
                   const Grid& grid) {
  const std::vector<Difference> differences = Differences(Reports(results));
  out << "label";
  // Prefixed: "sync" is also a pair's column.
  for (const Difference& d : differences) {
    std::string column = "field_" + d.name;
    for (char& c : column) c = c == ' ' ? '_' : c;
    out << "," << CsvField(column);
  }
  out << ",size_bytes,sync,io,layout,cache,gain_pct,gain_low_pct,gain_high_pct,"
         "estimate_pct,p_value,verdict,run_conditions\n";
  for (std::size_t g = 0; g < results.size(); ++g) {
    for (std::size_t row = 0; row < grid.specs.size(); ++row) {
      const PairResult* p = grid.cells[row][g];
      if (!p) continue;
      const PairSpec& s = p->spec;
      const std::optional<GainTest>& test = p->inference.test;
      out << CsvField(results[g].label);
      for (const Difference& d : differences)
        out << "," << CsvField(d.texts[g]);
      out << "," << s.size << "," << NameOf(kSyncMethods, s.sync) << ","
          << NameOf(kIoModes, s.io) << "," << NameOf(kLayouts, s.layout) << ","
          << NameOf(kCacheStates, s.cache) << ","
          << (p->ShownGainPct() ? Printf("%.9g", *p->ShownGainPct()) : "")
          << "," << (test ? Printf("%.9g", test->interval_pct.low) : "") << ","
          << (test ? Printf("%.9g", test->interval_pct.high) : "") << ","
          << (test ? Printf("%.9g", test->estimate_pct) : "") << ","
          << (test ? Printf("%.9g", test->p_value) : "") << ","
          << CsvField(VerdictWords(results[g].report, *p)) << ","
          << CsvField(ConditionsText(results[g].report)) << "\n";
    }
  }
}

}  // namespace

std::string ResultLabel(const Report& r) {
  const TargetInfo& t = r.target;
  if (r.reference) return "reference: " + r.reference->platform;
  std::string disk = "?";
  if (t.device) disk = t.device->model.value_or(t.device->disk);
  if (!t.device && t.fs_type) disk = *t.fs_type;
  return t.host.hostname.value_or("?") + " / " + disk + " / " + t.dir;
}

std::vector<LabeledReport> LabelResults(
    std::vector<Report> reports, const std::vector<std::string>& origins) {
  std::vector<LabeledReport> labeled;
  std::map<std::string, std::size_t> uses;
  for (Report& r : reports) {
    std::string label = ResultLabel(r);
    ++uses[label];
    labeled.push_back({std::move(label), std::move(r)});
  }
  for (std::size_t i = 0; i < labeled.size(); ++i) {
    if (uses[labeled[i].label] < 2 || i >= origins.size()) continue;
    labeled[i].label += " (" + origins[i] + ")";
  }
  return labeled;
}

void RenderManyText(std::ostream& out,
                    const std::vector<LabeledReport>& results) {
  if (!results.empty()) RenderText(out, results, BuildGrid(results));
}

void RenderManyMarkdown(std::ostream& out,
                        const std::vector<LabeledReport>& results) {
  if (!results.empty()) RenderMarkdownMany(out, results, BuildGrid(results));
}

void RenderManyCsv(std::ostream& out,
                   const std::vector<LabeledReport>& results) {
  if (!results.empty()) RenderCsvMany(out, results, BuildGrid(results));
}

}  // namespace alignbench
