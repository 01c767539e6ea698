#include "lib/report/explain.h"

#include <cmath>
#include <cstdio>

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
    add("shifted direct writes were staged: each read its partial head and "
        "tail blocks and "
        "wrote whole aligned blocks, as a database does.");
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
  if (pair.verdict == Verdict::kUndecided) {
    add("No verdict (" + VerdictText(pair) + "): a verdict needs " +
        std::to_string(kMinRunsForVerdict) +
        " runs of each variant, so that run-to-run variation is known.");
  } else if (!significant) {
    add("No significant time difference.");
  }
  return text;
}

}  // namespace alignbench
