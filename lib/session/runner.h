// How a session's runs are driven, behind one small interface. The session
// owns the order of the runs, the measuring and the records; a runner only
// calls `measure` for each run of a stage, in the order given, lending it the
// timed loop. The binary's runner (bench/) registers every run as a Google
// Benchmark instance and keeps Google Benchmark's JSON; PlainRunner loops by
// itself, for the unit tests and for tools that need no Google Benchmark.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignbench {

// The timed operations of one run, as the runner counts them.
class TimedLoop {
 public:
  virtual ~TimedLoop() = default;
  // Whether another timed operation follows; false after the run's writes.
  virtual bool Next() = 0;
  // The operation just done took `seconds` (its write and sync).
  virtual void Record(double seconds) = 0;
  // The run failed or was skipped; Next() is not called again.
  virtual void Fail(const std::string& why) = 0;
};

// One run of a stage as the runner sees it.
struct RunSlot {
  // "alignbench/4K/unaligned/fsync/buffered/extend/warm"
  std::string name;
  // Timed steps: commits, or groups of them (--commits-per-sync)
  std::uint64_t writes = 0;
};

using MeasureFn = std::function<void(std::size_t slot, TimedLoop& loop)>;

class Runner {
 public:
  virtual ~Runner() = default;
  // Runs `slots` in order, each through `measure`. Returns the runner's own
  // account of the stage ({"context": ..., "benchmarks": [...]}), or null.
  virtual nlohmann::json RunStage(const std::vector<RunSlot>& slots,
                                  const MeasureFn& measure) = 0;
  // What the result should say about the runner itself (its document
  // could not be read).
  virtual std::vector<std::string> Warnings() const { return {}; }
};

// Loops `writes` times per run with nothing around it; keeps no document.
class PlainRunner final : public Runner {
 public:
  nlohmann::json RunStage(const std::vector<RunSlot>& slots,
                          const MeasureFn& measure) override;
};

}  // namespace alignbench
