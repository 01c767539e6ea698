// What a report says, built once from the result, between the result and the
// writers (writers.h): the title, the settings, the table's rows, the notes
// (warnings, errors, no device), the summary and the answer, and the details
// --details and markdown add: the device I/O, the why, the tails, the means
// that point elsewhere and the runs far off. Every text from outside is
// escaped here. A writer lays the view out in its format and reads no word
// from the result itself; a row keeps its pair for the figures each format
// prints its own way (CSV's digits, Derby's Java doubles, the device cells).
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

// One pair's cells, as every table prints them.
struct RowView {
  const PairResult* pair = nullptr;
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

// The view of `report`, whose rows point into it: it must outlive the view.
ReportView ViewOf(const Report& report);
ReportView ViewOf(Report&&) = delete;

}  // namespace alignbench
