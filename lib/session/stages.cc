#include "lib/session/stages.h"

#include <unistd.h>

#include <chrono>

#include "lib/config/schedule.h"
#include "lib/config/size.h"
#include "lib/io/cleanup.h"
#include "lib/measure/run.h"
#include "lib/session/progress.h"
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

// What the runs measured, shared by every run of every stage. `settings` and
// `targets` have one entry per directory.
struct Collector {
  const std::vector<Settings>& settings;
  const std::vector<TargetInfo>& targets;
  const std::vector<PlannedPair>& plan;
  Progress& progress;
  Runner& runner;
  FileOps& ops;
  Clock::time_point start = Clock::now();
  std::vector<CollectedRun> runs;
  std::optional<Error> fatal;
  bool interrupted = false;
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
std::string RunName(const Collector& c, const PlannedPair& planned,
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
  RunSpec spec = SpecFor(c.settings[planned.dir], planned.pair, variant,
                         target.DirectAlignment(), std::move(stat_path));
  spec.ops = &c.ops;
  return spec;
}

// Prepare, the timed loop, the counters; the test file is gone on return.
RunRecord MeasureRun(TimedLoop& loop, const RunSpec& spec,
                     std::optional<Error>& error) {
  Result<Run> prepared = Run::Prepare(spec);
  if (!prepared) {
    error = prepared.error();
    RunRecord record;
    record.error = error;
    return record;
  }
  Run& run = prepared.value();
  while (loop.Next()) {
    if (InterruptRequested()) {
      error = PlainError(ErrorKind::kIo, "measure",
                         "interrupted (SIGINT) before this run's end");
      break;
    }
    Result<OpTimes> op = run.Step();
    if (!op) {
      error = op.error();
      break;
    }
    loop.Record(static_cast<double>(op.value().Total()) * 1e-9);
  }
  return run.Finish(error);
}

// One run of the schedule, `order` its place in the whole session.
void MeasureOne(TimedLoop& loop, Collector& c, const ScheduledRun& slot,
                std::size_t order) {
  const PlannedPair& planned = c.plan[slot.pair];
  const PairSpec& pair = planned.pair;
  if (c.fatal || c.interrupted || InterruptRequested()) {
    c.interrupted = c.interrupted || !c.fatal;
    loop.Fail(c.fatal ? "skipped: an earlier run failed"
                      : "skipped: interrupted");
    return;
  }
  const Clock::time_point began = Clock::now();
  std::optional<Error> error;
  RunRecord record = MeasureRun(loop, SpecOf(c, planned, slot.variant), error);
  if (error) {
    loop.Fail(error->Message());
    if (InterruptRequested()) {
      c.interrupted = true;
    } else if (!RefusedDirectWrite(pair.io, error->errno_value)) {
      c.fatal = error;
    }
  }
  const double wall = SecondsSince(began);
  c.runs.push_back({pair, slot.variant, std::move(record), order, slot.block,
                    std::chrono::duration<double>(began - c.start).count(),
                    wall, planned.dir});
  c.progress.Done(slot.pair, wall, RunName(c, planned, slot.variant),
                  error.has_value());
}

// Runs `schedule` in its order; returns the runner's account of it.
nlohmann::json RunStage(Collector& c,
                        const std::vector<ScheduledRun>& schedule) {
  std::vector<RunSlot> slots;
  for (const ScheduledRun& run : schedule) {
    c.progress.Expect(run.pair, 1);
    slots.push_back(
        {RunName(c, c.plan[run.pair], run.variant), c.Common().writes});
  }
  const std::size_t first_order = c.runs.size() + 1;
  nlohmann::json document =
      c.runner.RunStage(slots, [&](std::size_t i, TimedLoop& loop) {
        MeasureOne(loop, c, schedule[i], first_order + i);
      });
  c.progress.Finish();
  return document;
}

// Appends a later stage's account to the first stage's.
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
void SecondStageOf(Collector& c, Scheduler& scheduler, StagesResult& result) {
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
  MergeDocument(result.runner_document,
                RunStage(c, scheduler.Next(stage.extra_blocks, next_block)));
}

}  // namespace

StagesResult MeasureStages(const std::vector<Settings>& settings,
                           const std::vector<TargetInfo>& targets,
                           bool progress_lines, Runner& runner, FileOps& ops) {
  const std::vector<PlannedPair> plan = PlanAll(settings);
  Progress progress(progress_lines, ::isatty(STDERR_FILENO) != 0, plan.size());
  Collector collector{settings, targets,      plan, progress, runner,
                      ops,      Clock::now(), {},   {}};
  StagesResult result;
  result.out_of_budget.resize(settings.size());
  const Settings& common = collector.Common();
  result.seed = common.seed ? *common.seed : FreshSeed();
  Scheduler scheduler(result.seed);
  const std::vector<std::uint64_t> first(plan.size(), common.repetitions);
  MergeDocument(result.runner_document,
                RunStage(collector, scheduler.Next(first, 1)));
  if (common.budget_seconds && !collector.fatal && !collector.interrupted) {
    SecondStageOf(collector, scheduler, result);
  }
  // Moved, not copied: each run holds its per-write times.
  result.runs.resize(settings.size());
  for (CollectedRun& run : collector.runs) {
    result.runs[run.dir].push_back(std::move(run));
  }
  result.fatal = std::move(collector.fatal);
  result.interrupted = collector.interrupted;
  return result;
}

}  // namespace alignbench
