#include "lib/pairs/pairs.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "lib/base/text.h"
#include "lib/config/size.h"
#include "lib/pairs/explain.h"
#include "lib/stats/sequential.h"

namespace alignbench {
namespace {

// Device counters divided by n. /sys/block/*/stat counts sectors of 512
// bytes whatever the device's sector size.
DevicePerOp PerOp(const DeviceCounters& total, double n) {
  DevicePerOp per{static_cast<double>(total.reads) / n,
                  static_cast<double>(total.read_sectors) / 2 / n,
                  static_cast<double>(total.writes) / n,
                  static_cast<double>(total.write_sectors) / 2 / n,
                  std::nullopt};
  if (total.flushes) per.flushes = static_cast<double>(*total.flushes) / n;
  return per;
}

// The variant's I/O per timed write: the runs' counters summed and divided by
// their writes. Device counters, flushes and process I/O are each absent as
// soon as one run could not count them. Also the staged flag and the worst
// cold-cache drop.
void SumCounters(const std::vector<const CollectedRun*>& runs,
                 VariantResult& result) {
  DeviceCounters device;
  std::uint64_t flushes = 0;
  ProcessIo process;
  bool have_device = true, have_process = true, have_flushes = true;
  std::size_t ops = 0;
  for (const CollectedRun* run : runs) {
    const RunRecord& record = run->record;
    ops += record.Writes();
    result.staged = result.staged || record.staged;
    if (record.resident_pages_after_drop) {
      result.resident_pages_after_drop =
          std::max(result.resident_pages_after_drop.value_or(0),
                   *record.resident_pages_after_drop);
    }
    have_device = have_device && record.device.has_value();
    have_process = have_process && record.process.has_value();
    if (record.device) {
      device.reads += record.device->reads;
      device.read_sectors += record.device->read_sectors;
      device.writes += record.device->writes;
      device.write_sectors += record.device->write_sectors;
      have_flushes = have_flushes && record.device->flushes.has_value();
      flushes += record.device->flushes.value_or(0);
    }
    if (record.process) {
      process.read_bytes += record.process->read_bytes;
      process.write_bytes += record.process->write_bytes;
    }
  }
  if (ops == 0) return;
  const double n = static_cast<double>(ops);
  if (have_flushes) device.flushes = flushes;
  if (have_device) result.device = PerOp(device, n);
  if (have_process) {
    result.process = ProcessPerOp{static_cast<double>(process.read_bytes) / n,
                                  static_cast<double>(process.write_bytes) / n};
  }
}

// The runs' requests told apart, per timed write; absent unless every run
// has them.
void SumRequests(const std::vector<const CollectedRun*>& runs,
                 VariantResult& result) {
  RequestAccount sum;
  std::size_t ops = 0;
  for (DeviceCounters* c : {&sum.file, &sum.filesystem, &sum.others}) {
    c->flushes = 0;
  }
  for (const CollectedRun* run : runs) {
    const std::optional<RequestAccount>& r = run->record.requests;
    if (!r) return;
    ops += run->record.Writes();
    sum.file += r->file;
    sum.filesystem += r->filesystem;
    sum.others += r->others;
    sum.device_ns += r->device_ns;
  }
  if (ops == 0) return;
  const double n = static_cast<double>(ops);
  result.device_requests = DeviceRequests{
      PerOp(sum.file, n), PerOp(sum.filesystem, n), PerOp(sum.others, n),
      static_cast<double>(sum.device_ns) / n};
}

// Where the variant's files landed: the mean extents and extent-tree blocks
// of its runs, where every run could say.
void AveragePlacement(const std::vector<const CollectedRun*>& runs,
                      VariantResult& result) {
  double extents = 0, tree_blocks = 0;
  for (const CollectedRun* run : runs) {
    const std::optional<FilePlacement>& p = run->record.placement;
    if (!p) return;
    extents += static_cast<double>(p->extents);
    tree_blocks += static_cast<double>(p->tree_blocks);
  }
  if (runs.empty()) return;
  const double n = static_cast<double>(runs.size());
  result.placement = MeanPlacement{extents / n, tree_blocks / n};
}

}  // namespace

VariantResult Collect(const PairSpec& spec, Variant variant,
                      const std::vector<CollectedRun>& all_runs) {
  VariantResult result;
  std::vector<const CollectedRun*> runs;
  for (const CollectedRun& run : all_runs) {
    if (run.variant != variant || !SameSpec(run.pair, spec)) continue;
    const RunRecord& record = run.record;
    if (record.error && !result.error) {
      result.error = record.error->Message();
      result.error_errno = record.error->errno_value;
    }
    if (record.error) {  // a failed run is never part of a summary
      ++result.failed_repetitions;
      continue;
    }
    runs.push_back(&run);
  }
  result.repetitions = runs.size();
  SumCounters(runs, result);
  SumRequests(runs, result);
  AveragePlacement(runs, result);
  // Each run is a point of the statistics: its exact mean, its median from
  // its histogram; the variant's summaries come from the merged histograms.
  for (const CollectedRun* run : runs) {
    const RunRecord& record = run->record;
    if (record.Writes() == 0) continue;  // no time to speak of
    result.runs.push_back({run->order, run->block, run->start_s, run->wall_s,
                           record.total_ns.Mean(),
                           record.total_ns.Percentile(0.5), std::nullopt});
    if (record.Writes() >= kTailMinWrites) {
      result.runs.back().p99_ns = record.total_ns.Percentile(0.99);
    }
    result.histograms.total_ns.Merge(record.total_ns);
    result.histograms.write_ns.Merge(record.write_ns);
    result.histograms.sync_ns.Merge(record.sync_ns);
  }
  if (result.runs.empty()) return result;
  result.total_ns = result.histograms.total_ns.ToSummary();
  result.write_ns = result.histograms.write_ns.ToSummary();
  result.sync_ns = result.histograms.sync_ns.ToSummary();
  return result;
}

namespace {

std::vector<double> RunMeans(const VariantResult& v) {
  std::vector<double> means;
  for (const RunPoint& run : v.runs) means.push_back(run.mean_ns);
  return means;
}

}  // namespace

// The median of a run's writes is what a burst of other I/O during part of
// the run moves least (docs/methodology.md: how the verdict was chosen).
std::vector<double> BlockLogRatios(const VariantResult& u,
                                   const VariantResult& a) {
  std::vector<double> ratios;
  for (const RunPoint& ru : u.runs) {
    for (const RunPoint& ra : a.runs) {
      if (ru.block == ra.block) {
        ratios.push_back(std::log(ru.p50_ns) - std::log(ra.p50_ns));
      }
    }
  }
  return ratios;
}

Inference TailInference(const VariantResult& u, const VariantResult& a) {
  std::vector<double> ratios;
  std::size_t without = 0;
  for (const RunPoint& ru : u.runs) {
    for (const RunPoint& ra : a.runs) {
      if (ru.block != ra.block) continue;
      if (!ru.p99_ns || !ra.p99_ns) {
        ++without;
        continue;
      }
      ratios.push_back(std::log(*ru.p99_ns) - std::log(*ra.p99_ns));
    }
  }
  if (without > 0) {
    const std::uint64_t runs = u.repetitions + a.repetitions;
    const double writes =
        runs > 0 ? static_cast<double>(u.total_ns.count + a.total_ns.count) /
                       static_cast<double>(runs)
                 : 0;
    Inference none;
    none.why_not =
        writes < kTailMinWrites
            ? "a run's p99 needs " + std::to_string(kTailMinWrites) +
                  " writes or more (below, it is the run's slowest write); "
                  "these runs had " +
                  Printf("%.0f", writes)
            : "the runs' p99 were not recorded (a result from before the "
              "tail had a gain)";
    return none;
  }
  return SignedRankTest(ratios);
}

namespace {

Inference Infer(TestMethod method, const VariantResult& u,
                const VariantResult& a) {
  switch (method) {
    case TestMethod::kSignedRankLogMedian:
      return SignedRankTest(BlockLogRatios(u, a));
    case TestMethod::kPairedLogMedian:
      return PairedLogTest(BlockLogRatios(u, a));
    case TestMethod::kWelchLogMean:
    case TestMethod::kDeltaRatio:  // only read from old files, never redone
      return WelchLogTest(RunMeans(u), RunMeans(a));
  }
  return WelchLogTest(RunMeans(u), RunMeans(a));
}

// The statistic that does not make the verdict, for comparison: the Welch t
// on run means, the first candidate (docs/methodology.md).
constexpr TestMethod kCrossCheckMethod = TestMethod::kWelchLogMean;

std::vector<double> RunMedians(const VariantResult& v) {
  std::vector<double> medians;
  for (const RunPoint& run : v.runs) medians.push_back(run.p50_ns);
  return medians;
}

// The blocks of the runs of `v` that are far off the others.
void AddFarBlocks(const VariantResult& v, std::vector<std::size_t>& blocks) {
  for (std::size_t i : FarRuns(RunMedians(v)))
    blocks.push_back(v.runs[i].block);
}

// The pair as it would be without `blocks`.
Verdict VerdictWithout(const PairResult& pair,
                       const std::vector<std::size_t>& blocks) {
  VariantResult u = pair.unaligned, a = pair.aligned;
  for (VariantResult* v : {&u, &a}) {
    std::vector<RunPoint> kept;
    for (const RunPoint& run : v->runs) {
      if (std::find(blocks.begin(), blocks.end(), run.block) == blocks.end()) {
        kept.push_back(run);
      }
    }
    v->runs = kept;
  }
  return Decide(Infer(kVerdictMethod, u, a), u.runs.size(), a.runs.size());
}

// The side a verdict takes, firm or leaning: +1 aligned, -1 unaligned, 0
// none.
int Side(Verdict v) {
  if (!Directional(v)) return 0;
  return TowardsAligned(v) ? 1 : -1;
}

// "run 14, aligned: median 4.90 ms per write, 10.2x its variant's typical
// run; without its block the verdict would be no significant difference: was
// the disk or the machine busy?", the run numbered in the order measured (of
// all directories, when several were measured). Said only where it matters:
// where the far runs' blocks move the verdict to another side. Firm against
// leaning is no such move: 7 blocks are never firm, so leaving any block of
// an 8-block pair out would turn every firm verdict into a leaning one. A note
// on every pair with a slow run (most pairs, on a shared disk) would teach
// readers to skip notes. Without them a pair of few blocks can fall below the
// runs a verdict needs: "undecided" then says how many blocks are left, not
// what the far runs did (at 6 blocks, the first round, it is so for every
// pair with a far run: 40 of 45 notes on 400 quiet A/A pairs said that).
void NoteFarRuns(PairResult& pair) {
  std::vector<std::size_t> blocks;
  AddFarBlocks(pair.unaligned, blocks);
  AddFarBlocks(pair.aligned, blocks);
  if (blocks.empty() || !pair.verdict) return;
  const Verdict without = VerdictWithout(pair, blocks);
  if (Side(without) == Side(*pair.verdict) || without == Verdict::kUndecided) {
    return;
  }
  for (const auto& [v, variant] : {std::pair{&pair.unaligned, "unaligned"},
                                   std::pair{&pair.aligned, "aligned"}}) {
    const std::vector<double> medians = RunMedians(*v);
    std::vector<double> sorted = medians;
    std::sort(sorted.begin(), sorted.end());
    const double typical = Percentile(sorted, 0.5);
    for (std::size_t i : FarRuns(medians)) {
      const double times = medians[i] / typical;
      pair.run_notes.push_back(
          "run " + std::to_string(v->runs[i].order) + ", " + variant +
          ": median " + Printf("%.3g", medians[i] / 1e6) + " ms per write, " +
          (times >= 1 ? Printf("%.1fx", times) : Printf("1/%.1f", 1 / times)) +
          " its variant's typical run; without the " +
          std::to_string(blocks.size()) +
          " block(s) of such runs the verdict would be " +
          std::string(NameOf(kVerdicts, without)) +
          (times >= 1 ? ": was the disk or the machine busy?"
                      : ": was the disk idle then?"));
    }
  }
}

}  // namespace

double MeasuredSeconds(const PairResult& pair) {
  double seconds = 0;
  for (const VariantResult* v : {&pair.unaligned, &pair.aligned}) {
    for (const RunPoint& run : v->runs) seconds += run.wall_s;
  }
  return seconds;
}

std::uint64_t BlocksNeeded(const PairResult& pair, double precision_points) {
  if (!pair.rounds) return 0;
  const PairRounds& r = *pair.rounds;
  if (!pair.inference.test) return r.blocks_needed;
  return std::max(r.blocks_needed,
                  ProjectBlocksNeeded(
                      r.blocks, pair.inference.test->interval_pct.HalfWidth(),
                      precision_points));
}

std::string ReachedPoints(double half_width) {
  // The tolerance keeps a 2.4 stored as 2.4000000000000004 at 2.4.
  return Printf("%.1f", std::ceil(10 * half_width - 1e-9) / 10);
}

std::string PrecisionWarning(const PairResult& pair, double precision_points) {
  if (!pair.rounds || pair.rounds->state == PairState::kPrecisionReached ||
      pair.rounds->state == PairState::kNotMeasurable) {
    return "";
  }
  const PairRounds& r = *pair.rounds;
  // The precision the table shows is the printed interval's half-width; the
  // stand-in the rounds stopped on can be far narrower when a few far blocks
  // widen the interval but not the stand-in, so it is said only without an
  // interval.
  std::string reached = "unknown";
  const std::uint64_t needed = BlocksNeeded(pair, precision_points);
  if (pair.inference.test) {
    const double half_width = pair.inference.test->interval_pct.HalfWidth();
    // Within the precision after all (the stand-in asked for more blocks than
    // the interval needed): what was asked is known.
    if (half_width <= precision_points) return "";
    reached = "+-" + ReachedPoints(half_width);
  } else if (r.stand_in_points) {
    reached = "+-" + ReachedPoints(*r.stand_in_points);
  }
  return FormatSize(pair.spec.size) + " [" + AxesLabel(pair.spec) +
         "]: precision " + reached + " points after " +
         std::to_string(r.blocks) + " blocks, not the +-" +
         Printf("%g", precision_points) + " asked (" +
         std::string(NameOf(kPairStates, r.state)) + "); about " +
         std::to_string(needed) +
         " blocks would reach it: rerun with a larger --budget or on a quieter "
         "disk";
}

namespace {

// "6" or "6-8": the range of a few whole numbers.
std::string RangeText(std::uint64_t low, std::uint64_t high) {
  return low == high ? std::to_string(low)
                     : std::to_string(low) + "-" + std::to_string(high);
}

}  // namespace

std::string PrecisionWarnings(const std::vector<PairResult>& pairs,
                              double precision_points) {
  std::vector<std::pair<std::string, std::string>> short_of;  // axes, sizes
  double reached_low = INFINITY, reached_high = 0;
  std::uint64_t blocks_low = UINT64_MAX, blocks_high = 0;
  std::uint64_t needed_low = UINT64_MAX, needed_high = 0;
  for (const PairResult& pair : pairs) {
    if (PrecisionWarning(pair, precision_points).empty()) continue;
    const std::string axes = AxesLabel(pair.spec);
    if (short_of.empty() || short_of.back().first != axes) {
      short_of.emplace_back(axes, "");
    }
    std::string& sizes = short_of.back().second;
    sizes += (sizes.empty() ? "" : ", ") + FormatSize(pair.spec.size);
    if (pair.inference.test) {
      const double half = pair.inference.test->interval_pct.HalfWidth();
      reached_low = std::min(reached_low, half);
      reached_high = std::max(reached_high, half);
    }
    blocks_low = std::min(blocks_low, pair.rounds->blocks);
    blocks_high = std::max(blocks_high, pair.rounds->blocks);
    const std::uint64_t needed = BlocksNeeded(pair, precision_points);
    needed_low = std::min(needed_low, needed);
    needed_high = std::max(needed_high, needed);
  }
  if (short_of.empty()) return "";
  std::string where;
  for (const auto& [axes, sizes] : short_of) {
    where += (where.empty() ? "" : "; ") + sizes +
             (short_of.size() > 1 ? " [" + axes + "]" : "");
  }
  const std::string reached =
      reached_high > 0
          ? "reached +-" + ReachedPoints(reached_low) +
                (ReachedPoints(reached_low) == ReachedPoints(reached_high)
                     ? ""
                     : " to +-" + ReachedPoints(reached_high)) +
                " "
          : "";
  return "precision short of the +-" + Printf("%g", precision_points) +
         " asked at " + where + " (" + reached + "after " +
         RangeText(blocks_low, blocks_high) + " blocks; about " +
         RangeText(needed_low, needed_high) +
         " would reach it): rerun with a larger --budget or on a quieter disk";
}

std::optional<std::string> LevelShift(const std::vector<PairResult>& pairs) {
  std::vector<std::pair<std::size_t, double>> sequence;  // order, log ratio
  for (const PairResult& pair : pairs) {
    for (const VariantResult* v : {&pair.unaligned, &pair.aligned}) {
      if (v->runs.size() < 3) continue;
      std::vector<double> logs;
      for (const RunPoint& run : v->runs) logs.push_back(std::log(run.p50_ns));
      std::vector<double> sorted = logs;
      std::sort(sorted.begin(), sorted.end());
      const double median = Percentile(sorted, 0.5);
      for (std::size_t i = 0; i < logs.size(); ++i) {
        sequence.emplace_back(v->runs[i].order, logs[i] - median);
      }
    }
  }
  if (sequence.size() < 12) return std::nullopt;
  std::sort(sequence.begin(), sequence.end());
  auto median_of = [&sequence](std::size_t from, std::size_t to) {
    std::vector<double> part;
    for (std::size_t i = from; i < to; ++i) part.push_back(sequence[i].second);
    std::sort(part.begin(), part.end());
    return Percentile(part, 0.5);
  };
  const std::size_t n = sequence.size();
  double widest = 0;
  std::size_t at = 0;
  for (std::size_t k = n / 4; k <= n - n / 4; ++k) {
    const double step = median_of(k, n) - median_of(0, k);
    if (std::fabs(step) > std::fabs(widest)) widest = step, at = k;
  }
  if (std::fabs(widest) < std::log(2.0)) return std::nullopt;
  return "the disk changed speed during the measurement: from run " +
         std::to_string(sequence[at].first) + " on, runs took " +
         Printf("%.1fx", std::exp(std::fabs(widest))) + " " +
         (widest > 0 ? "longer" : "less") +
         " than before (medians, each against its own pair and variant). "
         "Blocks keep each comparison fair; were other programs using it?";
}

DevicePerOp BackgroundPerWrite(const IdleSample& idle, double seconds) {
  return PerOp(idle.delta, idle.seconds / seconds);
}

std::vector<PairResult> BuildPairs(const std::vector<PairSpec>& plan,
                                   std::vector<CollectedRun> runs,
                                   const std::optional<IdleSample>& idle) {
  return BuildPairs(plan, std::move(runs),
                    std::vector<std::optional<IdleSample>>(plan.size(), idle));
}

std::vector<PairResult> BuildPairs(
    const std::vector<PairSpec>& plan, std::vector<CollectedRun> runs,
    const std::vector<std::optional<IdleSample>>& idles) {
  std::vector<PairResult> pairs;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PairSpec& spec = plan[i];
    const std::optional<IdleSample>& idle =
        i < idles.size() ? idles[i] : std::nullopt;
    PairResult pair;
    pair.spec = spec;
    pair.unaligned = Collect(spec, Variant::kUnaligned, runs);
    pair.aligned = Collect(spec, Variant::kAligned, runs);
    for (VariantResult* v : {&pair.unaligned, &pair.aligned}) {
      if (idle && idle->seconds > 0 && v->device && v->repetitions > 0) {
        v->background = BackgroundPerWrite(*idle, v->total_ns.mean * 1e-9);
      }
    }
    if (idle && idle->cpu && idle->cpu->all > 0) {
      pair.others_cpu_share = static_cast<double>(idle->cpu->busy) /
                              static_cast<double>(idle->cpu->all);
    }
    if (pair.unaligned.repetitions > 0 && pair.aligned.repetitions > 0) {
      pair.means_gain_pct =
          GainPct(pair.unaligned.total_ns.mean, pair.aligned.total_ns.mean);
      pair.medians_gain_pct =
          GainPct(pair.unaligned.total_ns.p50, pair.aligned.total_ns.p50);
      pair.inference = Infer(kVerdictMethod, pair.unaligned, pair.aligned);
      pair.cross_check = Infer(kCrossCheckMethod, pair.unaligned, pair.aligned);
      pair.verdict = Decide(pair.inference, pair.unaligned.repetitions,
                            pair.aligned.repetitions);
      pair.tail = TailInference(pair.unaligned, pair.aligned);
      pair.tail_verdict = Decide(pair.tail, pair.unaligned.repetitions,
                                 pair.aligned.repetitions);
      NoteFarRuns(pair);
    }
    pair.explanation = Explain(pair, spec.shift);
    pair.mechanisms = MechanismsOf(pair);
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

}  // namespace alignbench
