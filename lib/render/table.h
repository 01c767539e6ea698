// Text renderings of a Report: the table people read (with intervals, verdicts
// and device I/O), Derby's mailing-list rows, markdown for bug reports, and CSV
// for spreadsheets. The stream is injected; nothing here touches a file or a
// global.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "lib/render/cells.h"
#include "lib/result/report.h"

namespace alignbench {

enum class Format { kTable, kDerby, kMarkdown, kCsv, kIoping };
inline constexpr Named<Format> kFormats[] = {
    {"table", Format::kTable, "table with intervals, verdicts and device I/O"},
    {"derby", Format::kDerby, "rows as the 2004 mailing list printed them"},
    {"markdown", Format::kMarkdown,
     "a table and environment summary for bug reports"},
    {"csv", Format::kCsv, "one row per pair for spreadsheets and gnuplot"},
    {"ioping", Format::kIoping,
     "ioping 0.6's summary per size and variant, then the gain"},
};

void Render(std::ostream& out, const Report& report, Format format);

// "--- /mnt (ext4 /dev/loop0): 13 pairs: 5 aligned faster, 0 unaligned faster,
// 6 no significant difference, 2 undecided; mean write+sync 3.210 ms
// unaligned, 2.980 ms aligned; mostly read-on-write (5 of 13 measured
// pairs)": what one directory's run came to, ioping style.
std::string SummaryLine(const Report& report);

// Everything the probe knows about a target, one fact a line; "unknown" where
// it could not tell.
void RenderEnvironment(std::ostream& out, const TargetInfo& target);

// TargetLine for a measured result; platform and disk for a reference table.
std::string TitleLine(const Report& report);

// "--- DIR (ext4 /dev/vda) --- logical 512 B, physical 4096 B, write cache:
// write back"
std::string TargetLine(const TargetInfo& target);

}  // namespace alignbench
