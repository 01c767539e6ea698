#include "lib/render/comparison.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "lib/config/options.h"
#include "lib/render/conditions.h"
#include "lib/render/report_parts.h"
#include "lib/render/tail_rows.h"
#include "lib/render/writers.h"
#include "lib/result/env_fields.h"

namespace alignbench {
namespace {

// The gain with its interval, so that it never sits outside it.
std::string GainCell(const PairResult& p) {
  if (!p.gain_pct) return "n/a";
  std::string cell = GainOrMeansCell(p);
  if (p.inference.test) {
    const Interval& i = p.inference.test->interval_pct;
    cell += " [" + Printf("%+.1f", i.low) + "," + Printf("%+.1f", i.high) + "]";
  }
  return cell;
}

std::string Change(const VariantResult& base, const VariantResult& next,
                   double Summary::*f) {
  if (base.repetitions == 0 || next.repetitions == 0) return "n/a";
  const double change = (next.total_ns.*f / base.total_ns.*f - 1) * 100;
  // A reference table has no p99: unknown, not a number.
  return std::isfinite(change) ? Printf("%+.1f%%", change) : "n/a";
}

std::string GainVerdict(const PairResult& base, const PairResult& next) {
  if (!base.gain_pct || !next.gain_pct) return "not comparable";
  if (!base.inference.test || !next.inference.test) {
    return "no interval: cannot tell";
  }
  const Interval& b = base.inference.test->interval_pct;
  const Interval& n = next.inference.test->interval_pct;
  if (b.low <= n.high && n.low <= b.high) {
    return "unchanged (intervals overlap)";
  }
  // Disjoint 95 % intervals of equal width are a difference at about 0.6 %,
  // as firm as a verdict; but an interval from fewer blocks than a firm
  // verdict needs is the range of a few blocks, which a rerun redraws.
  const std::size_t blocks =
      std::min(base.inference.test->units, next.inference.test->units);
  if (blocks < kMinBlocksForFirmVerdict) {
    return "apart, but from " + std::to_string(blocks) +
           " blocks: a rerun may not repeat it";
  }
  return b.high < n.low ? "gain grew" : "gain shrank";
}

}  // namespace

std::vector<Fact> ComparedFacts(const Report& r) {
  std::vector<Fact> facts;
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo || !option.compared) continue;
    facts.push_back({std::string(option.name), ShowOption(option, r.settings)});
  }
  for (const EnvField& field : EnvFields()) {
    if (field.compared == Compared::kNo) continue;
    facts.push_back({field.name, FieldText(field.get(r.target))});
  }
  return facts;
}

std::vector<std::string> DifferingFields(const Report& a, const Report& b) {
  const std::vector<Fact> x = ComparedFacts(a);
  const std::vector<Fact> y = ComparedFacts(b);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].text != y[i].text) {
      out.push_back(x[i].name + ": " + x[i].text + " -> " + y[i].text);
    }
  }
  return out;
}

void RenderComparison(std::ostream& out, const Report& base,
                      const Report& next) {
  out << "base: " << TitleLine(base) << "\nnew:  " << TitleLine(next) << "\n";
  const std::vector<std::string> differing = DifferingFields(base, next);
  if (!differing.empty()) {
    out << "warning: the two results differ in " << differing.size()
        << " setting(s) or environment field(s):\n";
    for (const std::string& d : differing) {
      out << "  " << EscapeControl(d) << "\n";
    }
  }
  // What others did beside each run: times from a busy disk or busy CPUs are
  // not the disk's alone, whatever the settings say.
  out << "run conditions (the idle windows before the rounds):\n"
      << "  base: " << ConditionsText(base) << "\n"
      << "  new:  " << ConditionsText(next) << "\n";
  if (BusyConditions(base) != BusyConditions(next)) {
    out << "warning: only the " << (BusyConditions(base) ? "base" : "new")
        << " run was measured beside others' traffic: its times include "
           "it\n";
  }
  out << "\n"
      << Pad("size", 6) << " | " << Pad("base %gain [95%]", 22) << " | "
      << Pad("new %gain [95%]", 22) << " | " << Pad("unaligned mean", 14)
      << " | " << Pad("aligned mean", 12) << " | " << Pad("unaligned p99", 13)
      << " | " << Pad("aligned p99", 11) << " | gain\n";
  // Indexed by spec: matching each base pair by a scan of NEW was quadratic
  // (30 s for two files of 60,000 pairs). The last of equal specs wins, as
  // the scan's did.
  std::map<PairKey, const PairResult*> by_spec;
  for (const PairResult& candidate : next.pairs)
    by_spec[MatchKeyOf(next, candidate.spec)] = &candidate;
  std::size_t matched = 0;
  for (const PairResult& b : base.pairs) {
    const auto found = by_spec.find(MatchKeyOf(base, b.spec));
    if (found == by_spec.end()) continue;
    const PairResult* n = found->second;
    ++matched;
    out << Pad(SizeText(b.spec.size), 6) << " | " << Pad(GainCell(b), 22)
        << " | " << Pad(GainCell(*n), 22) << " | "
        << Pad(Change(b.unaligned, n->unaligned, &Summary::mean), 14) << " | "
        << Pad(Change(b.aligned, n->aligned, &Summary::mean), 12) << " | "
        << Pad(Change(b.unaligned, n->unaligned, &Summary::p99), 13) << " | "
        << Pad(Change(b.aligned, n->aligned, &Summary::p99), 11) << " | "
        << GainVerdict(b, *n) << "\n";
  }
  if (matched == 0) {
    out << "no pair of BASE matches a pair of NEW (size, sync, io, layout and "
           "cache must agree)\n";
  }
  RenderPercentileMoves(out, base, next);
  out << "\nsize: K for KiB, B for bytes; %gain: the typical gain of a block "
         "of two runs back "
         "to back, the centre of its 95% interval (Derby's (unaligned/aligned "
         "- 1)*100 of means where there is no interval); mean and p99 "
         "columns: change from base to new.\n";
}

}  // namespace alignbench
