#include "lib/render/markdown.h"

#include "lib/render/cells.h"
#include "lib/render/conditions.h"

namespace alignbench {
namespace {

// The environment in one line, for a bug report.
void MarkdownSummary(std::ostream& out, const ReportView& v) {
  if (v.reference) {
    out << "**reference table** from " << MarkdownText(v.source.value_or(""))
        << ": " << MarkdownText(v.platform_and_disk);
    return;
  }
  out << "**" << MarkdownText(v.tool) << "** (" << MarkdownText(v.build)
      << ") on " << MarkdownCode(v.dir) << ": " << MarkdownText(v.environment);
}

// "1.0 / 0.0": a device counter of both variants, or n/a without counters.
std::string BothVariants(const RowView& row, double DevicePerOp::*field) {
  if (!row.unaligned.device || !row.aligned.device) return "n/a";
  return Printf("%.1f", (*row.unaligned.device).*field) + " / " +
         Printf("%.1f", (*row.aligned.device).*field);
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
        << " | " << BothVariants(row, &DevicePerOp::reads) << " | "
        << BothVariants(row, &DevicePerOp::kib_written) << " |\n";
  }
  if (!g.means_apart.empty()) out << "\nwhere the means point elsewhere:\n\n";
  for (const auto& [size, note] : g.means_apart) {
    out << "- " << size << ": " << MarkdownText(note) << "\n";
  }
  // What every size says, as whole sentences of their own.
  if (!g.why.common.empty()) out << "\nwhy, at every size:\n\n";
  for (const std::string& sentence : g.why.common) {
    out << "- " << MarkdownText(sentence) << "\n";
  }
  if (!g.why.per_size.empty()) out << "\nwhy, per size:\n\n";
  for (const auto& [size, text] : g.why.per_size) {
    out << "- " << size << ": " << MarkdownText(text) << "\n";
  }
  if (!g.far_runs.empty()) {
    out << "\nruns far off the others of their variant:\n\n";
  }
  for (const auto& [size, note] : g.far_runs) {
    out << "- " << size << ": " << MarkdownText(note) << "\n";
  }
  out << "\n</details>\n";
}

// One group of pairs as markdown: the table of times, gains and verdicts,
// then its details folded.
void MarkdownGroup(std::ostream& out, const ReportView& v, const GroupView& g) {
  out << "\n"
      << MarkdownCode(g.label) << "\n\n"
      << "| size | " << v.unaligned << " ms | " << v.aligned
      << " ms | %gain | 95% interval | verdict |\n"
      << "|---:|---:|---:|---:|:---:|:---|\n";
  for (const RowView& row : g.rows) {
    out << "| " << row.size << " | " << row.unaligned_ms << " | "
        << row.aligned_ms << " | " << row.gain << " | " << row.interval << " | "
        << MarkdownCell(row.verdict_words) << " |\n";
  }
  Details(out, g);
}

}  // namespace

void RenderMarkdown(std::ostream& out, const ReportView& v) {
  MarkdownSummary(out, v);
  out << "  \n" << MarkdownText(v.settings) << "\n";
  for (const GroupView& g : v.groups) MarkdownGroup(out, v, g);
  if (!v.notes.empty()) out << "\n";
  for (const auto& [label, text] : v.notes) {
    out << "**" << MarkdownText(label) << ":** " << MarkdownText(text)
        << "  \n";
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

void RenderManyMarkdown(std::ostream& out, const ManyView& m) {
  const std::size_t n = m.labels.size();
  for (std::size_t g = 0; g < n; ++g) {
    out << "[" << g + 1 << "] " << MarkdownCell(m.labels[g]) << "  \n";
  }
  out << "\n| size |";
  std::string rule = "|---:|";
  for (std::size_t g = 0; g < n; ++g) {
    const std::string label = "[" + std::to_string(g + 1) + "]";
    out << " " << label << " %gain | " << label << " 95% interval | " << label
        << " verdict |";
    rule += "---:|:---:|:---|";
  }
  out << "\n" << rule << "\n";
  for (const ManyRow& row : m.rows) {
    out << "| " << row.name << " |";
    for (const RowView* cell : row.cells) {
      out << " " << (cell ? cell->short_gain : "-") << " | "
          << (cell ? cell->short_interval : "-") << " | "
          << (cell ? cell->verdict_words : "-") << " |";
    }
    out << "\n";
  }
  out << "\n" << kConditionsHeading << "\n\n";
  for (std::size_t g = 0; g < n; ++g) {
    out << "- [" << g + 1 << "] " << m.conditions[g] << "\n";
  }
  if (!m.busy_warning.empty()) {
    out << "\n**warning:** " << m.busy_warning << "\n";
  }
  if (m.differences.empty()) return;
  out << "\n| field |";
  for (std::size_t g = 0; g < n; ++g) out << " [" << g + 1 << "] |";
  out << "\n|:---|";
  for (std::size_t g = 0; g < n; ++g) out << ":---|";
  out << "\n";
  for (const Difference& d : m.differences) {
    out << "| " << MarkdownCell(d.name) << " |";
    for (const std::string& text : d.texts)
      out << " " << MarkdownCell(text) << " |";
    out << "\n";
  }
}

}  // namespace alignbench
