#include "lib/pairs/pair_result.h"

#include <algorithm>
#include <cerrno>

#include "lib/base/text.h"

namespace alignbench {

bool SameSpec(const PairSpec& a, const PairSpec& b) {
  return KeyOf(a) == KeyOf(b);
}

std::string AxesLabel(const PairSpec& spec, std::string_view separator) {
  const std::string sep(separator);
  return std::string(NameOf(kSyncMethods, spec.sync)) + sep +
         std::string(NameOf(kIoModes, spec.io)) + sep +
         std::string(NameOf(kLayouts, spec.layout)) + sep +
         std::string(NameOf(kCacheStates, spec.cache));
}

bool RefusedDirectWrite(IoMode io, int errno_value) {
  return io == IoMode::kDirect && errno_value == EINVAL;
}

std::string VerdictText(const PairResult& p, std::uint64_t min_runs) {
  if (!p.verdict) {
    if (p.Measured()) return "no verdict (means only)";
    const VariantResult& missing =
        p.unaligned.repetitions == 0 ? p.unaligned : p.aligned;
    return RefusedDirectWrite(p.spec.io, missing.error_errno)
               ? "not measurable"
               : "stopped by an error";
  }
  if (*p.verdict != Verdict::kUndecided) {
    return std::string(NameOf(kVerdicts, *p.verdict));
  }
  const std::size_t runs =
      std::min(p.unaligned.repetitions, p.aligned.repetitions);
  if (runs < min_runs) {
    return "undecided: " + std::to_string(runs) +
           (runs == 1 ? " run" : " runs");
  }
  return "undecided: no interval";
}

std::string LeaningNote(const PairResult& pair) {
  const GainTest& test = *pair.inference.test;
  const std::string blocks =
      std::to_string(test.units) + (test.units == 1 ? " block" : " blocks");
  return "The time difference is significant at 5 % but not at 1 % (p = " +
         Printf("%.2g", test.p_value) + " from " + blocks +
         "): a rerun may not repeat it" +
         (test.units < kMinBlocksForFirmVerdict
              ? std::string(" (fewer than ") +
                    std::to_string(kMinBlocksForFirmVerdict) +
                    " blocks never reach 1 %)."
              : ".");
}

}  // namespace alignbench
