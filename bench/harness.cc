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

// A pair of the plan in one of the directories.
struct PlannedPair {
  std::size_t dir;
  PairSpec pair;
};

// Collects what the benchmarks measured; shared by every registered benchmark.
// `settings` and `targets` have one entry per directory.
struct Collector {
  const std::vector<Settings>& settings;
  const std::vector<TargetInfo>& targets;
  const std::vector<PlannedPair>& plan;
  Progress& progress;
  Clock::time_point start = Clock::now();
  std::vector<CollectedRun> runs;
  std::optional<Error> fatal;
  const Settings& Common() const { return settings.front(); }
};

// The pairs of the plan in every directory, directory by directory.
std::vector<PlannedPair> PlanAll(const std::vector<Settings>& settings) {
  std::vector<PlannedPair> plan;
  for (std::size_t dir = 0; dir < settings.size(); ++dir) {
    for (const PairSpec& pair : ExpandPlan(settings[dir])) {
      plan.push_back({dir, pair});
    }
  }
  return plan;
}

// "alignbench/4K/unaligned/fsync/buffered/extend/warm", with "dir2/" after
// "alignbench/" when several directories are measured.
std::string BenchmarkName(const Collector& c, const PlannedPair& planned,
                          Variant variant) {
  const PairSpec& pair = planned.pair;
  const std::string dir = c.settings.size() > 1
                              ? "dir" + std::to_string(planned.dir + 1) + "/"
                              : "";
  return "alignbench/" + dir + FormatSize(pair.size) + "/" +
         std::string(NameOf(kVariants, variant)) + "/" + AxesLabel(pair, "/");
}

RunSpec SpecOf(const Collector& c, const PlannedPair& planned,
               Variant variant) {
  const TargetInfo& target = c.targets[planned.dir];
  std::optional<std::string> stat_path;
  if (target.device) stat_path = target.device->StatPath();
  return SpecFor(c.settings[planned.dir], planned.pair, variant,
                 target.DirectAlignment(), std::move(stat_path));
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
  const PlannedPair& planned = c.plan[slot.pair];
  const PairSpec& pair = planned.pair;
  if (c.fatal) {
    state.SkipWithError("skipped: an earlier run failed");
    return;
  }
  if (order == StopBeforeRun()) ::raise(SIGSTOP);
  const Clock::time_point began = Clock::now();
  std::optional<Error> error;
  RunRecord record = MeasureRun(state, SpecOf(c, planned, slot.variant), error);
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
                    wall, planned.dir});
  c.progress.Done(slot.pair, wall, BenchmarkName(c, planned, slot.variant),
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
        BenchmarkName(c, c.plan[slot.pair], slot.variant).c_str(),
        [&c, slot, order](benchmark::State& state) {
          MeasureOne(state, c, slot, order);
        })
        ->Iterations(static_cast<benchmark::IterationCount>(c.Common().writes))
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

// The runs measured in one directory.
std::vector<CollectedRun> RunsIn(const std::vector<CollectedRun>& runs,
                                 std::size_t dir) {
  std::vector<CollectedRun> in;
  for (const CollectedRun& run : runs) {
    if (run.dir == dir) in.push_back(run);
  }
  return in;
}

// What each pair of each directory needs for --precision, from the first
// stage; in plan order.
std::vector<PairNeed> Needs(const Collector& c) {
  const std::uint64_t blocks = c.Common().repetitions;
  std::vector<PairNeed> needs;
  for (std::size_t dir = 0; dir < c.settings.size(); ++dir) {
    const std::vector<CollectedRun> runs = RunsIn(c.runs, dir);
    const std::vector<PairSpec> plan = ExpandPlan(c.settings[dir]);
    const std::vector<PairResult> first =
        BuildPairs(plan, runs, c.Common().shift);
    for (std::size_t i = 0; i < plan.size(); ++i) {
      PairNeed need;
      need.blocks_done = blocks;
      if (first[i].Measured()) {  // one that is not measurable is not retried
        need.blocks_needed =
            RunsForPrecision(first[i], c.Common().precision_points);
        double seconds = 0;
        for (const CollectedRun& run : runs) {
          if (SameSpec(run.pair, plan[i])) seconds += run.wall_s;
        }
        need.seconds_per_block = seconds / static_cast<double>(blocks);
      }
      needs.push_back(need);
    }
  }
  return needs;
}

// The second stage of --budget: the blocks each pair needs, for the pairs
// that fit in the time left; the others are reported per directory.
void SecondStageOf(Collector& c, Scheduler& scheduler, HarnessResult& result) {
  const Settings& settings = c.Common();
  const std::vector<PairNeed> needs = Needs(c);
  result.budget_left_seconds = *settings.budget_seconds - SecondsSince(c.start);
  const SecondStage stage = PlanSecondStage(needs, result.budget_left_seconds);
  bool any = false;
  for (std::size_t i = 0; i < c.plan.size(); ++i) {
    any = any || stage.extra_blocks[i] > 0;
    if (!stage.out_of_budget[i]) continue;
    result.out_of_budget[c.plan[i].dir].push_back(
        {c.plan[i].pair, needs[i].blocks_needed,
         static_cast<double>(needs[i].blocks_needed - needs[i].blocks_done) *
             needs[i].seconds_per_block});
  }
  if (!any) return;
  const std::size_t next_block = c.plan.size() * settings.repetitions + 1;
  MergeDocument(result.benchmark_document,
                RunStage(c, scheduler.Next(stage.extra_blocks, next_block)));
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

HarnessResult RunHarness(const std::vector<Settings>& settings,
                         const std::vector<TargetInfo>& targets,
                         bool progress_lines) {
  const std::vector<PlannedPair> plan = PlanAll(settings);
  Progress progress(progress_lines, ::isatty(STDERR_FILENO) != 0, plan.size());
  Collector collector{settings, targets, plan, progress, Clock::now(), {}, {}};
  HarnessResult result;
  result.out_of_budget.resize(settings.size());
  const Settings& common = collector.Common();
  result.seed = common.seed ? *common.seed : FreshSeed();
  Scheduler scheduler(result.seed);
  const std::vector<std::uint64_t> first(plan.size(), common.repetitions);
  MergeDocument(result.benchmark_document,
                RunStage(collector, scheduler.Next(first, 1)));
  if (common.budget_seconds && !collector.fatal) {
    SecondStageOf(collector, scheduler, result);
  }
  benchmark::Shutdown();
  // Moved, not copied: each run holds its per-write times.
  result.runs.resize(settings.size());
  for (CollectedRun& run : collector.runs) {
    result.runs[run.dir].push_back(std::move(run));
  }
  result.fatal = std::move(collector.fatal);
  return result;
}

}  // namespace alignbench
