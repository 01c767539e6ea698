// A small Report with fixed numbers, for golden-output and round-trip tests.
#pragma once

#include <stdexcept>
#include <string>

#include "lib/config/case_file.h"
#include "lib/result/report.h"

namespace alignbench::testing {

inline VariantResult FixedVariant(double mean_ms, double reads,
                                  double kib_written) {
  VariantResult v;
  v.repetitions = 6;
  for (std::size_t i = 0; i < 6; ++i) {
    const double ms = mean_ms * (0.9 + 0.04 * static_cast<double>(i));
    v.runs.push_back({i + 1, i + 1, 0.5 * static_cast<double>(i), 0.25,
                      ms * 1e6, ms * 1e6, std::nullopt});
  }
  v.total_ns = Summarize({mean_ms * 0.9e6, mean_ms * 1e6, mean_ms * 1.1e6});
  v.write_ns = Summarize({1000, 2000, 3000});
  v.sync_ns = Summarize(
      {mean_ms * 0.9e6 - 1000, mean_ms * 1e6 - 2000, mean_ms * 1.1e6 - 3000});
  v.device = DevicePerOp{reads, reads * 4, 1.0, kib_written, 1.0};
  v.process = ProcessPerOp{reads * 4096, 4096};
  return v;
}

inline const PairSpec kFsync4K{4096, SyncMethod::kFsync, IoMode::kBuffered,
                               Layout::kExtend, CacheState::kWarm};

// One block of runs as the harness collects them: a run of each variant of
// kFsync4K, two writes each taking `unaligned_ns` or `aligned_ns` (1 µs of it
// the write), both with `device` as their counters.
inline std::vector<CollectedRun> OneBlock(float unaligned_ns, float aligned_ns,
                                          const DeviceCounters& device) {
  std::vector<CollectedRun> runs;
  for (Variant variant : {Variant::kUnaligned, Variant::kAligned}) {
    CollectedRun run{kFsync4K, variant, {}, runs.size() + 1, 1};
    const float ns = variant == Variant::kUnaligned ? unaligned_ns : aligned_ns;
    run.record.write_ns = HistogramOf({1000, 1000});
    run.record.sync_ns = HistogramOf({ns - 1000, ns - 1000});
    run.record.total_ns = HistogramOf({ns, ns});
    run.record.device = device;
    runs.push_back(std::move(run));
  }
  return runs;
}

inline Report FixedReport() {
  Report r;
  r.tool_version = "0.1.0";
  r.git_revision = "abcdef123456";
  r.command_line = {"alignbench", "--sizes", "64K,4K"};
  r.started_at = "2026-11-29T10:00:00Z";
  r.finished_at = "2026-11-29T10:00:05Z";
  r.settings.dir = "/mnt";
  r.settings.sizes = {65536, 4096};
  r.settings.writes = 3;
  r.settings.repetitions = 6;
  r.settings.seed = 12345;
  r.target.dir = "/mnt";
  r.target.fs_type = "ext4";
  r.target.mount_source = "/dev/loop0";
  DeviceInfo d;
  d.disk = "loop0";
  d.logical_block_bytes = 4096;
  d.physical_block_bytes = 4096;
  d.write_cache = "write back";
  r.target.device = d;
  r.target.host.kernel = "6.1.0";

  PairResult big;
  big.spec = {65536, SyncMethod::kFdatasync, IoMode::kBuffered,
              Layout::kPrewritten, CacheState::kCold};
  big.unaligned = FixedVariant(18.359375, 1.0, 72.0);
  big.aligned = FixedVariant(10.0, 0.0, 64.0);
  big.means_gain_pct = 83.59375;
  big.medians_gain_pct = 83.59375;
  big.inference.test = GainTest{TestMethod::kSignedRankLogMedian,
                                83.25,
                                {70.25, 95.5},
                                0.000123,
                                std::nullopt,
                                6};
  big.cross_check.test =
      GainTest{TestMethod::kWelchLogMean, 83.5, {72.5, 94.25}, 0.0005, 9.5, 6};
  big.verdict = Verdict::kAlignedFaster;
  big.explanation = "unaligned writes each caused 1.0 extra device read(s).";

  PairResult small = big;
  small.spec.size = 4096;
  small.unaligned = FixedVariant(8.8359375, 0.0, 4.0);
  small.aligned = FixedVariant(8.4375, 0.0, 4.0);
  small.means_gain_pct = 4.7222222222222285;
  small.medians_gain_pct = 4.5;
  small.inference.test = GainTest{TestMethod::kSignedRankLogMedian,
                                  4.25,
                                  {-1.5, 9.75},
                                  0.25,
                                  std::nullopt,
                                  6};
  small.cross_check = {std::nullopt, "1 run: an interval needs 2"};
  small.verdict = Verdict::kNoSignificantDifference;
  small.run_notes = {
      "run 5, aligned: 25.3 ms per write, 3.0x the median of its 6 "
      "runs: was the disk or the machine busy?"};
  small.explanation = "both variants did the same device I/O.";
  r.pairs = {big, small};
  r.warnings = {"a warning"};
  RecordForPrinters(r);  // as the session does
  return r;
}

// Settings as a case file's text sets them; throws (failing the test) where
// the text is refused.
inline Settings FromCase(const std::string& text) {
  Settings s;
  const Status applied = ApplyCaseText(text, "t", s);
  if (!applied) throw std::runtime_error(applied.error().Message());
  return s;
}

}  // namespace alignbench::testing
