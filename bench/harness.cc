#include "bench/harness.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>

#include "bench/progress.h"
#include "bench/reporter.h"
#include "lib/config/schedule.h"
#include "lib/config/size.h"
#include "lib/measure/run.h"
#include "lib/stats/budget.h"

namespace alignbench {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Collects what the benchmarks measured; shared by every registered benchmark.
struct Collector {
  const Settings& settings;
  const TargetInfo& target;
  const std::vector<PairSpec>& plan;
  Progress& progress;
  Clock::time_point start = Clock::now();
  std::vector<CollectedRun> runs;
  std::optional<Error> fatal;
};

std::string BenchmarkName(const PairSpec& pair, Variant variant) {
  return "alignbench/" + FormatSize(pair.size) + "/" +
         std::string(NameOf(kVariants, variant)) + "/" +
         std::string(NameOf(kSyncMethods, pair.sync)) + "/" +
         std::string(NameOf(kIoModes, pair.io)) + "/" +
         std::string(NameOf(kLayouts, pair.layout)) + "/" +
         std::string(NameOf(kCacheStates, pair.cache));
}

RunSpec SpecOf(const Collector& c, const PairSpec& pair, Variant variant) {
  RunSpec spec;
  spec.dir = c.settings.dir;
  const LogWorkload workload = WorkloadOf(c.settings);
  spec.pattern = WritePattern(RulesFor(workload, variant), pair.size);
  spec.writes = c.settings.writes;
  spec.warmup = c.settings.warmup;
  spec.sync = pair.sync;
  spec.io = pair.io;
  spec.layout = pair.layout;
  spec.cache = pair.cache;
  if (std::optional<FileState> file = FileFor(workload, variant)) {
    ApplyFileState(*file, spec);
  }
  spec.direct_unaligned = c.settings.direct_unaligned;
  spec.dio_alignment = c.target.DirectAlignment();
  if (c.target.device) spec.device_stat_path = c.target.device->StatPath();
  return spec;
}

// Prepare, the timed loop, the counters; the test file is gone on return.
RunRecord MeasureRun(benchmark::State& state, const RunSpec& spec,
                     std::optional<Error>& error) {
  Result<Run> prepared = Run::Prepare(spec);
  if (!prepared) {
    error = prepared.error();
    RunRecord record;
    record.error = error;
    return record;
  }
  Run& run = prepared.value();
  for (auto _ : state) {
    Result<OpTimes> op = run.Step();
    if (!op) {
      error = op.error();
      break;
    }
    state.SetIterationTime(static_cast<double>(op.value().Total()) * 1e-9);
  }
  return run.Finish(error);
}

// For the fault tests only (tests/integration/fault_phases.sh): with
// ALIGNBENCH_STOP_BEFORE_RUN=K the process stops itself (SIGSTOP) before run K
// creates its file, so a test can break the filesystem at exactly that point
// and let it go on with SIGCONT. Unset, nothing happens.
std::size_t StopBeforeRun() {
  static const std::size_t k = [] {
    const char* text = std::getenv("ALIGNBENCH_STOP_BEFORE_RUN");
    return text ? static_cast<std::size_t>(std::strtoull(text, nullptr, 10))
                : std::size_t{0};
  }();
  return k;
}

// One run of the schedule. Every run is recorded, also one that failed, so
// that the result says what was attempted.
void MeasureOne(benchmark::State& state, Collector& c, const ScheduledRun& slot,
                std::size_t order) {
  const PairSpec& pair = c.plan[slot.pair];
  if (c.fatal) {
    state.SkipWithError("skipped: an earlier run failed");
    return;
  }
  if (order == StopBeforeRun()) ::raise(SIGSTOP);
  const Clock::time_point began = Clock::now();
  std::optional<Error> error;
  RunRecord record = MeasureRun(state, SpecOf(c, pair, slot.variant), error);
  if (error) {
    state.SkipWithError(error->Message().c_str());
    if (!RefusedDirectWrite(pair.io, error->errno_value)) c.fatal = error;
  }
  // No user counters: Google Benchmark 1.7.1 prints the coefficient of
  // variation of an all-zero counter as a bare `nan`, which is not JSON. Device
  // counters live in our section.
  const double wall = SecondsSince(began);
  c.runs.push_back({pair, slot.variant, std::move(record), order, slot.block,
                    std::chrono::duration<double>(began - c.start).count(),
                    wall});
  c.progress.Done(slot.pair, wall, BenchmarkName(pair, slot.variant),
                  error.has_value());
}

// Registers the runs of `schedule` in its order and runs them. Returns
// Google Benchmark's JSON document of this stage.
nlohmann::json RunStage(Collector& c,
                        const std::vector<ScheduledRun>& schedule) {
  for (const ScheduledRun& slot : schedule) c.progress.Expect(slot.pair, 1);
  std::size_t order = c.runs.size();
  for (const ScheduledRun& slot : schedule) {
    ++order;
    benchmark::RegisterBenchmark(
        BenchmarkName(c.plan[slot.pair], slot.variant).c_str(),
        [&c, slot, order](benchmark::State& state) {
          MeasureOne(state, c, slot, order);
        })
        ->Iterations(static_cast<benchmark::IterationCount>(c.settings.writes))
        ->Repetitions(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  c.progress.Finish();
  return reporter.Document();
}

// Appends a later stage's benchmarks to the first stage's document.
void MergeDocument(nlohmann::json& into, nlohmann::json stage) {
  if (!into.is_object()) {
    into = std::move(stage);
  } else if (stage.is_object() && stage.contains("benchmarks") &&
             into.contains("benchmarks")) {
    for (auto& entry : stage["benchmarks"]) into["benchmarks"].push_back(entry);
  }
}

// What each pair needs for --precision, from the first stage.
std::vector<PairNeed> Needs(const Collector& c) {
  const std::vector<PairResult> first =
      BuildPairs(c.plan, c.runs, c.settings.shift);  // a copy of the runs
  std::vector<PairNeed> needs(c.plan.size());
  for (std::size_t i = 0; i < c.plan.size(); ++i) {
    needs[i].blocks_done = c.settings.repetitions;
    if (!first[i].Measured()) continue;  // not measurable: never retried
    needs[i].blocks_needed =
        RunsForPrecision(first[i], c.settings.precision_points);
    double seconds = 0;
    for (const CollectedRun& run : c.runs) {
      if (SameSpec(run.pair, c.plan[i])) seconds += run.wall_s;
    }
    needs[i].seconds_per_block =
        seconds / static_cast<double>(c.settings.repetitions);
  }
  return needs;
}

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

HarnessResult RunHarness(const Settings& settings, const TargetInfo& target,
                         bool progress_lines) {
  const std::vector<PairSpec> plan = ExpandPlan(settings);
  Progress progress(progress_lines, ::isatty(STDERR_FILENO) != 0, plan.size());
  Collector collector{settings, target, plan, progress, Clock::now(), {}, {}};
  HarnessResult result;
  result.seed = settings.seed ? *settings.seed : FreshSeed();
  Scheduler scheduler(result.seed);
  const std::vector<std::uint64_t> first(plan.size(), settings.repetitions);
  MergeDocument(result.benchmark_document,
                RunStage(collector, scheduler.Next(first, 1)));

  if (settings.budget_seconds && !collector.fatal) {
    const std::vector<PairNeed> needs = Needs(collector);
    result.budget_left_seconds =
        *settings.budget_seconds - SecondsSince(collector.start);
    const SecondStage stage =
        PlanSecondStage(needs, result.budget_left_seconds);
    bool any = false;
    for (std::size_t i = 0; i < plan.size(); ++i) {
      any = any || stage.extra_blocks[i] > 0;
      if (!stage.out_of_budget[i]) continue;
      result.out_of_budget.push_back(
          {plan[i], needs[i].blocks_needed,
           static_cast<double>(needs[i].blocks_needed - needs[i].blocks_done) *
               needs[i].seconds_per_block});
    }
    if (any) {
      const std::size_t next_block = plan.size() * settings.repetitions + 1;
      MergeDocument(
          result.benchmark_document,
          RunStage(collector, scheduler.Next(stage.extra_blocks, next_block)));
    }
  }
  benchmark::Shutdown();
  result.runs = std::move(collector.runs);
  result.fatal = std::move(collector.fatal);
  return result;
}

}  // namespace alignbench
