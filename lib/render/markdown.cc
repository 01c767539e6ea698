#include "lib/render/markdown.h"

#include <algorithm>

#include "lib/render/cells.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

// Outside text as a markdown code span: escaped for the terminal, and fenced
// by one backtick more than its longest run of them (CommonMark), so that a
// backtick in a directory name cannot end the span and turn the rest into
// markup.
std::string MarkdownCode(const std::string& raw) {
  const std::string text = EscapeControl(raw);
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " + text + " " : text) + fence;
}

// The environment in one line, for a bug report.
void MarkdownSummary(std::ostream& out, const ReportView& v) {
  if (v.reference) {
    out << "**reference table** from " << v.source.value_or("") << ": "
        << v.platform_and_disk;
    return;
  }
  out << "**" << v.tool << "** (" << v.build << ") on " << MarkdownCode(v.dir)
      << ": " << v.environment;
}

// "1.0 / 0.0": a device counter of both variants, or n/a without counters.
std::string BothVariants(const PairResult& p, double DevicePerOp::*field) {
  if (!p.unaligned.device || !p.aligned.device) return "n/a";
  return Printf("%.1f", (*p.unaligned.device).*field) + " / " +
         Printf("%.1f", (*p.aligned.device).*field);
}

// The details of a group, folded as a bug tracker shows them (GitHub's and
// GitLab's <details>): Derby's gain of means, p and the device I/O per row,
// then as lists the means that point elsewhere, why each pair's writes cost
// what they did, and the runs far off the others, as the text table says
// them.
void Details(std::ostream& out, const GroupView& g) {
  out << "\n<details><summary>details: Derby's gain of means, p, device I/O, "
         "why</summary>\n\n"
      << "| size | means %gain | p | reads/write (u/a) | KiB written/write "
         "(u/a) |\n"
      << "|---:|---:|---:|---:|---:|\n";
  for (const RowView& row : g.rows) {
    out << "| " << row.size << " | " << row.means_gain << " | " << row.p
        << " | " << BothVariants(*row.pair, &DevicePerOp::reads) << " | "
        << BothVariants(*row.pair, &DevicePerOp::kib_written) << " |\n";
  }
  if (!g.means_apart.empty()) out << "\nwhere the means point elsewhere:\n\n";
  for (const auto& [size, note] : g.means_apart) {
    out << "- " << size << ": " << note << "\n";
  }
  // What every size says, as whole sentences of their own.
  if (!g.why.common.empty()) out << "\nwhy, at every size:\n\n";
  for (const std::string& sentence : g.why.common) {
    out << "- " << sentence << "\n";
  }
  if (!g.why.per_size.empty()) out << "\nwhy, per size:\n\n";
  for (const auto& [size, text] : g.why.per_size) {
    out << "- " << size << ": " << text << "\n";
  }
  if (!g.far_runs.empty()) {
    out << "\nruns far off the others of their variant:\n\n";
  }
  for (const auto& [size, note] : g.far_runs) {
    out << "- " << size << ": " << note << "\n";
  }
  out << "\n</details>\n";
}

// One group of pairs as markdown: the table of times, gains and verdicts,
// then its details folded.
void MarkdownGroup(std::ostream& out, const ReportView& v, const GroupView& g) {
  out << "\n`" << g.label << "`\n\n"
      << "| size | " << v.unaligned << " ms | " << v.aligned
      << " ms | %gain | 95% interval | verdict |\n"
      << "|---:|---:|---:|---:|:---:|:---|\n";
  for (const RowView& row : g.rows) {
    out << "| " << row.size << " | " << row.unaligned_ms << " | "
        << row.aligned_ms << " | " << row.gain << " | " << row.interval << " | "
        << row.verdict_words << " |\n";
  }
  Details(out, g);
}

}  // namespace

void RenderMarkdown(std::ostream& out, const ReportView& v) {
  MarkdownSummary(out, v);
  out << "  \n" << v.settings << "\n";
  for (const GroupView& g : v.groups) MarkdownGroup(out, v, g);
  if (!v.notes.empty()) out << "\n";
  for (const auto& [label, text] : v.notes) {
    out << "**" << label << ":** " << text << "  \n";
  }
  out << "\n"
      << (v.replay ? "size: bytes per recorded commit; mean ms per commit"
                   : "size: K for KiB, B for bytes; mean ms per write+sync")
      << "; means %gain = "
         "(unaligned/aligned - 1)*100 from them; %gain: the typical gain of a "
         "block, the centre of its 95% interval";
  if (!v.reference) {
    out << "; 95% interval: " << v.interval_of << "; a verdict needs "
        << v.min_runs_for_verdict << " runs of each variant";
  }
  out << ".\n";
}

}  // namespace alignbench
