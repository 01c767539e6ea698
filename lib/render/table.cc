#include "lib/render/table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "lib/config/size.h"
#include "lib/render/ioping.h"
#include "lib/render/log_columns.h"
#include "lib/render/tail_rows.h"
#include "lib/render/why_lines.h"
#include "lib/result/env_fields.h"
#include "lib/result/escape.h"

namespace alignbench {

namespace {

// What a replay's variants are: "unaligned: as recorded, 38 B per commit,
// file 11.6 KiB; aligned: whole blocks, 4096 B per commit, file 12.0 KiB".
// Results from before the variants were recorded say the rule.
std::string ReplayVariantsText(const Replay& r) {
  if (r.unaligned.name.empty() || r.aligned.name.empty()) {
    return r.rule == ReplayRule::kShift
               ? "aligned: as recorded, unaligned: moved by the shift"
               : "unaligned: as recorded, aligned: commits on 4 KiB "
                 "boundaries";
  }
  std::string text;
  for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
    const ReplayVariant& side = r.Of(v);
    text += std::string(text.empty() ? "" : "; ") +
            std::string(NameOf(kVariants, v)) + ": " + side.name + ", " +
            Fixed(side.bytes_per_commit, 0) + " B per commit, file " +
            Fixed(static_cast<double>(side.file_bytes) / 1024, 1) + " KiB";
  }
  return text;
}

std::string Ms(const VariantResult& v) {
  return v.repetitions > 0 ? Printf("%.4f", v.total_ns.mean / 1e6) : "n/a";
}
std::string PValue(const PairResult& p) {
  return p.inference.test ? Printf("%.3g", p.inference.test->p_value) : "n/a";
}

std::string SettingsLine(const Report& r) {
  const Settings& s = r.settings;
  const bool no_sync =
      std::all_of(s.syncs.begin(), s.syncs.end(),
                  [](SyncMethod m) { return m == SyncMethod::kNone; });
  const bool all_sync =
      std::none_of(s.syncs.begin(), s.syncs.end(),
                   [](SyncMethod m) { return m == SyncMethod::kNone; });
  std::string line = std::to_string(s.writes) +
                     (no_sync    ? " writes per run (no sync), "
                      : all_sync ? " synced writes per run, "
                                 : " writes per run, ") +
                     RulesText(r) + ", " + std::to_string(s.repetitions) +
                     (s.repetitions == 1 ? " run" : " runs") + " per variant";
  if (s.seed) line += ", seed " + std::to_string(*s.seed);
  if (s.warmup > 0) line += ", " + std::to_string(s.warmup) + " warm-up writes";
  if (s.budget_seconds) {
    line += ", --budget " + Printf("%g", *s.budget_seconds) + " s for +-" +
            Printf("%g", s.precision_points) + " points";
  }
  if (!s.case_name.empty()) line += ", case " + s.case_name;
  if (s.replay) {
    const Replay& r = *s.replay;
    line += ", replay of " + (r.argv.empty() ? r.trace_path : r.argv[0]) +
            " (" + r.log_path + "; " + ReplayVariantsText(r) + ")";
  }
  return EscapeControl(line);
}

// Text broken into lines of at most 80 characters at spaces.
std::string Wrap(const std::string& text) {
  std::string out, line, word;
  std::istringstream words(text);
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > 80) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

bool HasBackground(const Report& r) {
  for (const PairResult& p : r.pairs) {
    if (p.unaligned.background || p.aligned.background) return true;
  }
  return false;
}

bool HasCpuShare(const Report& r) {
  for (const PairResult& p : r.pairs) {
    if (p.others_cpu_share) return true;
  }
  return false;
}

// What a row's size is: KiB (a row in bytes says B), or a replay's recorded
// bytes per commit; and what one timed operation is.
std::string SizeWords(const Report& r) {
  if (r.settings.replay) {
    return "size: bytes per recorded commit (B); unaligned and aligned: mean "
           "milliseconds per\ncommit (one clock span over its writes and its "
           "sync);\n";
  }
  return "size in KiB; unaligned and aligned: mean milliseconds per "
         "write+sync\n(one clock span over pwrite and its sync), as Derby "
         "printed them;\n";
}

// What the columns mean, and the statistic behind the interval, as the result
// says it was made.
std::string Footer(const Report& r) {
  std::string text =
      SizeWords(r) +
      "means %gain = (unaligned / aligned - 1) * 100 from them, Derby's "
      "formula.\n%gain: the typical gain of a block of two runs back to back, "
      "the centre of\nits 95% interval. Positive means aligning helps.\n";
  if (r.reference) return text;
  text += LogFooter(r);
  std::string statistics =
      "95% interval: " + r.statistics.interval_of +
      "; p comes from the same test, so p < 0.05 exactly when the interval "
      "excludes 0. A verdict needs " +
      std::to_string(r.statistics.min_runs_for_verdict) +
      " runs of each variant";
  const std::uint64_t runs = r.settings.repetitions;
  if (runs < r.statistics.min_runs_for_verdict) {
    statistics += "; with " + std::to_string(runs) +
                  (runs == 1 ? " run there is no interval either"
                             : " runs every pair is undecided");
  }
  return text + Wrap(statistics + ".") +
         "\nr/w/fl: device reads, writes and flushes per " +
         std::string(r.settings.replay ? "commit" : "write") +
         ", from "
         "/sys/block/*/stat.\n" +
         (HasBackground(r)
              ? Wrap("idle: the same counters over the idle windows before "
                     "the pair's rounds, scaled to the time of one write: the "
                     "disk's own traffic, which r and w count too" +
                     std::string(HasCpuShare(r)
                                     ? "; cpu: the share of the CPUs' time "
                                       "other processes used in those windows"
                                     : "") +
                     ".") +
                    "\n"
              : std::string());
}

// Pairs grouped by their axes, in plan order.
template <typename Fn>
void ForEachGroup(const Report& r, Fn fn) {
  for (std::size_t i = 0; i < r.pairs.size();) {
    std::size_t j = i;
    while (j < r.pairs.size() &&
           AxesLabel(r.pairs[j].spec) == AxesLabel(r.pairs[i].spec))
      ++j;
    fn(AxesLabel(r.pairs[i].spec), i, j);
    i = j;
  }
}

// A variant's label, left-aligned in the device block's 10 columns.
std::string PadRight(const std::string& label) {
  return label.size() >= 10 ? label + " "
                            : label + std::string(10 - label.size(), ' ');
}

std::string DeviceCell(const std::optional<DevicePerOp>& d) {
  if (!d) return "n/a";
  char text[96];
  std::snprintf(text, sizeof text, "%4.1f r %6.1f KiB  %4.1f w %6.1f KiB  ",
                d->reads, d->kib_read, d->writes, d->kib_written);
  // Kernels before 5.5 do not count flushes: say n/a rather than 0.
  char flushes[16] = " n/a";
  if (d->flushes) std::snprintf(flushes, sizeof flushes, "%4.1f", *d->flushes);
  return std::string(text) + flushes + " fl";
}

// What the idle windows before the pair's rounds showed over the same time,
// where they were sampled, and how busy others kept the CPUs in them.
std::string BackgroundCell(const PairResult& p, const VariantResult& v) {
  if (!v.background) return "";
  char text[96];
  std::snprintf(text, sizeof text, "   idle: %4.1f r %4.1f w %6.1f KiB",
                v.background->reads, v.background->writes,
                v.background->kib_written);
  std::string cell = text;
  if (p.others_cpu_share) {
    std::snprintf(text, sizeof text, " %3.0f %% cpu",
                  100 * *p.others_cpu_share);
    cell += text;
  }
  return cell;
}

// What a report says below its pairs, as (label, escaped text): no block
// device, each warning and error, and a run that did not finish.
std::vector<std::pair<std::string, std::string>> Notes(const Report& r) {
  std::vector<std::pair<std::string, std::string>> notes;
  if (!r.target.device) {
    // What a sync does where no device counts it: tmpfs's nothing, or
    // whether sshfs passes it on to its server.
    notes.emplace_back("note", EscapeControl(r.target.no_device_reason +
                                             (r.target.sync_effect
                                                  ? "; " + *r.target.sync_effect
                                                  : std::string())));
  }
  for (const std::string& w : r.warnings) {
    notes.emplace_back("warning", EscapeControl(w));
  }
  for (const std::string& e : r.errors) {
    notes.emplace_back("error", EscapeControl(e));
  }
  if (!r.complete) {
    notes.emplace_back("INCOMPLETE",
                       "the run was interrupted or stopped by an error");
  }
  return notes;
}

// Each pair of [from, to) whose gain of means lies outside its interval, as
// its size column and MeansApartNote.
std::vector<std::pair<std::string, std::string>> MeansApart(const Report& r,
                                                            std::size_t from,
                                                            std::size_t to) {
  std::vector<std::pair<std::string, std::string>> apart;
  for (std::size_t i = from; i < to; ++i) {
    std::string note =
        MeansApartNote(r.pairs[i], Heading(r, Variant::kUnaligned),
                       Heading(r, Variant::kAligned));
    if (!note.empty()) {
      apart.emplace_back(SizeColumn(r.pairs[i].spec.size), std::move(note));
    }
  }
  return apart;
}

// A group's rows of times and gains, under their heading.
void GainRows(std::ostream& out, const Report& r, std::size_t from,
              std::size_t to) {
  out << Pad("size", 6) << " | " << Pad(Heading(r, Variant::kUnaligned), 10)
      << " | " << Pad(Heading(r, Variant::kAligned), 10) << " | "
      << Pad("means %gain", 11) << " | " << Pad("%gain", 8) << " | "
      << Pad("95% interval", 16) << " | " << Pad("p", 8) << " | verdict\n";
  for (std::size_t i = from; i < to; ++i) {
    const PairResult& p = r.pairs[i];
    out << Pad(SizeColumn(p.spec.size), 6) << " | " << Pad(Ms(p.unaligned), 10)
        << " | " << Pad(Ms(p.aligned), 10) << " | " << Pad(MeansGainCell(p), 11)
        << " | " << Pad(TypicalGainCell(p), 8) << " | "
        << Pad(IntervalText(p), 16) << " | " << Pad(PValue(p), 8) << " | "
        << LabelledVerdict(r, p) << "\n";
  }
}

// A group's device I/O per write, two lines a pair; where no device takes
// the writes, one line says so instead of a column of n/a.
void DeviceRows(std::ostream& out, const Report& r, std::size_t from,
                std::size_t to) {
  const char* per = r.settings.replay ? "per commit" : "per write";
  if (!r.reference && !r.target.device) {
    out << "device I/O " << per
        << ": none counted, no block device takes these writes (the note "
           "below says where they go)\n";
    return;
  }
  const std::string first = Heading(r, Variant::kUnaligned);
  const std::string second = Heading(r, Variant::kAligned);
  for (std::size_t i = from; i < to; ++i) {
    if (i == from) out << "device I/O " << per << " (device-wide counters):\n";
    const PairResult& p = r.pairs[i];
    out << Pad(SizeColumn(p.spec.size), 6) << "  " << PadRight(first)
        << DeviceCell(p.unaligned.device) << BackgroundCell(p, p.unaligned)
        << CommitCell(p.unaligned) << "\n"
        << Pad("", 6) << "  " << PadRight(second)
        << DeviceCell(p.aligned.device) << BackgroundCell(p, p.aligned)
        << CommitCell(p.aligned) << "\n";
  }
}

// Why a group's figures are as they are: means that point elsewhere, the
// why-lines, runs far off the others.
void ExplainRows(std::ostream& out, const Report& r, std::size_t from,
                 std::size_t to) {
  const auto apart = MeansApart(r, from, to);
  if (!apart.empty()) out << "where the means point elsewhere:\n";
  for (const auto& [size, note] : apart) {
    out << Pad(size, 6) << "  " << note << "\n";
  }
  const WhyLines why = WhyLinesOf(r.pairs, from, to);
  out << "why:\n";
  for (const std::string& sentence : why.common) {
    out << Pad("all", 6) << "  " << EscapeControl(sentence) << "\n";
  }
  for (const auto& [size, text] : why.per_size) {
    out << Pad(size, 6) << "  " << EscapeControl(text) << "\n";
  }
  bool noted = false;
  for (std::size_t i = from; i < to; ++i) {
    for (const std::string& note : r.pairs[i].run_notes) {
      if (!noted) out << "runs far off the others of their variant:\n";
      noted = true;
      out << Pad(SizeColumn(r.pairs[i].spec.size), 6) << "  "
          << EscapeControl(note) << "\n";
    }
  }
}

void RenderTable(std::ostream& out, const Report& r) {
  out << TitleLine(r) << "\n";
  if (r.reference) {
    out << "source: " << EscapeControl(r.reference->source) << "\n";
  }
  out << SettingsLine(r) << "\n";
  ForEachGroup(r,
               [&](const std::string& label, std::size_t from, std::size_t to) {
                 out << "\n[" << label << "]\n";
                 GainRows(out, r, from, to);
                 DeviceRows(out, r, from, to);
                 RenderTailRows(out, r.pairs, from, to);
                 ExplainRows(out, r, from, to);
               });
  const auto notes = Notes(r);
  if (!notes.empty()) out << "\n";
  for (const auto& [label, text] : notes) out << label << ": " << text << "\n";
  out << "\n" << Footer(r);
}

void RenderDerby(std::ostream& out, const Report& r) {
  for (const PairResult& p : r.pairs) {
    if (!p.Measured()) {
      out << SizeColumn(p.spec.size) << " | n/a | n/a | n/a\n";
      continue;
    }
    out << SizeColumn(p.spec.size) << " | "
        << JavaDouble(p.unaligned.total_ns.mean / 1e6) << " | "
        << JavaDouble(p.aligned.total_ns.mean / 1e6) << " | "
        << JavaDouble(*p.gain_pct) << "%\n";
  }
}

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
    out << "| " << SizeColumn(p.spec.size) << " | " << Ms(p.unaligned) << " | "
        << Ms(p.aligned) << " | " << MeansGainCell(p) << " | "
        << TypicalGainCell(p) << " | " << IntervalText(p) << " | " << PValue(p)
        << " | " << VerdictWords(r, p) << " | "
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
      out << "- " << SizeColumn(r.pairs[i].spec.size) << ": "
          << EscapeControl(note) << "\n";
    }
  }
}

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
      << (r.settings.replay ? "size: bytes per recorded commit; mean ms per "
                              "commit"
                            : "size in KiB; mean ms per write+sync")
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

void RenderCsv(std::ostream& out, const Report& r) {
  out << "size_bytes,sync,io,layout,cache,unaligned_mean_ms,aligned_mean_ms,"
         "unaligned_p99_ms,aligned_p99_ms,gain_pct,median_gain_pct,gain_low_"
         "pct,gain_high_pct,"
         "p_value,"
         "verdict,unaligned_reads_per_write,aligned_reads_per_write,"
         "unaligned_written_kib_per_write,aligned_written_kib_per_write,"
         "interval_estimate_pct\n";
  auto number = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? Printf("%.9g", *v) : std::string();
  };
  auto device = [&](const VariantResult& v, double DevicePerOp::*field) {
    return v.device ? number((*v.device).*field) : std::string();
  };
  for (const PairResult& p : r.pairs) {
    const std::optional<GainTest>& test = p.inference.test;
    auto ms = [&](const VariantResult& v, double Summary::*field) {
      return v.repetitions > 0 ? number(v.total_ns.*field / 1e6)
                               : std::string();
    };
    out << p.spec.size << "," << NameOf(kSyncMethods, p.spec.sync) << ","
        << NameOf(kIoModes, p.spec.io) << "," << NameOf(kLayouts, p.spec.layout)
        << "," << NameOf(kCacheStates, p.spec.cache) << ","
        << ms(p.unaligned, &Summary::mean) << ","
        << ms(p.aligned, &Summary::mean) << ","
        << ms(p.unaligned, &Summary::p99) << "," << ms(p.aligned, &Summary::p99)
        << "," << number(p.gain_pct) << "," << number(p.median_gain_pct) << ","
        << (test ? number(test->interval_pct.low) : "") << ","
        << (test ? number(test->interval_pct.high) : "") << ","
        << (test ? number(test->p_value) : "") << "," << VerdictWords(r, p)
        << "," << device(p.unaligned, &DevicePerOp::reads) << ","
        << device(p.aligned, &DevicePerOp::reads) << ","
        << device(p.unaligned, &DevicePerOp::kib_written) << ","
        << device(p.aligned, &DevicePerOp::kib_written) << ","
        << (test ? number(test->estimate_pct) : "") << "\n";
  }
}

// One section's fields as the field table orders them, "unknown" where a
// field printed always is.
void PrintSection(std::ostream& out, const TargetInfo& t, EnvSection section) {
  for (const EnvField& field : EnvFields()) {
    if (field.section != section || field.printed == Printed::kNever) continue;
    const FieldValue value = field.get(t);
    const bool known = !std::holds_alternative<std::monostate>(value);
    if (!known && field.printed == Printed::kIfKnown) continue;
    out << "  " << field.label << ": " << EscapeControl(FieldText(value))
        << "\n";
  }
}

}  // namespace

void RenderEnvironment(std::ostream& out, const TargetInfo& t) {
  out << TargetLine(t) << "\nhost\n";
  PrintSection(out, t, EnvSection::kHost);
  out << "filesystem\n";
  PrintSection(out, t, EnvSection::kTarget);
  if (!t.device) {
    out << "device\n  " << EscapeControl(t.no_device_reason) << "\n";
    return;
  }
  out << "device\n";
  PrintSection(out, t, EnvSection::kDevice);
}

std::string TitleLine(const Report& r) {
  if (!r.reference) return TargetLine(r.target);
  return "--- reference table: " + EscapeControl(r.reference->platform) + "; " +
         EscapeControl(r.reference->disk) + " ---";
}

std::string TargetLine(const TargetInfo& t) {
  std::string line = "--- " + t.Title() + " ---";
  if (t.device) {
    const DeviceInfo& d = *t.device;
    if (d.logical_block_bytes)
      line += " logical " + std::to_string(*d.logical_block_bytes) + " B";
    if (d.physical_block_bytes) {
      line += ", physical " + std::to_string(*d.physical_block_bytes) + " B";
    }
    if (d.write_cache) line += ", write cache: " + *d.write_cache;
  }
  return EscapeControl(line);
}

void Render(std::ostream& out, const Report& report,
            alignbench::Format format) {
  switch (format) {
    case Format::kTable:
      return RenderTable(out, report);
    case Format::kDerby:
      return RenderDerby(out, report);
    case Format::kMarkdown:
      return RenderMarkdown(out, report);
    case Format::kCsv:
      return RenderCsv(out, report);
    case Format::kIoping:
      return RenderIoping(out, report);
  }
}

namespace {

// The mean write+sync over every timed write of one variant, all pairs.
std::optional<double> MeanOverPairs(const Report& report,
                                    VariantResult PairResult::*variant) {
  double sum = 0;
  double count = 0;
  for (const PairResult& pair : report.pairs) {
    const Summary& total = (pair.*variant).total_ns;
    if ((pair.*variant).repetitions == 0 || total.count == 0) continue;
    sum += total.mean * static_cast<double>(total.count);
    count += static_cast<double>(total.count);
  }
  if (count == 0) return std::nullopt;
  return sum / count;
}

std::string MeanText(const std::optional<double>& ns) {
  return ns ? Printf("%.3f", *ns / 1e6) + " ms" : "n/a";
}

// The mechanism the most measured pairs show (the first of the table's order
// on a tie), with its count: "read-on-write in 5 of 13 pairs".
std::string DominantMechanism(const Report& report) {
  std::size_t counts[std::size(kMechanisms)] = {};
  std::size_t measured = 0;
  for (const PairResult& pair : report.pairs) {
    const std::vector<Mechanism>& found = pair.mechanisms;
    if (found.empty()) continue;
    ++measured;
    for (std::size_t i = 0; i < std::size(kMechanisms); ++i) {
      if (std::find(found.begin(), found.end(), kMechanisms[i].value) !=
          found.end()) {
        ++counts[i];
      }
    }
  }
  if (measured == 0) return "";
  const std::size_t top =
      std::max_element(std::begin(counts), std::end(counts)) - counts;
  return "; mostly " + std::string(kMechanisms[top].name) + " (" +
         std::to_string(counts[top]) + " of " + std::to_string(measured) +
         " measured pairs)";
}

}  // namespace

std::string SummaryLine(const Report& report) {
  std::size_t counts[std::size(kVerdicts)] = {};
  std::size_t without_verdict = 0;
  for (const PairResult& pair : report.pairs) {
    if (!pair.verdict) {
      ++without_verdict;
      continue;
    }
    for (std::size_t i = 0; i < std::size(kVerdicts); ++i) {
      if (kVerdicts[i].value == *pair.verdict) ++counts[i];
    }
  }
  const std::string subject =
      report.reference ? "reference table: " + report.reference->platform +
                             "; " + report.reference->disk
                       : report.target.Title();
  std::string line =
      "--- " + subject + ": " + std::to_string(report.pairs.size()) + " pairs:";
  for (std::size_t i = 0; i < std::size(kVerdicts); ++i) {
    // Leaning verdicts are counted where there are any (and never in a
    // result written before they existed).
    if (counts[i] == 0 && !Firm(kVerdicts[i].value) &&
        Directional(kVerdicts[i].value)) {
      continue;
    }
    line += (i == 0 ? " " : ", ") + std::to_string(counts[i]) + " " +
            std::string(kVerdicts[i].name);
  }
  if (without_verdict > 0) {
    line += ", " + std::to_string(without_verdict) + " without a verdict";
  }
  // The directory's name is the user's: escaped, like every line that holds it.
  return EscapeControl(line + "; mean write+sync " +
                       MeanText(MeanOverPairs(report, &PairResult::unaligned)) +
                       " unaligned, " +
                       MeanText(MeanOverPairs(report, &PairResult::aligned)) +
                       " aligned" + DominantMechanism(report));
}

}  // namespace alignbench
