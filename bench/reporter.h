// The display reporter handed to Google Benchmark: it keeps Google Benchmark's
// own JSON (context and benchmarks) in memory for our result file, and shows
// progress (run, elapsed, ETA) on stderr. alignbench prints its own table.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <sstream>

namespace alignbench {

// Progress over every round of a run; lines go to stderr only when enabled.
struct Progress {
  using Clock = std::chrono::steady_clock;
  bool enabled = false;
  bool terminal = false;    // overwrite one line instead of printing many
  std::size_t planned = 0;  // runs planned so far (grows with --budget rounds)
  std::size_t done = 0;
  Clock::time_point start = Clock::now();

  double ElapsedSeconds() const {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
};

class CollectingReporter final : public benchmark::BenchmarkReporter {
 public:
  explicit CollectingReporter(Progress& progress);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Google Benchmark's document; a discarded value if it was not valid JSON.
  nlohmann::json Document() const;

 private:
  benchmark::JSONReporter json_;
  std::ostringstream json_text_;
  Progress& progress_;
};

}  // namespace alignbench
