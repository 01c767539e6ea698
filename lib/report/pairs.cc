#include "lib/report/pairs.h"

#include "lib/report/explain.h"

namespace alignbench {
namespace {

VariantResult Collect(const PairSpec& spec, Variant variant,
                      const std::vector<CollectedRun>& runs) {
  VariantResult result;
  std::vector<double> total, write, sync;
  DeviceCounters device;
  ProcessIo process;
  bool have_device = true, have_process = true;
  std::uint64_t ops = 0;
  for (const CollectedRun& run : runs) {
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
    ++result.repetitions;
    std::vector<double>& rep = result.samples.emplace_back();
    for (const OpTimes& op : record.ops) {
      rep.push_back(static_cast<double>(op.total_ns));
      total.push_back(static_cast<double>(op.total_ns));
      write.push_back(static_cast<double>(op.write_ns));
      sync.push_back(static_cast<double>(op.sync_ns));
    }
    ops += record.ops.size();
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
      device.flushes += record.device->flushes;
    }
    if (record.process) {
      process.read_bytes += record.process->read_bytes;
      process.write_bytes += record.process->write_bytes;
    }
  }
  if (result.repetitions == 0 || ops == 0) {
    result.samples.clear();
    return result;
  }
  result.total_ns = Summarize(std::move(total));
  result.write_ns = Summarize(std::move(write));
  result.sync_ns = Summarize(std::move(sync));
  const double n = static_cast<double>(ops);
  if (have_device) {
    // /sys/block/*/stat counts sectors of 512 bytes whatever the device's
    // sector size.
    result.device =
        DevicePerOp{static_cast<double>(device.reads) / n,
                    static_cast<double>(device.read_sectors) / 2 / n,
                    static_cast<double>(device.writes) / n,
                    static_cast<double>(device.write_sectors) / 2 / n,
                    static_cast<double>(device.flushes) / n};
  }
  if (have_process) {
    result.process = ProcessPerOp{static_cast<double>(process.read_bytes) / n,
                                  static_cast<double>(process.write_bytes) / n};
  }
  return result;
}

std::vector<double> Flatten(const std::vector<std::vector<double>>& reps) {
  std::vector<double> all;
  for (const auto& rep : reps) all.insert(all.end(), rep.begin(), rep.end());
  return all;
}

// The units the interval is computed over: one mean per repetition, or every
// write when a variant ran only once (then run-to-run drift is unknown, and
// Decide gives no verdict).
std::vector<double> UnitMeans(const std::vector<std::vector<double>>& reps) {
  if (reps.size() == 1) return reps.front();
  std::vector<double> means;
  for (const auto& rep : reps) means.push_back(Mean(rep));
  return means;
}

}  // namespace

bool SameSpec(const PairSpec& a, const PairSpec& b) {
  return a.size == b.size && a.sync == b.sync && a.io == b.io &&
         a.layout == b.layout && a.cache == b.cache;
}

std::string AxesLabel(const PairSpec& spec) {
  return std::string(NameOf(kSyncMethods, spec.sync)) + " " +
         std::string(NameOf(kIoModes, spec.io)) + " " +
         std::string(NameOf(kLayouts, spec.layout)) + " " +
         std::string(NameOf(kCacheStates, spec.cache));
}

std::vector<PairResult> BuildPairs(const std::vector<PairSpec>& plan,
                                   const std::vector<CollectedRun>& runs,
                                   std::uint64_t shift) {
  std::vector<PairResult> pairs;
  for (const PairSpec& spec : plan) {
    PairResult pair;
    pair.spec = spec;
    pair.unaligned = Collect(spec, Variant::kShifted, runs);
    pair.aligned = Collect(spec, Variant::kAligned, runs);
    if (pair.unaligned.repetitions > 0 && pair.aligned.repetitions > 0) {
      pair.gain_pct =
          GainPct(pair.unaligned.total_ns.mean, pair.aligned.total_ns.mean);
      pair.median_gain_pct =
          GainPct(pair.unaligned.total_ns.p50, pair.aligned.total_ns.p50);
      pair.gain_interval = GainInterval(UnitMeans(pair.unaligned.samples),
                                        UnitMeans(pair.aligned.samples));
      pair.p_value = MannWhitneyP(Flatten(pair.unaligned.samples),
                                  Flatten(pair.aligned.samples));
      pair.verdict = Decide(
          *pair.p_value, *pair.gain_interval,
          std::min(pair.unaligned.repetitions, pair.aligned.repetitions));
    }
    pair.explanation = Explain(pair, shift);
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

}  // namespace alignbench
