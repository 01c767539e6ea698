#include "bench/gbench_runner.h"

#include <benchmark/benchmark.h>

#include "bench/reporter.h"

namespace alignbench {
namespace {

// Google Benchmark's State as the session's loop. No user counters: Google
// Benchmark 1.7.1 prints the coefficient of variation of an all-zero counter
// as a bare `nan`, which is not JSON; device counters live in our section.
class StateLoop final : public TimedLoop {
 public:
  explicit StateLoop(benchmark::State& state) : state_(state) {}
  bool Next() override { return state_.KeepRunning(); }
  void Record(double seconds) override { state_.SetIterationTime(seconds); }
  void Fail(const std::string& why) override {
    state_.SkipWithError(why.c_str());
  }

 private:
  benchmark::State& state_;
};

}  // namespace

Status InitializeBenchmark(const std::string& argv0,
                           const std::vector<std::string>& benchmark_flags) {
  // Google Benchmark keeps a pointer to argv[0] (Context::executable_name) for
  // the rest of the process, so the strings must outlive this call.
  static std::vector<std::string> args;
  args = {argv0};
  args.insert(args.end(), benchmark_flags.begin(), benchmark_flags.end());
  // Last, so that neither a flag nor a BENCHMARK_* variable can reorder or
  // drop runs: the schedule is alignbench's.
  args.push_back("--benchmark_enable_random_interleaving=false");
  args.push_back("--benchmark_filter=.");
  args.push_back("--benchmark_repetitions=1");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "Google Benchmark refused '" + std::string(argv[1]) +
                          "' (unknown flag or bad value)");
  }
  return Ok{};
}

GoogleBenchmarkRunner::~GoogleBenchmarkRunner() { benchmark::Shutdown(); }

nlohmann::json GoogleBenchmarkRunner::RunStage(
    const std::vector<RunSlot>& slots, const MeasureFn& measure) {
  for (std::size_t i = 0; i < slots.size(); ++i) {
    benchmark::RegisterBenchmark(slots[i].name.c_str(),
                                 [&measure, i](benchmark::State& state) {
                                   StateLoop loop(state);
                                   measure(i, loop);
                                 })
        ->Iterations(static_cast<benchmark::IterationCount>(slots[i].writes))
        ->Repetitions(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  nlohmann::json document = reporter.Document();
  // Debian's libbenchmark is a debug build (context.library_build_type in
  // the result file says so). It only registers and reports here; every
  // write+sync is timed by alignbench, so it is no warning of the run's.
  if (!document.is_object()) unparsable_ = true;
  return document;
}

std::vector<std::string> GoogleBenchmarkRunner::Warnings() const {
  std::vector<std::string> warnings;
  if (unparsable_) {
    warnings.push_back(
        "Google Benchmark's JSON could not be parsed; the result file carries "
        "only the alignbench section");
  }
  return warnings;
}

}  // namespace alignbench
