// The session's runner in the binary: Google Benchmark. alignbench draws the
// order of the runs; each run is registered as its own benchmark instance in
// that order, with Iterations(writes), Repetitions(1), UseManualTime and
// SetIterationTime per write+sync, so every run is reported as soon as it
// finishes. A display reporter keeps Google Benchmark's own JSON (context +
// benchmarks) for the result file. Nothing here times a write.
#pragma once

#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/session/runner.h"

namespace alignbench {

// Hands the --benchmark_* flags to Google Benchmark, with the order, filter
// and repetitions alignbench owns fixed after them (Google Benchmark also
// reads BENCHMARK_* environment variables). A flag it refuses is a usage
// error. Call once, before measuring.
Status InitializeBenchmark(const std::string& argv0,
                           const std::vector<std::string>& benchmark_flags);

class GoogleBenchmarkRunner final : public Runner {
 public:
  GoogleBenchmarkRunner() = default;
  GoogleBenchmarkRunner(const GoogleBenchmarkRunner&) = delete;
  GoogleBenchmarkRunner& operator=(const GoogleBenchmarkRunner&) = delete;
  ~GoogleBenchmarkRunner() override;

  nlohmann::json RunStage(const std::vector<RunSlot>& slots,
                          const MeasureFn& measure) override;
  std::vector<std::string> Warnings() const override;

 private:
  // Seen in any stage's document
  bool unparsable_ = false;
};

}  // namespace alignbench
