#include "lib/render/comparison.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "lib/config/options.h"
#include "lib/pairs/percentiles.h"
#include "lib/render/conditions.h"
#include "lib/render/report_parts.h"
#include "lib/result/env_fields.h"

namespace alignbench {
namespace {

// The gain with its interval, so that it never sits outside it.
std::string GainCell(const PairResult& p) {
  if (!p.means_gain_pct) return "n/a";
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

// A setting as compare shows it: sizes with their unit ("512B,4K"), where
// ShowOption prints a byte count bare ("512"), which beside "4K" reads as a
// count of something else.
std::string FactText(const Option& option, const Settings& settings) {
  std::vector<std::uint64_t> sizes;
  if (const auto* bytes = std::get_if<field::Bytes>(&option.field)) {
    sizes = {settings.*bytes->member};
  } else if (const auto* list = std::get_if<field::SizeList>(&option.field)) {
    sizes = settings.*list->member;
  } else {
    return ShowOption(option, settings);
  }
  std::string text;
  for (std::uint64_t size : sizes) {
    text += (text.empty() ? "" : ",") + (size == 0 ? "0B" : SizeText(size));
  }
  return text;
}

std::string GainVerdict(const PairResult& base, const PairResult& next) {
  switch (ChangeOfGain(base, next)) {
    case GainChange::kNotComparable:
      return "not comparable";
    case GainChange::kNoInterval:
      return "no interval: cannot tell";
    case GainChange::kUnchanged:
      return "unchanged (intervals overlap)";
    case GainChange::kApartFewBlocks:
      return "apart, but from " +
             std::to_string(std::min(base.inference.test->units,
                                     next.inference.test->units)) +
             " blocks: a rerun may not repeat it";
    case GainChange::kGrew:
      return "gain grew";
    case GainChange::kShrank:
      return "gain shrank";
  }
  return "not comparable";
}

// NEW's pairs by the key compare matches them on. Indexed by spec: matching
// each base pair by a scan of NEW was quadratic (30 s for two files of 60,000
// pairs). The last of equal specs wins, as the scan's did.
std::map<PairKey, const PairResult*> PairsByKey(const Report& next) {
  std::map<PairKey, const PairResult*> by_spec;
  for (const PairResult& candidate : next.pairs)
    by_spec[MatchKeyOf(next, candidate.spec)] = &candidate;
  return by_spec;
}

// One line per pair of BASE that NEW has too: its most moved percentile.
void RenderPercentileMoves(std::ostream& out, const Report& base,
                           const Report& next) {
  // Indexed by spec, as compare's table: the last of equal specs wins.
  std::map<PairKey, const PairResult*> by_spec;
  for (const PairResult& n : next.pairs) by_spec[MatchKeyOf(next, n.spec)] = &n;
  std::string lines;
  for (const PairResult& b : base.pairs) {
    const auto found = by_spec.find(MatchKeyOf(base, b.spec));
    if (found == by_spec.end()) continue;
    if (auto moved = MostMovedPercentile(b, *found->second)) {
      lines += Pad(SizeText(b.spec.size), 6) + "  " + AxesLabel(b.spec) + ": " +
               *moved + "\n";
    }
  }
  if (lines.empty()) return;
  out << "\npercentile of write+sync that moved most, base to new:\n" << lines;
}

}  // namespace

namespace {

// The one rule of ChangeOfGain, for either gain: the typical one or the
// tail's.
GainChange ChangeOf(const PairResult& base, const PairResult& next,
                    Inference PairResult::*gain) {
  if (!base.Measured() || !next.Measured()) return GainChange::kNotComparable;
  const std::optional<GainTest>& bt = (base.*gain).test;
  const std::optional<GainTest>& nt = (next.*gain).test;
  if (!bt || !nt) return GainChange::kNoInterval;
  const Interval& b = bt->interval_pct;
  const Interval& n = nt->interval_pct;
  if (b.low <= n.high && n.low <= b.high) return GainChange::kUnchanged;
  // Disjoint 95 % intervals of equal width are a difference at about 0.6 %,
  // as firm as a verdict; but an interval from fewer blocks than a firm
  // verdict needs is the range of a few blocks, which a rerun redraws.
  const std::size_t blocks = std::min(bt->units, nt->units);
  if (blocks < kMinBlocksForFirmVerdict) return GainChange::kApartFewBlocks;
  return b.high < n.low ? GainChange::kGrew : GainChange::kShrank;
}

}  // namespace

GainChange ChangeOfGain(const PairResult& base, const PairResult& next) {
  return ChangeOf(base, next, &PairResult::inference);
}

std::vector<Regression> Regressions(const Report& base, const Report& next,
                                    double limit_pct) {
  const std::map<PairKey, const PairResult*> by_spec = PairsByKey(next);
  std::vector<Regression> slower;
  for (const PairResult& b : base.pairs) {
    const auto found = by_spec.find(MatchKeyOf(base, b.spec));
    if (found == by_spec.end()) continue;
    const PairResult& n = *found->second;
    for (const auto& [gain, which] :
         {std::pair{&PairResult::inference, "typical gain"},
          std::pair{&PairResult::tail, "p99 gain"}}) {
      if (ChangeOf(b, n, gain) != GainChange::kGrew) continue;
      // A firm change has a test on both sides.
      const double from = (b.*gain).test->estimate_pct;
      const double to = (n.*gain).test->estimate_pct;
      const double ratio_pct = ((1 + to / 100) / (1 + from / 100) - 1) * 100;
      if (!(ratio_pct > limit_pct)) continue;
      slower.push_back({SizeText(b.spec.size) + " " + GroupLabel(base, b.spec),
                        which, from, to, ratio_pct});
    }
  }
  return slower;
}

std::string RegressionText(const Regression& r) {
  return r.pair + ": " + r.which + " " + Printf("%+.1f", r.base_gain_pct) +
         "% -> " + Printf("%+.1f", r.next_gain_pct) + "%, " +
         Printf("%.1f", r.slower_pct) + "% slower";
}

std::vector<Fact> ComparedFacts(const Report& r) {
  std::vector<Fact> facts;
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo || !option.compared) continue;
    facts.push_back({std::string(option.name), FactText(option, r.settings)});
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

std::string AgreementWithPost(const Report& post, const Report& run) {
  const std::map<PairKey, const PairResult*> by_spec = PairsByKey(run);
  std::size_t compared = 0, inside = 0, opposite = 0, wide = 0;
  for (const PairResult& p : post.pairs) {
    const auto found = by_spec.find(MatchKeyOf(post, p.spec));
    if (found == by_spec.end() || !p.ShownGainPct()) continue;
    const PairResult& r = *found->second;
    if (!r.inference.test) continue;
    ++compared;
    const double gain = *p.ShownGainPct();
    const Interval& i = r.inference.test->interval_pct;
    if (gain >= i.low && gain <= i.high) ++inside;
    if (i.HalfWidth() > run.settings.precision_points) ++wide;
    if (r.verdict && Firm(*r.verdict) && gain != 0 &&
        TowardsAligned(*r.verdict) != (gain > 0)) {
      ++opposite;
    }
  }
  if (compared == 0) {
    return "no size of the post has a pair with an interval in the run: "
           "they cannot be set beside each other";
  }
  const std::string of = " of " + std::to_string(compared) + " sizes";
  // Inside intervals wider than the run asked for says little: too wide to
  // tell where most are.
  const char* words = opposite > 0 ? "disagrees with"
                      : 2 * wide > compared
                          ? "is too imprecise to tell whether it agrees with"
                      : 2 * inside >= compared ? "agrees with"
                      : inside > 0             ? "partly agrees with"
                                               : "does not reproduce";
  return std::string("the run ") + words + " the post: its gain lies inside " +
         "the run's 95% interval at " + std::to_string(inside) + of +
         ", and the run's firm verdict is on the other side of 0 at " +
         std::to_string(opposite) + "; the run's interval is wider than ±" +
         Printf("%g", run.settings.precision_points) + " at " +
         std::to_string(wide) +
         " (the post measured one run per size and has no interval)";
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
  out << kConditionsHeading << "\n"
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
  const std::map<PairKey, const PairResult*> by_spec = PairsByKey(next);
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
  if (base.reference.has_value() != next.reference.has_value()) {
    out << "\n"
        << Wrapped(base.reference ? AgreementWithPost(base, next)
                                  : AgreementWithPost(next, base),
                   80, "  ")
        << "\n";
  }
  RenderPercentileMoves(out, base, next);
  out << "\nsize: K for KiB, B for bytes; %gain: the typical gain of a block "
         "of two runs back "
         "to back, the centre of its 95% interval (Derby's (unaligned/aligned "
         "- 1)*100 of means where there is no interval); mean and p99 "
         "columns: change from base to new.\n";
}

}  // namespace alignbench
