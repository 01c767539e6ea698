#include "lib/render/text_detailed.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "lib/render/report_parts.h"
#include "lib/render/tail_rows.h"

namespace alignbench {
namespace {

// What a row's size is: K for KiB, B for bytes, or a replay's recorded
// bytes per commit; and what one timed operation is.
std::string SizeWords(const ReportView& v) {
  if (v.replay) {
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
std::string Footer(const ReportView& v) {
  std::string text =
      SizeWords(v) +
      "means %gain = (unaligned / aligned - 1) * 100 from them, Derby's "
      "formula.\n%gain: the typical gain of a block of two runs back to back, "
      "the centre of\nits 95% interval. Positive means aligning helps.\n";
  if (v.reference) return text;
  text += v.log_footer;
  std::string statistics =
      "95% interval: " + v.interval_of +
      "; p comes from the same test, so p < 0.05 exactly when the interval "
      "excludes 0. A verdict needs " +
      std::to_string(v.min_runs_for_verdict) + " runs of each variant";
  const std::uint64_t runs = v.runs_per_variant;
  if (runs < v.min_runs_for_verdict) {
    statistics += "; with " + std::to_string(runs) +
                  (runs == 1 ? " run there is no interval either"
                             : " runs every pair is undecided");
  }
  return text + Wrapped(statistics + ".") +
         "\nr/w/fl: device reads, writes and flushes per " +
         std::string(v.replay ? "commit" : "write") +
         ", from "
         "/sys/block/*/stat.\n" +
         (v.has_background
              ? Wrapped(
                    "idle: the same counters over the idle windows before "
                    "the pair's rounds, scaled to the time of one write: the "
                    "disk's own traffic, which r and w count too" +
                    std::string(v.has_cpu_share
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

// Flushes per write in 4 columns: tenths, or hundredths below 1 where tenths
// would round a group's shared flush away (one per 4 commits is 0.25, not 0.2).
// Below 0.005 even hundredths read 0: one digit and its power of ten (one
// flush per 1024 commits is 1e-3), so that a flush never prints as none.
// Kernels before 5.5 do not count flushes: n/a rather than 0.
std::string FlushCell(std::optional<double> flushes) {
  if (!flushes) return " n/a";
  const double f = *flushes;
  if (f > 0 && f < 0.005) {
    int exponent = static_cast<int>(std::floor(std::log10(f)));
    long digit = std::lround(f / std::pow(10.0, exponent));
    if (digit == 10) {  // 9.6e-4 rounds to 1e-3
      digit = 1;
      ++exponent;
    }
    // A billion synced writes is the most a plan makes (Validate).
    return exponent < -9
               ? "  >0"
               : std::to_string(digit) + "e" + std::to_string(exponent);
  }
  const bool tenths = f >= 1 || std::fabs(f * 10 - std::round(f * 10)) < 0.05;
  return Printf(tenths ? "%4.1f" : "%4.2f", f);
}

std::string DeviceCell(const std::optional<DevicePerOp>& d) {
  if (!d) return "n/a";
  char text[96];
  std::snprintf(text, sizeof text, "%4.1f r %6.1f KiB  %4.1f w %6.1f KiB  ",
                d->reads, d->kib_read, d->writes, d->kib_written);
  return std::string(text) + FlushCell(d->flushes) + " fl";
}

// What the idle windows before the pair's rounds showed over the same time,
// where they were sampled, and how busy others kept the CPUs in them.
std::string BackgroundCell(const RowView& row, const SideView& v) {
  if (!v.background) return "";
  char text[96];
  std::snprintf(text, sizeof text, "   idle: %4.1f r %4.1f w %6.1f KiB",
                v.background->reads, v.background->writes,
                v.background->kib_written);
  std::string cell = text;
  if (row.others_cpu_share) {
    std::snprintf(text, sizeof text, " %3.0f %% cpu",
                  100 * *row.others_cpu_share);
    cell += text;
  }
  return cell;
}

// A group's rows of times and gains, under their heading.
void GainRows(std::ostream& out, const ReportView& v, const GroupView& g) {
  out << Pad("size", 6) << " | " << Pad(v.unaligned, 10) << " | "
      << Pad(v.aligned, 10) << " | " << Pad("means %gain", 11) << " | "
      << Pad("%gain", 8) << " | " << Pad("95% interval", 16) << " | "
      << Pad("p", 8) << " | verdict\n";
  for (const RowView& row : g.rows) {
    out << Pad(row.size, 6) << " | " << Pad(row.unaligned_ms, 10) << " | "
        << Pad(row.aligned_ms, 10) << " | " << Pad(row.means_gain, 11) << " | "
        << Pad(row.gain, 8) << " | " << Pad(row.interval, 16) << " | "
        << Pad(row.p, 8) << " | " << row.verdict << "\n";
  }
}

// A group's device I/O per write, two lines a pair; where no device takes
// the writes, one line says so instead of a column of n/a.
void DeviceRows(std::ostream& out, const ReportView& v, const GroupView& g) {
  const char* per = v.replay ? "per commit" : "per write";
  if (v.no_device) {
    out << "device I/O " << per << ": " << *v.no_device << "\n";
    return;
  }
  for (const RowView& row : g.rows) {
    if (&row == &g.rows.front()) {
      out << "device I/O " << per << " (device-wide counters):\n";
    }
    out << Pad(row.size, 6) << "  " << PadRight(v.unaligned)
        << DeviceCell(row.unaligned.device)
        << BackgroundCell(row, row.unaligned) << row.unaligned.commit << "\n"
        << Pad("", 6) << "  " << PadRight(v.aligned)
        << DeviceCell(row.aligned.device) << BackgroundCell(row, row.aligned)
        << row.aligned.commit << "\n";
  }
}

// One side's requests told apart, a line a part, then the time the device
// held its own (the file's and the filesystem's) beside its write+sync.
void SideRequests(std::ostream& out, const std::string& size,
                  const std::string& heading, const SideView& side) {
  const DeviceRequests& r = *side.requests;
  const std::string indent = Pad("", 6) + "  " + PadRight("");
  out << Pad(size, 6) << "  " << PadRight(heading) << PadEnd("file", 11)
      << DeviceCell(r.file) << "\n"
      << indent << PadEnd("filesystem", 11) << DeviceCell(r.filesystem) << "\n"
      << indent << PadEnd("others", 11) << DeviceCell(r.others) << "\n"
      << indent << "the device held its requests "
      << Printf("%.3f ms", r.device_ns * 1e-6) << " of its "
      << Printf("%.3f ms", side.total_ns.mean * 1e-6) << " write+sync"
      << "\n";
}

// Where the device I/O came from, and where the requests were told apart,
// each side's parts (the file's, the filesystem's journal and metadata, the
// others').
void RequestRows(std::ostream& out, const ReportView& v, const GroupView& g) {
  if (v.device_source) out << "device I/O from: " << *v.device_source << "\n";
  bool heading = false;
  for (const RowView& row : g.rows) {
    if (!row.unaligned.requests || !row.aligned.requests) continue;
    if (!heading) {
      out << "device requests " << (v.replay ? "per commit" : "per write")
          << ", told apart by where they land:\n";
      heading = true;
    }
    SideRequests(out, row.size, v.unaligned, row.unaligned);
    SideRequests(out, "", v.aligned, row.aligned);
  }
}

// Why a group's figures are as they are: means that point elsewhere, the
// why-lines, runs far off the others.
void ExplainRows(std::ostream& out, const GroupView& g) {
  if (!g.means_apart.empty()) out << "where the means point elsewhere:\n";
  for (const auto& [size, note] : g.means_apart) {
    out << Pad(size, 6) << "  " << note << "\n";
  }
  out << "why:\n";
  for (const std::string& sentence : g.why.common) {
    out << Pad("all", 6) << "  " << sentence << "\n";
  }
  for (const auto& [size, text] : g.why.per_size) {
    out << Pad(size, 6) << "  " << text << "\n";
  }
  if (!g.far_runs.empty()) out << "runs far off the others of their variant:\n";
  for (const auto& [size, note] : g.far_runs) {
    out << Pad(size, 6) << "  " << note << "\n";
  }
}

}  // namespace

void RenderDetailed(std::ostream& out, const ReportView& v) {
  out << v.title << "\n";
  if (v.source) out << "source: " << *v.source << "\n";
  out << v.settings << "\n";
  for (const GroupView& g : v.groups) {
    out << "\n[" << g.label << "]\n";
    GainRows(out, v, g);
    DeviceRows(out, v, g);
    RequestRows(out, v, g);
    RenderTailRows(out, g);
    ExplainRows(out, g);
  }
  if (!v.notes.empty()) out << "\n";
  for (const auto& [label, text] : v.notes)
    out << label << ": " << text << "\n";
  out << "\n" << Footer(v);
}

}  // namespace alignbench
