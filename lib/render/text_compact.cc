#include "lib/render/text_compact.h"

#include <algorithm>
#include <array>

#include "lib/render/log_columns.h"
#include "lib/render/report_parts.h"
#include "lib/render/why_lines.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

constexpr std::size_t kWidth = 80;
constexpr const char* kIndent = "  ";

// The gain at the centre of its 95 % interval and the interval, "+9.9
// [-18.2,+38.0]"; Derby's gain of means where there is no interval.
std::string GainCell(const PairResult& p) {
  if (!p.inference.test) return GainOrMeansCell(p);
  const Interval& i = p.inference.test->interval_pct;
  return TypicalGainCell(p, "%+.1f") + " [" + Printf("%+.1f", i.low) + "," +
         Printf("%+.1f", i.high) + "]";
}

// The pairs as one table, the header once, each column as wide as its
// widest cell and the verdict last; where the plan has several combinations
// of axes, each group's rows under its label.
void Table(std::ostream& out, const Report& r) {
  using Row = std::array<std::string, 5>;
  // The variants as the case names them (a log case's "new | recycled").
  std::vector<Row> rows = {{"size", Heading(r, Variant::kUnaligned),
                            Heading(r, Variant::kAligned), "%gain [95% CI]",
                            "verdict"}};
  std::vector<std::pair<std::size_t, std::string>> labels;  // row, label
  ForEachGroup(
      r, [&](const std::string& label, std::size_t from, std::size_t to) {
        labels.emplace_back(rows.size(), label);
        for (std::size_t i = from; i < to; ++i) {
          const PairResult& p = r.pairs[i];
          rows.push_back({SizeText(p.spec.size), MeanMsCell(p.unaligned),
                          MeanMsCell(p.aligned), GainCell(p),
                          LabelledVerdict(r, p)});
        }
      });
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
}

// What every pair of [from, to) says of why, and which sizes say more.
void Why(std::ostream& out, const Report& r, std::size_t from, std::size_t to) {
  const SharedWhy why = SharedWhyOf(r.pairs, from, to);
  // At most two lines: the shared sentences in order, as many as fit (the
  // first always); --details says the rest.
  std::string text;
  for (const std::string& sentence : Sentences(EscapeControl(why.text))) {
    const std::string longer = (text.empty() ? "why: " : text + " ") + sentence;
    const std::string lines = Wrapped(longer, kWidth, kIndent);
    if (!text.empty() && std::count(lines.begin(), lines.end(), '\n') > 1) {
      break;
    }
    text = longer;
  }
  if (!text.empty()) out << Wrapped(text, kWidth, kIndent) << "\n";
  // Where every size says more, the pointer line says where to read it.
  if (why.saying_more.empty() || why.saying_more.size() == to - from) return;
  std::vector<std::uint64_t> all;
  for (std::size_t i = from; i < to; ++i) all.push_back(r.pairs[i].spec.size);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  out << Wrapped(
             "more why at " + SizeRanges(why.saying_more, all) + " (--details)",
             kWidth, kIndent)
      << "\n";
}

// The title in 80 columns where it can be: the device's facts after the
// "---" that closes the directory's part go to a line of their own; the
// directory's name is never broken, however long.
std::string Title(const Report& r) {
  const std::string title = CompactTitleLine(r);
  const std::size_t close = title.find(" --- ", 4);
  if (title.size() <= kWidth) return title;
  // A reference table's title names no directory: broken at its spaces.
  if (close == std::string::npos) return Wrapped(title, kWidth, kIndent);
  return title.substr(0, close + 4) + "\n" + kIndent +
         Wrapped(title.substr(close + 5), kWidth - 2, kIndent);
}

}  // namespace

void RenderCompact(std::ostream& out, const Report& r) {
  out << Title(r) << "\n";
  if (r.reference) {
    out << Wrapped("source: " + EscapeControl(r.reference->source), kWidth,
                   kIndent)
        << "\n";
  }
  out << Wrapped(SettingsLine(r, true), kWidth, kIndent) << "\n";
  out << "\n";
  Table(out, r);
  Why(out, r, 0, r.pairs.size());
  if (r.settings.replay) {
    out << "size: bytes per recorded commit; unaligned, aligned: ms per "
           "commit\n";
  }
  for (const auto& [label, text] : Notes(r)) {
    out << Wrapped(label + ": " + text, kWidth, kIndent) << "\n";
  }
  out << kDetailsPointer << "\n";
}

}  // namespace alignbench
