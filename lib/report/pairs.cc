#include "lib/report/pairs.h"

#include "lib/report/explain.h"

namespace alignbench {
namespace {

std::vector<double> Flatten(const std::vector<std::vector<double>>& reps) {
  std::vector<double> all;
  for (const auto& rep : reps) all.insert(all.end(), rep.begin(), rep.end());
  return all;
}

// Summaries of one variant. Consumes the runs' per-write times as it goes:
// a run of a million writes must not be held in four copies at once.
VariantResult Collect(const PairSpec& spec, Variant variant,
                      std::vector<CollectedRun>& all_runs) {
  VariantResult result;
  std::vector<RunRecord*> runs;
  for (CollectedRun& run : all_runs) {
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
    runs.push_back(&run.record);
  }
  DeviceCounters device;
  ProcessIo process;
  bool have_device = true, have_process = true;
  std::size_t ops = 0;
  for (const RunRecord* record : runs) {
    ops += record->Writes();
    result.staged = result.staged || record->staged;
    if (record->resident_pages_after_drop) {
      result.resident_pages_after_drop =
          std::max(result.resident_pages_after_drop.value_or(0),
                   *record->resident_pages_after_drop);
    }
    have_device = have_device && record->device.has_value();
    have_process = have_process && record->process.has_value();
    if (record->device) {
      device.reads += record->device->reads;
      device.read_sectors += record->device->read_sectors;
      device.writes += record->device->writes;
      device.write_sectors += record->device->write_sectors;
      device.flushes += record->device->flushes;
    }
    if (record->process) {
      process.read_bytes += record->process->read_bytes;
      process.write_bytes += record->process->write_bytes;
    }
  }
  result.repetitions = runs.size();
  if (runs.empty() || ops == 0) return result;

  // One quantity at a time, each vector moved into Summarize and freed.
  auto summarize = [&runs, ops](std::vector<float> RunRecord::*field) {
    std::vector<double> values;
    values.reserve(ops);
    for (const RunRecord* record : runs) {
      const std::vector<float>& times = record->*field;
      values.insert(values.end(), times.begin(), times.end());
    }
    return Summarize(std::move(values));
  };
  result.write_ns = summarize(&RunRecord::write_ns);
  result.sync_ns = summarize(&RunRecord::sync_ns);
  for (RunRecord* record : runs) {
    std::vector<double>& rep = result.samples.emplace_back();
    rep.reserve(record->Writes());
    for (std::size_t k = 0; k < record->Writes(); ++k) {
      rep.push_back(double(record->write_ns[k]) + double(record->sync_ns[k]));
    }
    record->write_ns = {};  // this run's times now live in `samples` only
    record->sync_ns = {};
  }
  result.total_ns = Summarize(Flatten(result.samples));
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
                                   std::vector<CollectedRun> runs,
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
