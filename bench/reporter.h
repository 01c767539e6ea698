// The display reporter handed to Google Benchmark: it keeps Google Benchmark's
// own JSON (context and benchmarks) in memory for our result file and prints
// nothing. alignbench prints its own table and progress.
#pragma once

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace alignbench {

class CollectingReporter final : public benchmark::BenchmarkReporter {
 public:
  CollectingReporter();

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Google Benchmark's document; a discarded value if it was not valid JSON.
  nlohmann::json Document() const;

 private:
  benchmark::JSONReporter json_;
  std::ostringstream json_text_;
};

}  // namespace alignbench
