#include "lib/session/stages.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "lib/config/schedule.h"
#include "lib/config/size.h"
#include "lib/io/cleanup.h"
#include "lib/measure/block_trace.h"
#include "lib/measure/run.h"
#include "lib/session/progress.h"
#include "lib/stats/sequential.h"

namespace alignbench {
namespace {

using Clock = std::chrono::steady_clock;

// How long the disk is watched, idle, before the first round: long enough to
// catch a journal commit or a neighbour's writes, short beside any plan; and
// before each later round, shorter, since rounds are seconds apart.
constexpr std::chrono::milliseconds kFirstIdleWindow{200};
constexpr std::chrono::milliseconds kRoundIdleWindow{100};

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
  bool progress_lines;
  Runner& runner;
  FileOps& ops;
  Clock::time_point start = Clock::now();
  std::vector<CollectedRun> runs = {};
  std::optional<Error> fatal = std::nullopt;
  bool interrupted = false;
  // Per pair of the plan (all directories): the idle windows before its rounds
  std::vector<std::optional<IdleSample>> idle = {};
  // Each disk's trace, and per directory the one of its disk (or none).
  std::vector<std::unique_ptr<BlockTrace>> traces = {};
  std::vector<BlockTrace*> trace_of = {};
  const Settings& Common() const { return settings.front(); }
};

// The pairs of the plan in every directory, directory by directory.
std::vector<PlannedPair> PlanAll(const std::vector<PairSpec>& pairs,
                                 std::size_t dirs) {
  std::vector<PlannedPair> plan;
  for (std::size_t dir = 0; dir < dirs; ++dir) {
    for (const PairSpec& pair : pairs) plan.push_back({dir, pair});
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
  const std::string shift = c.settings[planned.dir].shifts.size() > 1
                                ? "/shift" + std::to_string(pair.shift)
                                : "";
  return "alignbench/" + dir + FormatSize(pair.size) + "/" +
         std::string(NameOf(kVariants, variant)) + "/" + AxesLabel(pair, "/") +
         shift;
}

RunSpec SpecOf(const Collector& c, const PlannedPair& planned,
               Variant variant) {
  const TargetInfo& target = c.targets[planned.dir];
  std::optional<std::string> stat_path;
  if (target.device) stat_path = target.device->StatPath();
  RunSpec spec = SpecFor(c.settings[planned.dir], planned.pair, variant,
                         target.DirectAlignment(), std::move(stat_path));
  spec.ops = &c.ops;
  spec.trace = c.trace_of[planned.dir];
  if (target.device && target.device->partition_start_bytes) {
    spec.disk_offset_sectors = *target.device->partition_start_bytes / 512;
  }
  return spec;
}

// Each directory's disk traced where the kernel lets us (one instance a
// disk), and where its device I/O comes from, in words.
std::vector<std::optional<DeviceAccountSource>> OpenTraces(Collector& c) {
  std::vector<std::optional<DeviceAccountSource>> sources(c.targets.size());
  std::map<std::string, BlockTrace*> by_disk;
  c.trace_of.assign(c.targets.size(), nullptr);
  for (std::size_t dir = 0; dir < c.targets.size(); ++dir) {
    const std::optional<DeviceInfo>& device = c.targets[dir].device;
    if (!device) continue;
    DeviceAccountSource& source = sources[dir].emplace();
    if (device->stack) {
      source.why_not_traced =
          "a stacked device: its requests reach the disks below it";
      continue;
    }
    if (by_disk.count(device->disk) == 0) {
      Result<BlockTrace> trace = BlockTrace::OpenDisk(device->disk);
      if (!trace) {
        source.why_not_traced = trace.error().Message();
        continue;
      }
      c.traces.push_back(
          std::make_unique<BlockTrace>(std::move(trace).value()));
      by_disk[device->disk] = c.traces.back().get();
    }
    c.trace_of[dir] = by_disk[device->disk];
    source.source = kSourceBlockTrace;
  }
  return sources;
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

// Adds `sample` to each pair of directory `dir` that gets blocks.
void AddIdle(Collector& c, std::size_t dir,
             const std::vector<std::uint64_t>& blocks,
             const IdleSample& sample) {
  for (std::size_t i = 0; i < c.plan.size(); ++i) {
    if (c.plan[i].dir != dir || blocks[i] == 0) continue;
    if (!c.idle[i]) c.idle[i] = IdleSample{};
    *c.idle[i] += sample;
  }
}

// The disk's own traffic before a round, in every directory with a device,
// and the CPU time others used then, added to each pair that gets blocks in
// it (`blocks`; all in the first). A directory without a device (tmpfs)
// gets the CPU time of a window the others took, or of its own where none
// did: busy CPUs touch its writes too, and its answer says so.
void SampleIdleBefore(Collector& c, const std::vector<std::uint64_t>& blocks,
                      std::chrono::milliseconds window) {
  if (c.idle.size() != c.plan.size()) c.idle.assign(c.plan.size(), {});
  std::optional<IdleSample> cpu;
  std::vector<std::size_t> without_device;
  for (std::size_t dir = 0; dir < c.settings.size(); ++dir) {
    const TargetInfo& target = c.targets[dir];
    if (!target.device) {
      without_device.push_back(dir);
      continue;
    }
    const std::optional<IdleSample> sample =
        SampleIdle(c.settings[dir].dir, target.device->StatPath(), window);
    if (!sample) continue;
    if (sample->cpu) cpu = IdleSample{sample->seconds, {}, sample->cpu};
    AddIdle(c, dir, blocks, *sample);
  }
  if (without_device.empty()) return;
  if (!cpu) cpu = SampleCpuIdle(window);
  if (!cpu) return;
  for (std::size_t dir : without_device) AddIdle(c, dir, blocks, *cpu);
}

// Runs `schedule` in its order; returns the runner's account of it.
nlohmann::json RunStage(Collector& c,
                        const std::vector<ScheduledRun>& schedule) {
  std::vector<RunSlot> slots;
  // One timed step a commit, or a group commit's commits together.
  const std::uint64_t steps = StepsPerRun(c.Common(), c.Common().writes);
  for (const ScheduledRun& run : schedule) {
    c.progress.Expect(run.pair, 1);
    slots.push_back({RunName(c, c.plan[run.pair], run.variant), steps});
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

// Where every pair of the plan stands: its blocks' log ratios, what a block
// costs, whether it can be measured at all. In plan order, directory by
// directory.
std::vector<PairProgress> ProgressOf(const Collector& c) {
  std::vector<PairProgress> progress(c.plan.size());
  std::vector<double> seconds(c.plan.size(), 0);
  std::vector<std::vector<CollectedRun>> in(c.settings.size());
  for (const CollectedRun& run : c.runs) in[run.dir].push_back(run);
  for (std::size_t i = 0; i < c.plan.size(); ++i) {
    const PlannedPair& planned = c.plan[i];
    const std::vector<CollectedRun>& runs = in[planned.dir];
    // The runs' medians only: no test is made until the last round.
    const VariantResult u = Collect(planned.pair, Variant::kUnaligned, runs);
    const VariantResult a = Collect(planned.pair, Variant::kAligned, runs);
    PairProgress& p = progress[i];
    p.measurable = !u.runs.empty() && !a.runs.empty();
    p.log_ratios = BlockLogRatios(u, a);
    for (const CollectedRun& run : runs) {
      if (SameSpec(run.pair, planned.pair)) seconds[i] += run.wall_s;
    }
  }
  for (std::size_t i = 0; i < progress.size(); ++i) {
    const double blocks = static_cast<double>(progress[i].log_ratios.size());
    progress[i].seconds_per_block = blocks > 0 ? seconds[i] / blocks : 0;
    if (!(progress[i].seconds_per_block > 0)) progress[i].measurable = false;
  }
  return progress;
}

// Where the rounds stand (RoundLine), on stderr when progress lines are
// asked for.
void SayRound(const Collector& c, std::uint64_t round, const RoundPlan& plan) {
  if (!c.progress_lines) return;
  std::fprintf(stderr, "%s\n",
               RoundLine(round, plan, c.Common().precision_points,
                         SecondsSince(c.start), *c.Common().budget_seconds)
                   .c_str());
}

// The rounds after the first, until every pair has stopped or the budget is
// spent. Returns how each pair ended, per directory.
void RunRounds(Collector& c, Scheduler& scheduler, std::uint64_t first_blocks,
               StagesResult& result) {
  const Settings& settings = c.Common();
  SequentialDesign design;
  design.precision_points = settings.precision_points;
  design.first_round_blocks = settings.repetitions;
  std::vector<std::uint64_t> blocks(c.plan.size(), first_blocks);
  std::vector<std::uint64_t> rounds(c.plan.size(), 1);
  std::size_t next_block = c.plan.size() * first_blocks + 1;
  RoundPlan plan;
  while (true) {
    plan = PlanNextRound(ProgressOf(c), design,
                         *settings.budget_seconds - SecondsSince(c.start));
    bool any = false;
    for (std::uint64_t b : plan.blocks) any = any || b > 0;
    if (!any || c.fatal || c.interrupted) break;
    SayRound(c, result.rounds_run + 1, plan);
    SampleIdleBefore(c, plan.blocks, kRoundIdleWindow);
    for (std::size_t i = 0; i < plan.blocks.size(); ++i) {
      blocks[i] += plan.blocks[i];
      if (plan.blocks[i] > 0) ++rounds[i];
    }
    const std::vector<ScheduledRun> schedule =
        scheduler.Next(plan.blocks, next_block);
    next_block += schedule.size() / 2;
    ++result.rounds_run;
    MergeDocument(result.runner_document, RunStage(c, schedule));
  }
  result.rounds.assign(c.settings.size(), {});
  for (std::size_t i = 0; i < c.plan.size(); ++i) {
    PairRounds r;
    r.blocks = blocks[i];
    r.rounds = rounds[i];
    // Open after the last look only when a fault or an interruption ended the
    // rounds: its budget was not spent, the precision not reached.
    r.state = plan.state[i] == PairState::kOpen && !c.fatal && !c.interrupted
                  ? PairState::kOutOfBudget
                  : plan.state[i];
    if (std::isfinite(plan.stand_in_half_width_points[i])) {
      r.stand_in_points = plan.stand_in_half_width_points[i];
    }
    r.blocks_needed = plan.blocks_needed[i];
    result.rounds[c.plan[i].dir].push_back(r);
  }
}

}  // namespace

StagesResult MeasureStages(const std::vector<Settings>& settings,
                           const std::vector<TargetInfo>& targets,
                           const std::vector<PairSpec>& pairs,
                           bool progress_lines, Runner& runner, FileOps& ops) {
  const std::vector<PlannedPair> plan = PlanAll(pairs, settings.size());
  Progress progress(progress_lines, ::isatty(STDERR_FILENO) != 0, plan.size());
  if (settings.front().budget_seconds) {
    progress.SetBudget(*settings.front().budget_seconds);
  }
  Collector collector{settings,       targets, plan, progress,
                      progress_lines, runner,  ops,  Clock::now()};
  StagesResult result;
  const Settings& common = collector.Common();
  result.seed = common.seed ? *common.seed : FreshSeed();
  Scheduler scheduler(result.seed);
  // Without a budget, exactly --repetitions blocks. With one, every pair
  // first gets the fewest blocks that can give a verdict, whatever the time;
  // the rest of the first round is the rounds' to fund like any other, so a
  // slow disk cannot hold the run far past its budget in the first round.
  const std::uint64_t first_blocks =
      common.budget_seconds
          ? std::min<std::uint64_t>(common.repetitions, kMinRunsForVerdict)
          : common.repetitions;
  result.device_sources = OpenTraces(collector);
  const std::vector<std::uint64_t> first(plan.size(), first_blocks);
  SampleIdleBefore(collector, first, kFirstIdleWindow);
  MergeDocument(result.runner_document,
                RunStage(collector, scheduler.Next(first, 1)));
  result.rounds_run = 1;
  if (common.budget_seconds) {
    RunRounds(collector, scheduler, first_blocks, result);
  }
  // Moved, not copied: each run holds its per-write times.
  result.runs.resize(settings.size());
  for (CollectedRun& run : collector.runs) {
    result.runs[run.dir].push_back(std::move(run));
  }
  result.fatal = std::move(collector.fatal);
  result.interrupted = collector.interrupted;
  result.idle.resize(settings.size());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    result.idle[plan[i].dir].push_back(collector.idle[i]);
  }
  return result;
}

}  // namespace alignbench
