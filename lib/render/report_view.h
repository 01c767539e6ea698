// What a report says, built once from the result, between the result and the
// writers (writers.h): the title, the settings, the table's rows, the notes
// (warnings, errors, no device), the summary and the answer, and the details
// --details and markdown add: the device I/O, the why, the tails, the means
// that point elsewhere and the runs far off. Every text from outside is
// escaped here. A writer lays the view out in its format and reads nothing
// from the result itself: the figures each format prints its own way (CSV's
// digits, Derby's Java doubles, ioping's summary, the device cells, the
// tails) are in the view as numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/render/answer.h"
#include "lib/render/why_lines.h"
#include "lib/result/report.h"

namespace alignbench {

// One variant of a pair in numbers and the result's value types, for the
// formats that print them their own way.
struct SideView {
  bool ran = false;   // at least one run completed
  std::string error;  // the first failing run's error, escaped; "" if none
  Summary total_ns;   // write+sync (a replay's commit) per write, in ns
  std::optional<DevicePerOp> device;       // the device's I/O per write
  std::optional<DevicePerOp> background;   // the idle windows', per write
  std::optional<DeviceRequests> requests;  // told apart by where they land
  std::string commit;  // a log case's bytes asked and written (CommitCell)
};

// One pair's cells, as every table prints them, and its figures.
struct RowView {
  std::uint64_t size_bytes = 0;
  std::string axes;  // "fdatasync buffered extend warm" (AxesLabel)
  std::string sync, io, layout, cache;  // each axis's name
  PairKey key;  // matches the row with another result's (MatchKeyOf)
  std::uint64_t shift = 0;   // the unaligned variant's, in bytes
  std::string size;          // "4K", "4201B"
  std::string unaligned_ms;  // the mean write+sync, "0.8491", or "n/a"
  std::string aligned_ms;
  std::string means_gain;          // Derby's gain of means, "+12.34"
  std::string gain;                // the centre of the interval, "+12.34"
  std::string interval;            // "[+1.2, +3.4]", or "n/a"
  std::string gain_with_interval;  // "+9.9 [-18.2,+38.0]": the compact cell
  std::string p;                   // "3.88e-23", or "n/a"
  std::string verdict;        // in the variants' own names: "padded faster"
  std::string verdict_words;  // in Derby's: "aligned faster"
  std::string atomic;         // the run's --atomic, "off" or "on"
  // The means' gain lies outside the interval: the two time columns point
  // elsewhere than %gain (MeansApartNote says why).
  bool means_apart = false;
  // The cells of a column group in the N-way table, where ten sit side by
  // side: the gain to one decimal (Derby's gain of means without an
  // interval), the interval without its space, the verdict in a word or two.
  std::string short_gain;      // "+9.9"
  std::string short_interval;  // "[-18.2,+38.0]", or "n/a"
  std::string short_verdict;   // "aligned", "lean un.", "n.s."

  bool measured = false;  // Derby's gain of means exists
  SideView unaligned, aligned;
  std::optional<double> means_gain_pct, medians_gain_pct;
  std::optional<double> shown_gain_pct;    // the gain the table prints
  std::optional<GainTest> test;            // the typical gain's
  Inference tail;                          // the p99's gain, or why none
  std::string tail_verdict;                // its verdict, or "undecided"
  std::optional<double> others_cpu_share;  // in the idle windows

  const SideView& Of(Variant v) const {
    return v == Variant::kUnaligned ? unaligned : aligned;
  }
};

// The pairs of one combination of axes, in plan order.
struct GroupView {
  std::string label;  // "fdatasync buffered extend warm"
  std::vector<RowView> rows;
  // Sizes whose gain of means lies outside the interval, and why.
  std::vector<std::pair<std::string, std::string>> means_apart;
  WhyLines why;  // what every pair says, then each size's rest
  // Runs far off the others of their variant: size, note.
  std::vector<std::pair<std::string, std::string>> far_runs;
};

struct ReportView {
  // Who measured and where, for a bug report: "alignbench 0.9", "abc123,
  // Release build", the directory (raw: each writer quotes it its way) and
  // "ext4 on vda (QEMU HARDDISK), sectors 512/4096 B, write cache: write
  // back, Linux 6.18"; a reference table's source, platform and disk instead.
  std::string tool;
  std::string build;
  std::string dir;
  std::string environment;
  // "DIR (ext4 /dev/vda)", or "reference table: PLATFORM".
  std::string subject;
  // What sets the unaligned variant apart in Derby's sweep, " (shift 24 B)";
  // "" for a log case, whose headings say it.
  std::string unaligned_shift;
  std::string title;                  // TitleLine
  std::string compact_title;          // CompactTitleLine
  std::optional<std::string> source;  // a reference table's
  std::string platform_and_disk;      // a reference table's
  std::string settings;               // SettingsLine
  std::string compact_settings;       // without the seed
  // "atomic writes (RWF_ATOMIC)" with --atomic on, else "" (AtomicWords): in
  // the settings lines, and in the formats that print none.
  std::string atomic;
  std::string unaligned;  // the variants' headings
  std::string aligned;
  bool replay = false;
  bool reference = false;
  // Why there are no device rows, or nothing where a device counted.
  std::optional<std::string> no_device;
  // Where the device I/O came from, in words (the result's device_account):
  // the requests told apart, or the device-wide counters and why; absent
  // where the result does not say.
  std::optional<std::string> device_source;
  bool has_background = false;  // idle windows sampled the disk
  bool has_cpu_share = false;   // and the CPUs
  std::vector<GroupView> groups;
  // The why of every pair in a line or two, figures as ranges, and the sizes
  // of the whole run (sorted, each once) those that say more are among.
  SharedWhy shared_why;
  std::vector<std::uint64_t> sizes;
  std::vector<std::pair<std::string, std::string>> notes;  // label, text
  // What the legend says of the statistics, from the result.
  std::string interval_of;
  std::uint64_t min_runs_for_verdict = 0;
  std::uint64_t runs_per_variant = 0;
  std::string log_footer;        // a log case's variants, "" for Derby's sweep
  std::string summary;           // SummaryLine
  std::string compact_summary;   // without subject, empty counts, mechanism
  std::string answer;            // AnswerLine
  CompactAnswer compact_answer;  // CompactAnswerOf: the answer, then "but:"
  // A unit search's answer and the layers' units (UnitAnswerLine,
  // DeclaredLine); "" for any other result.
  std::string unit;
  std::string declared;
};

// The view of `report`: a copy of what the writers print, nothing pointing
// into the report.
ReportView ViewOf(const Report& report);

}  // namespace alignbench
