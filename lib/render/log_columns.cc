#include "lib/render/log_columns.h"

#include "lib/base/text.h"

namespace alignbench {

std::string Heading(const Report& r, Variant variant) {
  const bool first = variant == Variant::kUnaligned;
  if (!r.log_words) return first ? "unaligned" : "aligned";
  return first ? r.log_words->unaligned_label : r.log_words->aligned_label;
}

std::string CommitCell(const VariantResult& v) {
  if (!v.per_commit) return "";
  return "  asked " + Fixed(v.per_commit->asked, 0) + " B, wrote " +
         Fixed(v.per_commit->written, 0) + " B";
}

std::string RulesText(const Report& r) {
  // A replay aligned commit by commit, or in whole blocks, moves nothing by
  // the shift.
  if (r.settings.replay && r.settings.replay->rule != ReplayRule::kShift) {
    return "recorded commits";
  }
  if (!r.log_words) {
    const std::vector<std::uint64_t>& shifts = r.settings.shifts;
    std::string text = shifts.size() == 1 ? "shift " : "shifts ";
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      text += (i == 0 ? "" : ", ") + std::to_string(shifts[i]);
    }
    return text + " B";
  }
  return r.log_words->rules;
}

std::string VerdictWords(const Report& r, const PairResult& pair) {
  return VerdictText(pair, r.statistics.min_runs_for_verdict);
}

std::string LabelledVerdict(const Report& r, const PairResult& pair) {
  if (!r.log_words || !pair.verdict) return VerdictWords(r, pair);
  if (!Directional(*pair.verdict)) return VerdictWords(r, pair);
  const std::string side =
      Heading(r, TowardsAligned(*pair.verdict) ? Variant::kAligned
                                               : Variant::kUnaligned);
  return Firm(*pair.verdict) ? side + " faster" : "leans " + side;
}

std::string LogFooter(const Report& r) {
  if (!r.log_words) return "";
  return "log-append workload, one write + sync per commit; the variants "
         "differ in " +
         r.log_words->contrast + ": " + r.log_words->contrast_meaning +
         ".\nasked: bytes the application appended per commit; wrote: bytes "
         "the log writer wrote for them.\n";
}

}  // namespace alignbench
