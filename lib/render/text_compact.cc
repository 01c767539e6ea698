#include "lib/render/text_compact.h"

#include <algorithm>
#include <array>

#include "lib/render/cells.h"
#include "lib/render/conditions.h"
#include "lib/render/report_parts.h"

namespace alignbench {
namespace {

constexpr std::size_t kWidth = 80;
constexpr const char* kIndent = "  ";

// The pairs as one table, the header once, each column as wide as its
// widest cell and the verdict last; where the plan has several combinations
// of axes, each group's rows under its label.
void Table(std::ostream& out, const ReportView& v) {
  using Row = std::array<std::string, 5>;
  // The variants as the case names them (a log case's "new | recycled").
  std::vector<Row> rows = {
      {"size", v.unaligned, v.aligned, "%gain [95% CI]", "verdict"}};
  std::vector<std::pair<std::size_t, std::string>> labels;  // row, label
  for (const GroupView& group : v.groups) {
    labels.emplace_back(rows.size(), group.label);
    for (const RowView& row : group.rows) {
      const char* mark = row.means_apart ? "*" : "";
      rows.push_back({row.size, row.unaligned_ms + mark, row.aligned_ms + mark,
                      row.gain_with_interval, row.verdict});
    }
  }
  std::array<std::size_t, 5> width{};
  for (const Row& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (const auto& [at, label] : labels) {
      if (at == k && labels.size() > 1) out << "[" << label << "]\n";
    }
    for (std::size_t c = 0; c + 1 < rows[k].size(); ++c) {
      out << Pad(rows[k][c], width[c]) << " | ";
    }
    out << rows[k].back() << "\n";
  }
  const bool marked =
      std::any_of(v.groups.begin(), v.groups.end(), [](const GroupView& g) {
        return std::any_of(g.rows.begin(), g.rows.end(),
                           [](const RowView& r) { return r.means_apart; });
      });
  if (marked) {
    // One line: the report's length is bounded (a busy run's within 30).
    out << "*: the means point elsewhere than %gain: slow writes pull a mean "
           "(--details)\n";
  }
}

// What every pair says of why, and which sizes say more.
void Why(std::ostream& out, const ReportView& v) {
  const SharedWhy& why = v.shared_why;
  // At most two lines: the shared sentences in order, as many as fit (the
  // first always); --details says the rest.
  std::string text;
  for (const std::string& sentence : Sentences(why.text)) {
    // Not a why: the verdict beside it says so already.
    if (sentence == "No significant time difference.") continue;
    const std::string longer = (text.empty() ? "why: " : text + " ") + sentence;
    const std::string lines = Wrapped(longer, kWidth, kIndent);
    if (!text.empty() && std::count(lines.begin(), lines.end(), '\n') > 1) {
      break;
    }
    text = longer;
  }
  if (!text.empty()) out << Wrapped(text, kWidth, kIndent) << "\n";
  // Where every size says more, the pointer line says where to read it.
  std::size_t pairs = 0;
  for (const GroupView& group : v.groups) pairs += group.rows.size();
  if (why.saying_more.empty() || why.saying_more.size() == pairs) return;
  out << Wrapped("more why at " + SizeRanges(why.saying_more, v.sizes) +
                     " (--details)",
                 kWidth, kIndent)
      << "\n";
}

// The title in 80 columns where it can be: the device's facts after the
// "---" that closes the directory's part go to a line of their own; the
// directory's name is never broken, however long.
std::string Title(const ReportView& v) {
  const std::string& title = v.compact_title;
  const std::size_t close = title.find(" --- ", 4);
  if (title.size() <= kWidth) return title;
  // A reference table's title names no directory: broken at its spaces.
  if (close == std::string::npos) return Wrapped(title, kWidth, kIndent);
  return title.substr(0, close + 4) + "\n" + kIndent +
         Wrapped(title.substr(close + 5), kWidth - 2, kIndent);
}

}  // namespace

void RenderCompact(std::ostream& out, const ReportView& v) {
  out << Title(v) << "\n";
  if (v.source) out << Wrapped("source: " + *v.source, kWidth, kIndent) << "\n";
  out << Wrapped(v.compact_settings, kWidth, kIndent) << "\n";
  out << "\n";
  Table(out, v);
  Why(out, v);
  if (v.replay) {
    out << "size: bytes per recorded commit; unaligned, aligned: ms per "
           "commit\n";
  }
  for (const auto& [label, text] : v.notes) {
    // The answer names the pairs short of the precision and what to do.
    if (label == kPrecisionNote) continue;
    out << Wrapped(label + ": " + text, kWidth, kIndent) << "\n";
  }
  out << kDetailsPointer << "\n";
}

void RenderManyText(std::ostream& out, const ManyView& m) {
  const std::size_t n = m.labels.size();
  for (std::size_t g = 0; g < n; ++g) {
    out << "[" << g + 1 << "] " << EscapeControl(m.labels[g]) << "\n";
  }
  std::vector<std::string> names;
  for (const ManyRow& row : m.rows) names.push_back(row.name);
  const std::size_t name_width = WidestOf(names, 4);
  out << "\n" << PadEnd("size", name_width);
  for (std::size_t g = 0; g < n; ++g) {
    out << " | " << Pad("[" + std::to_string(g + 1) + "] %gain", 10) << " "
        << Pad("95% interval", 15) << " " << Pad("verdict", 9);
  }
  out << "\n";
  for (const ManyRow& row : m.rows) {
    out << PadEnd(row.name, name_width);
    for (const RowView* cell : row.cells) {
      out << " | " << Pad(cell ? cell->short_gain : "-", 10) << " "
          << Pad(cell ? cell->short_interval : "-", 15) << " "
          << Pad(cell ? cell->short_verdict : "-", 9);
    }
    out << "\n";
  }
  out << "\n" << kConditionsHeading << "\n";
  for (std::size_t g = 0; g < n; ++g) {
    out << "  [" << g + 1 << "] " << m.conditions[g] << "\n";
  }
  if (!m.busy_warning.empty()) out << "warning: " << m.busy_warning << "\n";
  RenderDifferencesText(out, m.differences, n);
  out << "\nsize: K for KiB, B for bytes; %gain: the typical gain of a block "
         "of two runs back "
         "to back, the centre of its 95% interval (from run medians; Derby's "
         "(unaligned/aligned - 1)*100 of means where there is no interval); "
         "verdict: aligned/unaligned faster, lean al./lean un. = leans that "
         "way (significant, but a rerun may not repeat it), n.s. = no "
         "significant difference; - = no such pair in that result.\n";
}

}  // namespace alignbench
