#include "lib/render/answer.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "lib/base/text.h"
#include "lib/config/size.h"
#include "lib/pairs/pairs.h"
#include "lib/render/cells.h"
#include "lib/render/conditions.h"
#include "lib/render/findings.h"
#include "lib/render/log_columns.h"
#include "lib/stats/sequential.h"

namespace alignbench {
namespace {

std::string BusyDisk(double writes_per_second, const char* measured) {
  return "the disk was busy (" + Printf("%.0f", writes_per_second) +
         " writes/s from others while " + measured + " measured)";
}

std::string BusyCpus(double share, const char* measured) {
  return "the CPUs were busy (others used " + Printf("%.0f", 100 * share) +
         " % of their time while " + measured + " measured)";
}

// The --budget at which a rerun's rounds would bring every pair to the
// precision, as this run projects it: the seconds it measured, plus each
// pair's blocks still needed (at most the blocks a pair may have) at its own
// seconds per block, rounded up to 10 s. Every pair, not only the unanswered
// ones: the rounds also spend on a pair already decided whose interval is
// wider than asked. Unknown without rounds (a fixed design), where nothing
// was projected.
std::optional<double> BudgetForPrecision(const Report& report) {
  double seconds = 0;
  const std::uint64_t cap = SequentialDesign{}.max_blocks_per_pair;
  for (const PairResult& pair : report.pairs) {
    const double measured = MeasuredSeconds(pair);
    seconds += measured;
    if (!pair.rounds) return std::nullopt;
    // A pair that cannot be measured gets no more rounds.
    if (pair.rounds->state == PairState::kNotMeasurable ||
        pair.rounds->blocks == 0) {
      continue;
    }
    const std::uint64_t blocks = pair.rounds->blocks;
    const std::uint64_t needed =
        std::min(cap, BlocksNeeded(pair, report.settings.precision_points));
    if (needed <= blocks) continue;
    seconds += static_cast<double>(needed - blocks) * measured /
               static_cast<double>(blocks);
  }
  return 10 * std::ceil(seconds / 10);
}

// The advice for pairs left unanswered: how busy the disk was, where its
// counters were read, and the budget that would answer them. "Quiet by its
// counters" is said where they were read and saw no one busy: the noise was
// the disk's own, which a quieter moment may not cure.
std::string Advice(const Report& report,
                   const std::vector<const PairResult*>& pairs) {
  const std::optional<double> budget = BudgetForPrecision(report);
  const std::string rerun =
      "rerun with " + (budget ? "--budget " + Printf("%.0f", *budget)
                              : std::string("a larger --budget"));
  bool counted = false;
  for (const PairResult* pair : pairs) {
    counted = counted || OthersWritesPerSecond(*pair).has_value();
  }
  const double busiest = BusiestWritesPerSecond(pairs);
  const std::optional<double> cpus = BusiestCpuShare(pairs);
  const bool cpus_busy = cpus && *cpus >= kBusyCpuShare;
  std::vector<std::string> busy;
  if (busiest >= kBusyWritesPerSecond) {
    busy.push_back(BusyDisk(busiest, "they were"));
  }
  if (cpus_busy) busy.push_back(BusyCpus(*cpus, "they were"));
  if (!busy.empty()) {
    return ": " + busy.front() +
           (busy.size() > 1 ? " and " + busy.back() : "") + "; " + rerun +
           (cpus_busy ? " or when nothing else runs" : " or on a quiet disk");
  }
  if (counted) {
    return std::string(": the disk was quiet by its counters") +
           (cpus ? " and the CPUs idle" : "") + ", its own times varied; " +
           rerun;
  }
  return ": " + rerun + " or on a quiet disk";
}

// Who was busy beside the pairs, short: "others wrote 45/s and used 80 % of
// the CPUs", or "" where nobody was.
std::string OthersText(const std::vector<const PairResult*>& pairs) {
  const double busiest = BusiestWritesPerSecond(pairs);
  const std::optional<double> cpus = BusiestCpuShare(pairs);
  std::vector<std::string> busy;
  if (busiest >= kBusyWritesPerSecond) {
    busy.push_back("wrote " + Printf("%.0f", busiest) + "/s");
  }
  if (cpus && *cpus >= kBusyCpuShare) {
    busy.push_back("used " + Printf("%.0f", 100 * *cpus) + " % of the CPUs");
  }
  if (busy.empty()) return "";
  return "others " + busy.front() +
         (busy.size() > 1 ? " and " + busy.back() : "");
}

// Advice's short form, for the compact answer: the budget, and whom to wait
// for where others were busy ("others wrote 45/s: rerun with --budget 3450
// when they are quiet").
std::string ShortAdvice(const Report& report,
                        const std::vector<const PairResult*>& pairs) {
  const std::optional<double> budget = BudgetForPrecision(report);
  const std::string rerun =
      "rerun with " + (budget ? "--budget " + Printf("%.0f", *budget)
                              : std::string("a larger --budget"));
  const std::string others = OthersText(pairs);
  return others.empty() ? rerun
                        : others + ": " + rerun + " when they are quiet";
}

// "aligning helps", or a log case's "padded is faster"; the other way round
// "unaligned is faster".
std::string Direction(const Report& report, bool helps) {
  if (helps && !report.log_words) return "aligning helps";
  return Heading(report, helps ? Variant::kAligned : Variant::kUnaligned) +
         " is faster";
}

// What the run knows to its precision: where aligning helps or hurts and by
// how much, and where the two do not differ. `brief` (the compact answer,
// two lines at most) leaves out the intervals "no difference beyond ±p"
// already implies.
std::vector<std::string> KnownClauses(const Report& report, const Findings& f,
                                      const Naming& naming,
                                      const std::string& p,
                                      bool brief = false) {
  std::vector<std::string> clauses;
  for (const bool helps : {true, false}) {
    const auto& pairs = f.Of(helps ? Finding::kHelps : Finding::kHurts);
    if (pairs.empty()) continue;
    clauses.push_back(Direction(report, helps) + " by " + GainRange(pairs) +
                      " at " + naming.Of(pairs));
  }
  const auto& same = f.Of(Finding::kNoDifference);
  if (!same.empty()) {
    clauses.push_back(
        "no difference beyond ±" + p + " % at " + naming.Of(same) +
        (brief ? "" : " (intervals inside [-" + p + ", +" + p + "])"));
  }
  const auto& narrow = f.Of(Finding::kNarrowButPast);
  if (!narrow.empty()) {
    clauses.push_back(
        "no significant difference at " + naming.Of(narrow) +
        (brief ? " (within " + Hull(narrow) + ": a smaller --precision tells)"
               : ", known to ±" + p + " but not inside ±" + p +
                     " (intervals within " + Hull(narrow) +
                     "; a smaller --precision tells)"));
  }
  return clauses;
}

// "aligning helps at 8K, unaligned is faster at 1K": the pairs by the side
// their verdict takes, each side in `words` (true: the aligned side).
template <typename Words>
std::string BySide(const std::vector<const PairResult*>& pairs,
                   const Naming& naming, Words words) {
  std::string ways;
  for (const bool aligned : {true, false}) {
    std::vector<const PairResult*> these;
    for (const PairResult* pair : pairs) {
      if (TowardsAligned(*pair->verdict) == aligned) these.push_back(pair);
    }
    if (these.empty()) continue;
    ways +=
        (ways.empty() ? "" : ", ") + words(aligned) + " at " + naming.Of(these);
  }
  return ways;
}

// Pairs on one side of 0 at 5 % but not at 1 %: named by the side they lean
// to, never as a gain, since a rerun may not repeat them.
std::string LeaningClause(const Report& report,
                          const std::vector<const PairResult*>& pairs,
                          const Naming& naming) {
  const std::string ways = BySide(pairs, naming, [&report](bool aligned) {
    return Heading(report, aligned ? Variant::kAligned : Variant::kUnaligned);
  });
  return naming.Counted(pairs.size()) + " leaning, not decided (p < " +
         Printf("%g", report.statistics.significance_level) + " but not < " +
         Printf("%g", report.statistics.FirmLevel()) +
         ": a rerun may not repeat it; a smaller --precision measures more "
         "blocks): towards " +
         ways;
}

// What the run knows less well than asked: unanswered pairs, and decided ones
// with their direction but no gain, then one piece of advice for both after
// the last of them; and pairs without a verdict.
std::vector<std::string> ShortClauses(const Report& report, const Findings& f,
                                      const Naming& naming,
                                      const std::string& p) {
  const auto& open = f.Of(Finding::kUnanswered);
  std::vector<const PairResult*> short_all = open;
  short_all.insert(short_all.end(), f.short_of.begin(), f.short_of.end());
  std::vector<std::string> clauses;
  if (!open.empty()) {
    clauses.push_back(naming.Counted(open.size()) +
                      " unanswered (no significant difference, intervals "
                      "wider than ±" +
                      p + ") at " + naming.Of(open) +
                      (f.short_of.empty() ? Advice(report, short_all) : ""));
  }
  if (!f.short_of.empty()) {
    const std::string ways =
        BySide(f.short_of, naming,
               [&report](bool aligned) { return Direction(report, aligned); });
    clauses.push_back(naming.Counted(f.short_of.size()) +
                      " decided but known only to " + Reached(f.short_of) +
                      " (wider than ±" + p + "): " + ways +
                      Advice(report, short_all));
  }
  if (!f.Of(Finding::kLeans).empty()) {
    clauses.push_back(LeaningClause(report, f.Of(Finding::kLeans), naming));
  }
  const auto& unmeasured = f.Of(Finding::kUnmeasured);
  if (!unmeasured.empty()) {
    clauses.push_back(naming.Counted(unmeasured.size()) +
                      " without a verdict at " + naming.Of(unmeasured) +
                      " (too few runs, or not measurable: see the table)");
  }
  return clauses;
}

// Answered on a busy disk or beside busy CPUs: the times include the others'
// traffic or the delays they caused, which a reader comparing them with
// another disk's must know. (Where a pair is short of the precision, the
// advice says it already.)
std::vector<std::string> BusyClauses(const Report& report) {
  std::vector<const PairResult*> all;
  for (const PairResult& pair : report.pairs) all.push_back(&pair);
  std::vector<std::string> clauses;
  const double busiest = BusiestWritesPerSecond(all);
  if (busiest >= kBusyWritesPerSecond) {
    clauses.push_back(BusyDisk(busiest, "it was") +
                      ": the times include their traffic");
  }
  const std::optional<double> cpus = BusiestCpuShare(all);
  if (cpus && *cpus >= kBusyCpuShare) {
    clauses.push_back(BusyCpus(*cpus, "it was") +
                      ": the times include the delays a busy CPU adds");
  }
  return clauses;
}

// Where the filesystem takes atomic writes (statx STATX_WRITE_ATOMIC), what
// alignment decides beyond the time: a write with RWF_ATOMIC must start at an
// offset aligned to its size, so the unaligned variant could never be one.
std::optional<std::string> AtomicClause(const Report& report) {
  const TargetInfo& t = report.target;
  if (report.reference || !t.atomic_write_unit_min ||
      !t.atomic_write_unit_max || *t.atomic_write_unit_max == 0) {
    return std::nullopt;
  }
  return "this filesystem takes atomic writes (RWF_ATOMIC) of " +
         SizeText(*t.atomic_write_unit_min) + " to " +
         SizeText(*t.atomic_write_unit_max) +
         ", each at an offset aligned to its size: the unaligned variant's "
         "writes can never be atomic";
}

// Where the tail's verdict is firm and the typical gain's is not the same:
// the slowest writes (each run's p99) say what the typical write does not,
// as a read-on-write only some writes pay does.
std::optional<std::string> TailClause(const Report& report,
                                      const Naming& naming) {
  std::vector<const PairResult*> helps, hurts;
  for (const PairResult& pair : report.pairs) {
    if (!pair.tail_verdict || !Firm(*pair.tail_verdict) || !pair.tail.test) {
      continue;
    }
    const bool aligned = TowardsAligned(*pair.tail_verdict);
    if (pair.verdict && Firm(*pair.verdict) &&
        TowardsAligned(*pair.verdict) == aligned) {
      continue;
    }
    (aligned ? helps : hurts).push_back(&pair);
  }
  std::string ways;
  for (const bool aligned : {true, false}) {
    const std::vector<const PairResult*>& these = aligned ? helps : hurts;
    if (these.empty()) continue;
    ways += (ways.empty() ? "" : ", ") + Direction(report, aligned) + " by " +
            GainRange(these, &PairResult::tail) + " at " + naming.Of(these);
  }
  if (ways.empty()) return std::nullopt;
  return "the slowest writes (each run's p99) differ from the typical one: " +
         ways + " (--details: the tail's gain)";
}

// The compact answer leads with the pairs decided but known less well than
// asked where nothing is known to the precision.
bool ShortOfLeads(const Report& report, const Findings& f) {
  const std::string p = Printf("%g", report.settings.precision_points);
  return !f.short_of.empty() &&
         KnownClauses(report, f, NamingOf(report), p).empty();
}

// The qualifications of the compact answer, short: what is known less well
// than asked, busy neighbours, where files landed. `names`: 2 names the pairs
// of every clause, 1 only those short of the precision, 0 none.
std::vector<std::string> ShortQualifications(const Report& report,
                                             const Findings& f,
                                             const Naming& naming, int names) {
  const auto named = [&](const std::vector<const PairResult*>& pairs,
                         int level) {
    return names >= level ? " at " + naming.Of(pairs) : std::string();
  };
  const auto short_at = [&](const std::vector<const PairResult*>& pairs) {
    return named(pairs, 1);
  };
  const auto at = [&](const std::vector<const PairResult*>& pairs) {
    return named(pairs, 2);
  };
  std::vector<std::string> clauses;
  const auto& open = f.Of(Finding::kUnanswered);
  if (!open.empty()) {
    clauses.push_back(naming.Counted(open.size()) + " unanswered" +
                      short_at(open));
  }
  // Where nothing else is known, the answer's sentence says these already.
  if (!f.short_of.empty() && !ShortOfLeads(report, f)) {
    clauses.push_back(naming.Counted(f.short_of.size()) +
                      " decided but known only to " + Reached(f.short_of) +
                      short_at(f.short_of));
  }
  if (!open.empty() || !f.short_of.empty()) {
    std::vector<const PairResult*> short_all = open;
    short_all.insert(short_all.end(), f.short_of.begin(), f.short_of.end());
    clauses.push_back(ShortAdvice(report, short_all));
  }
  const auto& leans = f.Of(Finding::kLeans);
  if (!leans.empty()) {
    clauses.push_back(naming.Counted(leans.size()) + " leaning" + at(leans) +
                      " (p < 0.05, not < 0.01: not decided)");
  }
  const auto& unmeasured = f.Of(Finding::kUnmeasured);
  if (!unmeasured.empty()) {
    clauses.push_back(naming.Counted(unmeasured.size()) + " without a verdict" +
                      at(unmeasured));
  }
  if (!f.placed.empty()) {
    clauses.push_back("files landed differently" + at(f.placed) +
                      ": not alignment's doing");
  }
  std::vector<const PairResult*> all;
  for (const PairResult& pair : report.pairs) all.push_back(&pair);
  if (open.empty() && f.short_of.empty() && !OthersText(all).empty()) {
    clauses.push_back(OthersText(all) + ": the times include their traffic");
  }
  if (AtomicClause(report)) {
    clauses.push_back(
        "on this filesystem only aligned writes can be atomic (RWF_ATOMIC)");
  }
  return clauses;
}

}  // namespace

CompactAnswer CompactAnswerOf(const Report& report, std::size_t width) {
  const std::string p = Printf("%g", report.settings.precision_points);
  const Findings f = Classify(report, report.settings.precision_points);
  const Naming naming = NamingOf(report);
  std::vector<std::string> known = KnownClauses(report, f, naming, p, true);
  if (ShortOfLeads(report, f)) {
    known.push_back(
        BySide(f.short_of, naming,
               [&report](bool aligned) { return Direction(report, aligned); }) +
        ", by how much known only to " + Reached(f.short_of) + " %");
  }
  if (auto tail = TailClause(report, naming)) known.push_back(*tail);
  if (known.empty()) known.push_back("nothing is known to ±" + p + " % yet");
  CompactAnswer answer;
  answer.answer = "answer: ";
  for (std::size_t i = 0; i < known.size(); ++i) {
    answer.answer += (i == 0 ? "" : "; ") + known[i];
  }
  answer.answer += ".";
  // The qualifications in two lines at most: with the pairs' names where
  // they fit, else those short of the precision named and the rest counted,
  // else all counted, else as many as fit and a pointer to the rest.
  for (const int names : {2, 1, 0}) {
    const std::vector<std::string> clauses =
        ShortQualifications(report, f, naming, names);
    std::string but;
    bool cut = false;
    for (const std::string& clause : clauses) {
      const std::string longer = (but.empty() ? "but: " : but + "; ") + clause;
      // Room for the pointer a cut adds.
      const std::string lines =
          Wrapped(longer + "; --details says the rest.", width, "  ");
      if (std::count(lines.begin(), lines.end(), '\n') > 1) {
        cut = true;
        break;
      }
      but = longer;
    }
    answer.qualifications = but.empty() ? "" : but + ".";
    if (!cut || names == 0) {
      if (cut) {
        answer.qualifications = but.empty()
                                    ? "but: --details says what is known less "
                                      "well than asked."
                                    : but + "; --details says the rest.";
      }
      break;
    }
  }
  return answer;
}

std::string AnswerLine(const Report& report) {
  const std::string p = Printf("%g", report.settings.precision_points);
  const Findings f = Classify(report, report.settings.precision_points);
  const Naming naming = NamingOf(report);
  std::vector<std::string> clauses = KnownClauses(report, f, naming, p);
  const std::vector<std::string> short_clauses =
      ShortClauses(report, f, naming, p);
  const bool all_answered =
      f.Of(Finding::kUnanswered).empty() && f.short_of.empty();
  clauses.insert(clauses.end(), short_clauses.begin(), short_clauses.end());
  if (!f.placed.empty()) {
    clauses.push_back("at " + naming.Of(f.placed) +
                      " the two variants' files landed differently (see why): "
                      "that difference is where the filesystem put them, not "
                      "alignment, and a rerun may draw it otherwise");
  }
  if (all_answered) {
    const std::vector<std::string> busy = BusyClauses(report);
    clauses.insert(clauses.end(), busy.begin(), busy.end());
  }
  if (auto atomic = AtomicClause(report)) clauses.push_back(*atomic);
  if (auto tail = TailClause(report, naming)) clauses.push_back(*tail);
  std::string line = "answer: ";
  for (std::size_t i = 0; i < clauses.size(); ++i) {
    line += (i == 0 ? "" : "; ") + clauses[i];
  }
  const std::size_t tested =
      report.pairs.size() - f.Of(Finding::kUnmeasured).size();
  // A result written before directions had to hold at a rerun level says
  // what it said then.
  const std::optional<double> firm = report.statistics.rerun_significance_level;
  return line + "; " + naming.Counted(tested) + " tested at " +
         Printf("%g", 100 * report.statistics.significance_level) + " % each" +
         (firm && tested > 0
              ? ", a direction named at " + Printf("%g", 100 * *firm) + " %"
              : std::string()) +
         ".";
}

}  // namespace alignbench
