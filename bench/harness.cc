#include "bench/harness.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <sstream>

#include "lib/config/size.h"
#include "lib/measure/run.h"

namespace alignbench {
namespace {

// Collects what the benchmarks measured; shared by every registered benchmark.
struct Collector {
  const Settings* settings;
  const TargetInfo* target;
  std::vector<CollectedRun> runs;
  std::optional<Error> fatal;
};

// A direct write that the filesystem refuses for its alignment is a row that
// cannot be measured, not a failure of the whole plan.
bool NotMeasurable(const Error& error, const PairSpec& pair) {
  return pair.io == IoMode::kDirect && error.errno_value == EINVAL;
}

void MeasureOne(benchmark::State& state, Collector& c, const PairSpec& pair,
                Variant variant) {
  if (c.fatal) {
    state.SkipWithError("skipped: an earlier run failed");
    return;
  }
  RunSpec spec;
  spec.dir = c.settings->dir;
  spec.pattern = WritePattern{variant, pair.size, c.settings->shift};
  spec.writes = c.settings->writes;
  spec.warmup = c.settings->warmup;
  spec.sync = pair.sync;
  spec.io = pair.io;
  spec.layout = pair.layout;
  spec.cache = pair.cache;
  spec.direct_unaligned = c.settings->direct_unaligned;
  spec.dio_alignment = c.target->DirectAlignment();
  if (c.target->device) spec.device_stat_path = c.target->device->StatPath();

  std::optional<Error> error;
  RunRecord record;
  Result<Run> prepared = Run::Prepare(spec);
  if (!prepared) {
    error = prepared.error();
    record.error = error;
  } else {
    Run& run = prepared.value();
    for (auto _ : state) {
      Result<OpTimes> op = run.Step();
      if (!op) {
        error = op.error();
        break;
      }
      state.SetIterationTime(static_cast<double>(op.value().total_ns) * 1e-9);
    }
    record = run.Finish(error);
  }
  if (error) {
    state.SkipWithError(error->Message().c_str());
    if (!NotMeasurable(*error, pair)) c.fatal = error;
  }
  // No user counters: Google Benchmark 1.7.1 prints the coefficient of
  // variation of an all-zero counter as a bare `nan`, which is not JSON. Device
  // counters live in our section.
  c.runs.push_back({pair, variant, std::move(record)});
}

// Keeps Google Benchmark's JSON in memory and shows progress on a terminal.
class CollectingReporter final : public benchmark::BenchmarkReporter {
 public:
  CollectingReporter() {
    json_.SetOutputStream(&json_text_);
    json_.SetErrorStream(&json_text_);
  }

  bool ReportContext(const Context& context) override {
    return json_.ReportContext(context);
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    json_.ReportRuns(runs);
    if (!::isatty(STDERR_FILENO)) return;
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      const double elapsed =
          std::chrono::duration<double>(Clock::now() - start_).count();
      std::fprintf(stderr, "\r\033[K%s  %s  (%.0f s)",
                   run.benchmark_name().c_str(),
                   run.error_occurred ? "failed" : "done", elapsed);
    }
  }

  void Finalize() override {
    json_.Finalize();
    if (::isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
  }

  nlohmann::json Document() const {
    return nlohmann::json::parse(json_text_.str(), nullptr,
                                 /*allow_exceptions=*/false);
  }

 private:
  using Clock = std::chrono::steady_clock;
  benchmark::JSONReporter json_;
  std::ostringstream json_text_;
  Clock::time_point start_ = Clock::now();
};

std::string BenchmarkName(const PairSpec& pair, Variant variant) {
  return "alignbench/" + FormatSize(pair.size) + "/" +
         std::string(NameOf(kVariants, variant)) + "/" +
         std::string(NameOf(kSyncMethods, pair.sync)) + "/" +
         std::string(NameOf(kIoModes, pair.io)) + "/" +
         std::string(NameOf(kLayouts, pair.layout)) + "/" +
         std::string(NameOf(kCacheStates, pair.cache));
}

}  // namespace

// Checked before anything runs, so that a filter that matches nothing is one
// clear error instead of Google Benchmark's message and an empty result.
Status CheckFilterMatches(const std::vector<PairSpec>& plan) {
  const std::string filter = benchmark::GetBenchmarkFilter();
  if (filter.empty() || filter == "." || filter == "all" || filter[0] == '-') {
    return Ok{};  // everything, or a negative filter that Google Benchmark
                  // applies
  }
  std::regex pattern;
  try {
    pattern = std::regex(filter, std::regex::extended);
  } catch (const std::regex_error&) {
    return PlainError(ErrorKind::kUsage, "option --benchmark_filter",
                      "'" + filter + "' is not a valid regular expression");
  }
  for (const PairSpec& pair : plan) {
    for (Variant variant : {Variant::kShifted, Variant::kAligned}) {
      if (std::regex_search(BenchmarkName(pair, variant), pattern)) return Ok{};
    }
  }
  return PlainError(ErrorKind::kUsage, "option --benchmark_filter",
                    "'" + filter +
                        "' matches none of the benchmarks (they are "
                        "named alignbench/SIZE/VARIANT/SYNC/IO/LAYOUT/CACHE)");
}

Status InitializeBenchmark(const std::string& argv0,
                           const std::vector<std::string>& benchmark_flags,
                           const Settings& settings) {
  std::vector<std::string> args = {argv0};
  bool interleave_given = false;
  for (const std::string& flag : benchmark_flags) {
    args.push_back(flag);
    interleave_given |=
        flag.rfind("--benchmark_enable_random_interleaving", 0) == 0;
  }
  // Interleaving spreads slow drift of the machine, and whatever one run leaves
  // behind for the next (journal, freed blocks), over both variants.
  if (!interleave_given) {
    args.push_back("--benchmark_enable_random_interleaving=true");
  }
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "Google Benchmark refused '" + std::string(argv[1]) +
                          "' (unknown flag or bad value)");
  }
  return CheckFilterMatches(ExpandPlan(settings));
}

Result<HarnessResult> RunHarness(const Settings& settings,
                                 const TargetInfo& target) {
  Collector collector{&settings, &target, {}, std::nullopt};
  for (const PairSpec& pair : ExpandPlan(settings)) {
    for (Variant variant : {Variant::kShifted, Variant::kAligned}) {
      benchmark::RegisterBenchmark(
          BenchmarkName(pair, variant).c_str(),
          [&collector, pair, variant](benchmark::State& state) {
            MeasureOne(state, collector, pair, variant);
          })
          ->Iterations(static_cast<benchmark::IterationCount>(settings.writes))
          ->Repetitions(static_cast<int>(settings.repetitions))
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();

  if (collector.runs.empty()) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "no benchmark ran (does --benchmark_filter match any of "
                      "alignbench/SIZE/VARIANT/SYNC/IO/LAYOUT/CACHE?)");
  }
  HarnessResult result;
  result.runs = std::move(collector.runs);
  result.benchmark_document = reporter.Document();
  result.fatal = std::move(collector.fatal);
  return result;
}

}  // namespace alignbench
