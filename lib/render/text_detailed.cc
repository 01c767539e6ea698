#include "lib/render/text_detailed.h"

#include <cstdio>

#include "lib/render/log_columns.h"
#include "lib/render/report_parts.h"
#include "lib/render/tail_rows.h"
#include "lib/render/why_lines.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

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

// What a row's size is: K for KiB, B for bytes, or a replay's recorded
// bytes per commit; and what one timed operation is.
std::string SizeWords(const Report& r) {
  if (r.settings.replay) {
    return "size: bytes per recorded commit (B); unaligned and aligned: mean "
           "milliseconds per\ncommit (one clock span over its writes and its "
           "sync);\n";
  }
  return "size: K for KiB, B for bytes; unaligned and aligned: mean "
         "milliseconds per\nwrite+sync (one clock span over pwrite and its "
         "sync), as Derby printed them;\n";
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
  return text + Wrapped(statistics + ".") +
         "\nr/w/fl: device reads, writes and flushes per " +
         std::string(r.settings.replay ? "commit" : "write") +
         ", from "
         "/sys/block/*/stat.\n" +
         (HasBackground(r)
              ? Wrapped(
                    "idle: the same counters over the idle windows before "
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

// A group's rows of times and gains, under their heading.
void GainRows(std::ostream& out, const Report& r, std::size_t from,
              std::size_t to) {
  out << Pad("size", 6) << " | " << Pad(Heading(r, Variant::kUnaligned), 10)
      << " | " << Pad(Heading(r, Variant::kAligned), 10) << " | "
      << Pad("means %gain", 11) << " | " << Pad("%gain", 8) << " | "
      << Pad("95% interval", 16) << " | " << Pad("p", 8) << " | verdict\n";
  for (std::size_t i = from; i < to; ++i) {
    const PairResult& p = r.pairs[i];
    out << Pad(SizeText(p.spec.size), 6) << " | "
        << Pad(MeanMsCell(p.unaligned), 10) << " | "
        << Pad(MeanMsCell(p.aligned), 10) << " | " << Pad(MeansGainCell(p), 11)
        << " | " << Pad(TypicalGainCell(p), 8) << " | "
        << Pad(IntervalText(p), 16) << " | " << Pad(PValueCell(p), 8) << " | "
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
    out << Pad(SizeText(p.spec.size), 6) << "  " << PadRight(first)
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
      out << Pad(SizeText(r.pairs[i].spec.size), 6) << "  "
          << EscapeControl(note) << "\n";
    }
  }
}

}  // namespace

void RenderDetailed(std::ostream& out, const Report& r) {
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

}  // namespace alignbench
