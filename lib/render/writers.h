// A report in each of the formats stdout can take, one writer a format:
// text (text_compact.h by default, text_detailed.h with --details), Derby's
// rows (derby.h), markdown for bug reports (markdown.h), CSV (csv.h) and
// ioping's summary (ioping.h); several reports as one N-way table
// (many_view.h, laid out by the same writers). `show`, a run and `compare`
// print through Render and RenderMany, the only switches over the formats; the
// stream is injected, and nothing here touches a file.
#pragma once

#include <ostream>

#include "lib/base/named.h"
#include "lib/render/many_view.h"
#include "lib/render/report_view.h"
#include "lib/result/report.h"

namespace alignbench {

enum class Format { kTable, kDerby, kMarkdown, kCsv, kIoping };
inline constexpr Named<Format> kFormats[] = {
    {"table", Format::kTable,
     "the table with intervals and verdicts, the why in a line or two and "
     "the answer; with --details every figure: device I/O, tails, why per "
     "size, the legend"},
    {"derby", Format::kDerby, "rows as the 2004 mailing list printed them"},
    {"markdown", Format::kMarkdown,
     "for bug reports: the environment, the table, every detail folded"},
    {"csv", Format::kCsv, "one row per pair for spreadsheets and gnuplot"},
    {"ioping", Format::kIoping,
     "ioping 0.6's summary per size and variant, then the gain"},
};

// How much the text table says: what a reader takes in at a glance, or every
// figure the result holds (--details).
enum class Detail { kCompact, kFull };

// The view in `format`: the one switch over the formats.
void Render(std::ostream& out, const ReportView& view, Format format,
            Detail detail = Detail::kFull);
// The same, the view built here.
void Render(std::ostream& out, const Report& report, Format format,
            Detail detail = Detail::kFull);

// Several reports in `format`: the N-way table (kDerby prints the text one;
// kIoping each report in turn, as ioping prints one summary per directory).
void RenderMany(std::ostream& out, const ManyView& view, Format format);

}  // namespace alignbench
