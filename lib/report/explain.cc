#include "lib/report/explain.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "lib/report/pairs.h"

namespace alignbench {
namespace {

std::string Fixed(double value, int digits = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

bool Near(double a, double b) {
  return std::fabs(a - b) <= 0.15 * std::max(1.0, std::max(a, b));
}

// The idle window's traffic is a large part of what was counted: half or more,
// and at least a request every four writes.
bool Dominates(double idle, double counted) {
  return idle >= 0.25 && idle >= 0.5 * counted;
}

// The counters are device-wide. Where the idle window before measuring shows
// that much of what they counted was the disk's own traffic, they cannot be
// read as the writes' I/O: that is said instead of an explanation.
std::optional<std::string> BusyDisk(const VariantResult& v, const char* name) {
  if (!v.background || !v.device) return std::nullopt;
  const DevicePerOp& idle = *v.background;
  const DevicePerOp& counted = *v.device;
  if (!Dominates(idle.writes, counted.writes) &&
      !Dominates(idle.reads, counted.reads)) {
    return std::nullopt;
  }
  return std::string(
             "the disk was busy without alignbench: over the time of "
             "one ") +
         name + " write the idle window before measuring counted " +
         Fixed(idle.writes) + " device writes and " + Fixed(idle.reads) +
         " reads, against " + Fixed(counted.writes) + " and " +
         Fixed(counted.reads) +
         " per write while measuring: the device counters cannot say what "
         "the writes themselves cost.";
}

// The closing sentence when there is no verdict or no difference.
std::string VerdictNote(const PairResult& pair, bool significant) {
  if (pair.verdict == Verdict::kUndecided) {
    return "No verdict (" + VerdictText(pair) + "): a verdict needs " +
           std::to_string(kMinRunsForVerdict) +
           " runs of each variant, so that run-to-run variation is known.";
  }
  return significant ? "" : "No significant time difference.";
}

}  // namespace

std::string Explain(const PairResult& pair, std::uint64_t shift) {
  const VariantResult& u = pair.unaligned;
  const VariantResult& a = pair.aligned;
  if (!pair.Measured()) {
    // The variant without a single finished run; the other may have failed
    // runs too, but it has a time.
    const bool shifted_missing = u.repetitions == 0;
    const VariantResult& missing = shifted_missing ? u : a;
    const char* what = RefusedDirectWrite(pair.spec.io, missing.error_errno)
                           ? " writes are not measurable here: "
                           : " writes were stopped by an error: ";
    return std::string(shifted_missing ? "shifted" : "aligned") + what +
           missing.error.value_or("no run completed");
  }
  std::string text;
  auto add = [&text](const std::string& sentence) {
    if (sentence.empty()) return;
    if (!text.empty()) text += " ";
    text += sentence;
  };
  // --cache cold is checked with mincore(2); say so when the drop did not take.
  const std::uint64_t resident =
      std::max(u.resident_pages_after_drop.value_or(0),
               a.resident_pages_after_drop.value_or(0));
  if (resident > 0) {
    add("the cache was not fully cold: " + std::to_string(resident) +
        " page(s) of the file stayed cached after POSIX_FADV_DONTNEED.");
  }
  if (u.staged) {
    add("shifted direct writes were staged: whole aligned blocks built in "
        "memory, the partly filled first block kept from the write before, "
        "as a database's log buffer does.");
  }
  if (!u.device || !a.device) {
    add("no device counters here (no block device under the directory): the "
        "gain cannot be "
        "explained from device I/O.");
    return text;
  }
  const DevicePerOp& du = *u.device;
  const DevicePerOp& da = *a.device;
  const bool significant =
      pair.verdict && (*pair.verdict == Verdict::kAlignedFaster ||
                       *pair.verdict == Verdict::kShiftedFaster);
  std::optional<std::string> busy = BusyDisk(u, "shifted");
  if (!busy) busy = BusyDisk(a, "aligned");
  if (busy) {
    add(*busy);
    add(VerdictNote(pair, significant));
    return text;
  }
  bool explained = false;
  if (du.reads - da.reads >= 0.5 && da.reads <= 0.25) {
    add("shifted: +" + Fixed(du.reads - da.reads) + " device reads (" +
        Fixed(du.kib_read - da.kib_read) +
        " KiB) per write: the partly overwritten block was read first "
        "(read-modify-write" +
        std::string(u.staged ? "" : ", the page cache's read-on-write") + ").");
    explained = true;
  }
  if (du.kib_written - da.kib_written >= 0.5) {
    add("shifted: +" + Fixed(du.kib_written - da.kib_written) +
        " KiB written per write: a " + std::to_string(shift) +
        "-byte shift spreads each write over one more block.");
    explained = true;
  }
  if (du.writes >= 2.5 && da.writes >= 2.5 && Near(du.writes, da.writes)) {
    add("both: about " + Fixed((du.writes + da.writes) / 2) +
        " device writes per operation (metadata commits: journal, growing file "
        "size)" +
        std::string(
            significant
                ? "."
                : ", which dominate; alignment is not what costs here."));
    explained = true;
  }
  if (!explained && significant) {
    add("the device counters are alike for both variants (" + Fixed(du.writes) +
        " vs " + Fixed(da.writes) + " writes, " + Fixed(du.reads) + " vs " +
        Fixed(da.reads) +
        " reads per operation): they cannot explain this difference.");
  } else if (!explained) {
    add("both variants did the same device I/O (" + Fixed(da.writes) +
        " writes, " + Fixed(da.kib_written) + " KiB per operation).");
  }
  add(VerdictNote(pair, significant));
  return text;
}

}  // namespace alignbench
