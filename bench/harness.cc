#include "bench/harness.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <regex>

#include "bench/reporter.h"
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
      state.SetIterationTime(static_cast<double>(op.value().Total()) * 1e-9);
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
  // Google Benchmark keeps a pointer to argv[0] (Context::executable_name) for
  // the rest of the process, so the strings must outlive this call.
  static std::vector<std::string> args;
  args = {argv0};
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

namespace {

// One round: every pair of `plan` in both variants, `repetitions` times each,
// randomly interleaved by Google Benchmark. Returns its JSON document.
nlohmann::json RunRound(Collector& collector, const std::vector<PairSpec>& plan,
                        std::uint64_t repetitions, Progress& progress) {
  progress.planned += plan.size() * 2 * repetitions;
  for (const PairSpec& pair : plan) {
    for (Variant variant : {Variant::kShifted, Variant::kAligned}) {
      benchmark::RegisterBenchmark(
          BenchmarkName(pair, variant).c_str(),
          [&collector, pair, variant](benchmark::State& state) {
            MeasureOne(state, collector, pair, variant);
          })
          ->Iterations(static_cast<benchmark::IterationCount>(
              collector.settings->writes))
          ->Repetitions(static_cast<int>(repetitions))
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  CollectingReporter reporter(progress);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  return reporter.Document();
}

// Pairs whose interval is still wider than ±precision points. A pair that
// cannot be measured never converges and is not retried.
std::vector<PairSpec> Unconverged(const std::vector<PairSpec>& plan,
                                  const std::vector<CollectedRun>& runs,
                                  const Settings& settings) {
  std::vector<PairSpec> wide;
  // A copy of the runs: they are measured further in the next round.
  for (const PairResult& pair : BuildPairs(plan, runs, settings.shift)) {
    if (!pair.Measured()) continue;
    const Interval i = pair.gain_interval.value_or(Interval{0, 0});
    const double half = (i.high - i.low) / 2;
    if (!(half <= settings.precision_points)) wide.push_back(pair.spec);
  }
  return wide;
}

// Appends another round's benchmarks to the first round's document.
void MergeDocument(nlohmann::json& into, nlohmann::json round) {
  if (!into.is_object()) {
    into = std::move(round);
  } else if (round.is_object() && round.contains("benchmarks") &&
             into.contains("benchmarks")) {
    for (auto& entry : round["benchmarks"]) into["benchmarks"].push_back(entry);
  }
}

}  // namespace

Result<HarnessResult> RunHarness(const Settings& settings,
                                 const TargetInfo& target,
                                 bool progress_lines) {
  Progress progress;
  progress.enabled = progress_lines;
  progress.terminal = ::isatty(STDERR_FILENO) != 0;
  Collector collector{&settings, &target, {}, std::nullopt};
  const std::vector<PairSpec> plan = ExpandPlan(settings);
  HarnessResult result;
  MergeDocument(result.benchmark_document,
                RunRound(collector, plan, settings.repetitions, progress));

  // --budget: more interleaved rounds, only for pairs whose interval is still
  // too wide, while the next round is expected to fit in the budget.
  if (settings.budget_seconds) {
    for (;;) {
      std::vector<PairSpec> wide = Unconverged(plan, collector.runs, settings);
      result.unconverged = wide;
      if (wide.empty() || collector.fatal) break;
      const double elapsed = progress.ElapsedSeconds();
      const double per_run = elapsed / static_cast<double>(progress.done);
      const double next_round =
          per_run * static_cast<double>(wide.size() * 2 * settings.repetitions);
      if (elapsed + next_round > *settings.budget_seconds) break;
      MergeDocument(result.benchmark_document,
                    RunRound(collector, wide, settings.repetitions, progress));
    }
  }
  benchmark::Shutdown();

  if (collector.runs.empty()) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "no benchmark ran (does --benchmark_filter match any of "
                      "alignbench/SIZE/VARIANT/SYNC/IO/LAYOUT/CACHE?)");
  }
  result.runs = std::move(collector.runs);
  result.fatal = std::move(collector.fatal);
  return result;
}

}  // namespace alignbench
