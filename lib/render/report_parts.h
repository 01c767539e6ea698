// The parts every writer of a report is made of (text_compact.h,
// text_detailed.h, markdown.h, csv.h): the title, settings and summary lines,
// the notes below the pairs, the groups the pairs fall in by their axes, and
// the cells of a row. The stream is injected; nothing here touches a file.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "lib/render/cells.h"
#include "lib/result/report.h"

namespace alignbench {

// "--- DIR (ext4 /dev/vda) --- logical 512 B, physical 4096 B, write cache:
// write back, fs block 4096 B"
std::string TargetLine(const TargetInfo& target);

// TargetLine for a measured result; platform and disk for a reference table.
std::string TitleLine(const Report& report);

// "128 synced writes per run, shift 24 B, 8 runs per variant, ...": how the
// pairs were measured, in one line; `compact`: without the seed.
std::string SettingsLine(const Report& report, bool compact = false);

// "atomic writes (RWF_ATOMIC)" with --atomic on, else "": what every format
// that names the run's settings says of them.
std::string AtomicWords(const Settings& settings);

// TitleLine in fewer words, for the compact report: "--- DIR (ext4 /dev/vda)
// --- sectors 512/4096 B, write cache: write back".
std::string CompactTitleLine(const Report& report);

// "--- /mnt (ext4 /dev/loop0): 13 pairs: 5 aligned faster, 0 unaligned faster,
// 6 no significant difference, 2 undecided; mean write+sync 3.210 ms
// unaligned, 2.980 ms aligned; mostly read-on-write (5 of 13 measured
// pairs)": what one directory's run came to, ioping style. `compact`: without
// the subject (the title names it), the verdicts no pair has and the
// mechanism (the why-line says it).
std::string SummaryLine(const Report& report, bool compact = false);

// A variant's mean write+sync in ms ("0.8491"), or "n/a" where it never ran.
std::string MeanMsCell(const VariantResult& v);

// The pair's p ("3.88e-23"), or "n/a" without a test.
std::string PValueCell(const PairResult& p);

// What a report says below its pairs, as (label, escaped text): no block
// device, each warning and error, and a run that did not finish. The pairs
// short of --precision are one note under kPrecisionNote.
inline constexpr const char* kPrecisionNote = "precision";
std::vector<std::pair<std::string, std::string>> Notes(const Report& report);

// Each pair of [from, to) whose gain of means lies outside its interval, as
// its size column and MeansApartNote.
std::vector<std::pair<std::string, std::string>> MeansApart(
    const Report& report, std::size_t from, std::size_t to);

// "shift 512 B", or "" where the report measured one shift (its settings
// line says it).
std::string ShiftLabel(const Report& r, const PairSpec& spec);

// A pair's group: its axes, and its shift where the report has several.
std::string GroupLabel(const Report& r, const PairSpec& spec);

// A pair's key for matching it with another result's: KeyOf, but the shift
// only where the report measured several (two results of one shift each
// match by size and axes, and their settings say the shifts differ).
PairKey MatchKeyOf(const Report& r, const PairSpec& spec);

// Pairs grouped by their axes and shift, in plan order: fn(label, from, to)
// for each.
template <typename Fn>
void ForEachGroup(const Report& r, Fn fn) {
  for (std::size_t i = 0; i < r.pairs.size();) {
    const std::string label = GroupLabel(r, r.pairs[i].spec);
    std::size_t j = i;
    while (j < r.pairs.size() && GroupLabel(r, r.pairs[j].spec) == label) ++j;
    fn(label, i, j);
    i = j;
  }
}

}  // namespace alignbench
