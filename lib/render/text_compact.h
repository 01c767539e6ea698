// The text report read in a minute, as a run and `show` print it by default:
// the title, the settings, per group of axes one table (size | unaligned |
// aligned | %gain [95% CI] | verdict), what every pair's why says with
// its figures as ranges and the sizes that say more, the notes, and one line
// that points to the rest. Every line within 80 columns where its words allow.
// text_detailed.h prints everything (--details); the legend of the columns
// is in `alignbench --help` and docs/reference.md.
#pragma once

#include <ostream>

#include "lib/render/many_view.h"
#include "lib/render/report_view.h"

namespace alignbench {

void RenderCompact(std::ostream& out, const ReportView& view);

// Several results as one text table (compare, a run of several directories):
// their labels, per pair a column group per result (its short gain, interval
// and verdict, so that ten fit side by side), the run conditions, the fields
// that differ and what the columns mean.
void RenderManyText(std::ostream& out, const ManyView& view);

// What the table's columns mean, for --help, the manual page and
// docs/reference.md: the compact report points there instead of printing it.
inline constexpr const char* kTableLegend =
    "Reading the table: size with K for KiB and B for bytes (a replay's: "
    "bytes per recorded commit); unaligned and aligned: the mean "
    "milliseconds per write+sync (a replay's per commit); %gain: the typical "
    "gain of a block of two runs back to back, at the centre of its 95% "
    "confidence interval [CI] (Wilcoxon signed-rank test, Hodges-Lehmann "
    "interval), positive where aligning helps; verdict: aligned or unaligned "
    "faster where p < "
    "0.01, leans aligned or unaligned where p < 0.05, no significant "
    "difference, or undecided with too few runs. --details adds Derby's gain "
    "of means, p, the device's reads, writes and flushes per write "
    "(/sys/block/*/stat), the tails, why per size and the runs far off.";

// The line that points from the compact report to the rest.
inline constexpr const char* kDetailsPointer =
    "more: --details (device I/O, tails, why per size); columns: --help";

}  // namespace alignbench
