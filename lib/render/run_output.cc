#include "lib/render/run_output.h"

#include "lib/base/text.h"
#include "lib/render/many_view.h"
#include "lib/result/escape.h"

namespace alignbench {

void RenderRun(std::ostream& out, const std::vector<Report>& reports,
               Format format, Detail detail) {
  // One report: its view alone (no labels, conditions or differences to
  // gather, no copy of the report). Several: the N-way table's views.
  ManyView many;
  if (reports.size() == 1) {
    many.views.push_back(ViewOf(reports.front()));
    Render(out, many.views.front(), format, detail);
  } else {
    std::vector<std::string> dirs;
    for (const Report& report : reports) dirs.push_back(report.settings.dir);
    many = ManyViewOf(LabelResults(reports, dirs));
    RenderMany(out, many, format);
  }
  const std::vector<ReportView>& views = many.views;
  if (format == Format::kCsv) return;
  // A compact report keeps every line within 80 columns; --details prints
  // each line whole, as before.
  // Compact, one report: the subject is the title's, and every line within
  // 80 columns. Several: the N-way table is as wide as its directories, and
  // each summary names its directory whole.
  const bool bare = detail == Detail::kCompact && reports.size() == 1;
  const auto line = [bare](const std::string& text) {
    return bare ? Wrapped(text, 80, "  ") : text;
  };
  if (detail == Detail::kFull) out << "\n";
  for (const ReportView& view : views) {
    out << line(bare ? view.compact_summary : view.summary) << "\n";
  }
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const std::string dir =
        reports.size() > 1 ? EscapeControl(reports[i].settings.dir) + ": " : "";
    if (bare) {
      // The answer's first sentence, its qualifications in two lines.
      const CompactAnswer& answer = views[i].compact_answer;
      out << line(answer.answer) << "\n";
      if (!answer.qualifications.empty()) {
        out << line(answer.qualifications) << "\n";
      }
    } else {
      out << line(dir + views[i].answer) << "\n";
    }
    for (const std::string* unit : {&views[i].unit, &views[i].declared}) {
      if (!unit->empty()) out << line(dir + *unit) << "\n";
    }
  }
}

}  // namespace alignbench
