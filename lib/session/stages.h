// The measuring part of a session: the planned blocks of every directory in
// one shuffled schedule (so each directory sees the same minutes of machine
// noise); then, with --budget, rounds: after each, a pair whose interval is
// known to ±--precision stops and the next round's blocks go to the others,
// weighed by what a block of each costs (lib/stats/sequential.h decides, from
// absolute log ratios and costs only, so the verdict keeps its level), until
// every pair is there or the budget is spent.
// Every run is recorded, also one that failed, so that the result says what
// was attempted; the first error that is not a refused direct write stops the
// runs that follow.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/env/probe.h"
#include "lib/io/file_ops.h"
#include "lib/measure/counters.h"
#include "lib/pairs/pairs.h"
#include "lib/result/report.h"
#include "lib/session/runner.h"

namespace alignbench {

// Per directory where it says so, in the order of the directories.
struct StagesResult {
  // The runs of each directory.
  std::vector<std::vector<CollectedRun>> runs;
  // The runner's accounts of every stage, merged: {"context", "benchmarks"}.
  nlohmann::json runner_document;
  // The error that stopped the remaining runs.
  std::optional<Error> fatal;
  // A SIGINT stopped them (the run it came in is recorded as failed).
  bool interrupted = false;
  std::uint64_t seed = 0;
  // Per directory, per pair of its plan: how the rounds went; empty
  // without --budget (a fixed design).
  std::vector<std::vector<PairRounds>> rounds;
  // Rounds run, the first included
  std::uint64_t rounds_run = 0;
  // Per directory, per pair of its plan: the disk's own traffic in the idle
  // windows before the rounds the pair was measured in (one before the first
  // round, a shorter one before each later round), so that a burst in the
  // middle of a run is seen by the pairs measured then. Empty where no block
  // device is under the directory.
  std::vector<std::vector<std::optional<IdleSample>>> idle;
  // Per directory: where its device I/O came from; absent without a device.
  std::vector<std::optional<DeviceAccountSource>> device_sources;
};

// `settings` and `targets` have one entry per directory and differ only in
// it; `pairs` is the plan measured in each (ExpandPlan, made once by the
// session), the order in which `rounds` and `idle` list a directory's pairs.
// Progress lines go to stderr when asked. Every test file is made and
// written through `ops`.
StagesResult MeasureStages(const std::vector<Settings>& settings,
                           const std::vector<TargetInfo>& targets,
                           const std::vector<PairSpec>& pairs,
                           bool progress_lines, Runner& runner, FileOps& ops);

}  // namespace alignbench
