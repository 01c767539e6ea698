#include "lib/render/markdown.h"

#include <algorithm>

#include "lib/render/log_columns.h"
#include "lib/render/report_parts.h"
#include "lib/render/why_lines.h"
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
void MarkdownSummary(std::ostream& out, const Report& r) {
  if (r.reference) {
    out << "**reference table** from " << EscapeControl(r.reference->source)
        << ": " << EscapeControl(r.reference->platform) << "; "
        << EscapeControl(r.reference->disk);
    return;
  }
  const TargetInfo& t = r.target;
  out << "**alignbench " << EscapeControl(r.tool_version) << "** ("
      << EscapeControl(r.git_revision.value_or("revision unknown"))
      << (r.build_type ? ", " + EscapeControl(*r.build_type) + " build" : "")
      << ") on " << MarkdownCode(t.dir) << ": "
      << EscapeControl(t.fs_type.value_or("unknown fs"));
  if (t.device) {
    const DeviceInfo& d = *t.device;
    out << " on " << EscapeControl(d.disk);
    if (d.model) out << " (" << EscapeControl(*d.model) << ")";
    if (d.logical_block_bytes && d.physical_block_bytes) {
      out << ", sectors " << *d.logical_block_bytes << "/"
          << *d.physical_block_bytes << " B";
    }
    if (d.write_cache) out << ", write cache: " << *d.write_cache;
  } else {
    out << ", no block device";
  }
  if (t.host.kernel) out << ", Linux " << *t.host.kernel;
}

// "1.0 / 0.0": a device counter of both variants, or n/a without counters.
std::string BothVariants(const PairResult& p, double DevicePerOp::*field) {
  if (!p.unaligned.device || !p.aligned.device) return "n/a";
  return Printf("%.1f", (*p.unaligned.device).*field) + " / " +
         Printf("%.1f", (*p.aligned.device).*field);
}

// One group of pairs as markdown: the table, then as lists the pairs whose
// means point elsewhere, why each pair's writes cost what they did, and its
// runs far off the others, as the text table says them.
void MarkdownGroup(std::ostream& out, const Report& r, const std::string& label,
                   std::size_t from, std::size_t to) {
  out << "\n`" << label << "`\n\n"
      << "| size | " << Heading(r, Variant::kUnaligned) << " ms | "
      << Heading(r, Variant::kAligned)
      << " ms | means %gain | %gain | 95% interval | p | verdict | "
         "reads/write (u/a) | KiB written/write (u/a) |\n"
      << "|---:|---:|---:|---:|---:|:---:|---:|:---|---:|---:|\n";
  for (std::size_t i = from; i < to; ++i) {
    const PairResult& p = r.pairs[i];
    out << "| " << SizeText(p.spec.size) << " | " << MeanMsCell(p.unaligned)
        << " | " << MeanMsCell(p.aligned) << " | " << MeansGainCell(p) << " | "
        << TypicalGainCell(p) << " | " << IntervalText(p) << " | "
        << PValueCell(p) << " | " << VerdictWords(r, p) << " | "
        << BothVariants(p, &DevicePerOp::reads) << " | "
        << BothVariants(p, &DevicePerOp::kib_written) << " |\n";
  }
  const auto apart = MeansApart(r, from, to);
  if (!apart.empty()) out << "\nwhere the means point elsewhere:\n\n";
  for (const auto& [size, note] : apart) {
    out << "- " << size << ": " << note << "\n";
  }
  const WhyLines why = WhyLinesOf(r.pairs, from, to);
  out << "\nwhy:\n\n";
  for (const std::string& sentence : why.common) {
    out << "- all sizes: " << EscapeControl(sentence) << "\n";
  }
  for (const auto& [size, text] : why.per_size) {
    out << "- " << size << ": " << EscapeControl(text) << "\n";
  }
  bool noted = false;
  for (std::size_t i = from; i < to; ++i) {
    for (const std::string& note : r.pairs[i].run_notes) {
      if (!noted) out << "\nruns far off the others of their variant:\n\n";
      noted = true;
      out << "- " << SizeText(r.pairs[i].spec.size) << ": "
          << EscapeControl(note) << "\n";
    }
  }
}

}  // namespace

void RenderMarkdown(std::ostream& out, const Report& r) {
  MarkdownSummary(out, r);
  out << "  \n" << SettingsLine(r) << "\n";
  ForEachGroup(r,
               [&](const std::string& label, std::size_t from, std::size_t to) {
                 MarkdownGroup(out, r, label, from, to);
               });
  const auto notes = Notes(r);
  if (!notes.empty()) out << "\n";
  for (const auto& [label, text] : notes) {
    out << "**" << label << ":** " << text << "  \n";
  }
  out << "\n"
      << (r.settings.replay
              ? "size: bytes per recorded commit; mean ms per "
                "commit"
              : "size: K for KiB, B for bytes; mean ms per write+sync")
      << "; means %gain = "
         "(unaligned/aligned - 1)*100 from them; %gain: the typical gain of a "
         "block, the centre of its 95% interval";
  if (!r.reference) {
    out << "; 95% interval: " << r.statistics.interval_of
        << "; a verdict needs " << r.statistics.min_runs_for_verdict
        << " runs of each variant";
  }
  out << ".\n";
}

}  // namespace alignbench
