// Everything a run is defined by, with its defaults, and the plan it expands
// to. Where settings come from (a case file, the command line) and how they
// are checked is the option table's (options.h) and case_file.h's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/axes.h"
#include "lib/config/log_rules.h"
#include "lib/config/replay.h"
#include "lib/stats/compare.h"

namespace alignbench {

// Derby's sizes in Derby's order.
inline const std::vector<std::uint64_t> kDerbySizes = {
    512 << 10, 256 << 10, 128 << 10, 64 << 10, 32 << 10, 16 << 10, 12 << 10,
    10 << 10,  8 << 10,   6 << 10,   4 << 10,  2 << 10,  1 << 10};

// What a case file's "requires" may name. alignbench refuses (exit 2) to
// measure a case where one is not met, naming what is missing.
enum class Requirement { kBlockDevice, kRoot, kDirectIo };
inline constexpr Named<Requirement> kRequirements[] = {
    {"block device", Requirement::kBlockDevice,
     "a block device under the directory, so that device I/O is counted"},
    {"root", Requirement::kRoot, "running as root (effective user id 0)"},
    {"O_DIRECT", Requirement::kDirectIo,
     "a filesystem under the directory that opens files with O_DIRECT"},
};

// Runs per variant of one pair, also what --budget may plan.
inline constexpr std::uint64_t kMaxRepetitions = 10'000;
inline constexpr double kMaxBudgetSeconds = 7 * 24 * 3600;  // a week

struct Settings {
  std::string dir = ".";
  std::vector<std::uint64_t> sizes = kDerbySizes;
  // The shifts of the unaligned writes: each is a pair of its own against
  // the same aligned variant, aligned to every shift (AlignedUnit).
  std::vector<std::uint64_t> shifts = {24};
  // 32 timed writes per run: blocks are paired in time, and a shorter block
  // shares more of the disk's drift between its two runs, so the same
  // precision costs a fraction of the seconds 128 writes cost
  // (scripts/run-length-check; docs/methodology.md, "Run length"). Derby's
  // case keeps its 128 and log cases their own count.
  std::uint64_t writes = 32;
  std::uint64_t warmup = 0;
  // A log writer's group commit: this many commits' writes, then one sync
  // (1: a sync per commit). `writes` and `warmup` count commits, a multiple
  // of it; every figure of a run is per commit, its share of the sync in.
  std::uint64_t commits_per_sync = 1;
  // A leader's group commit, as engines make it: a group's records written
  // as one write, then one sync; K commits a group on average, fractional K
  // as groups of floor(K) and ceil(K) commits (GroupSize in
  // lib/measure/pattern.h). Unset: a write and a sync per commit.
  std::optional<double> group_commit;
  // Writer threads that write a group's commits at once, each taking the
  // next place in the log; one sync for the group after all (1: one writer).
  std::uint64_t writers = 1;
  // Direct-I/O writes in flight: a group's writes submitted at once through
  // io_uring and all awaited, then its sync, if the method makes one.
  std::uint64_t queue_depth = 1;
  // RWF_ATOMIC on every timed write (--atomic on): direct I/O only.
  AtomicWrites atomic = AtomicWrites::kOff;
  // Blocks per pair in the first round (or the whole run, when given without
  // --budget): by default the 8 a firm verdict needs
  // (kMinBlocksForFirmVerdict; 6 give a verdict that can only lean), and the
  // rounds of --budget add blocks where the interval is still wider than the
  // precision (lib/stats/sequential.h). 10 until 2026-12-02, 6 until 12-06.
  std::uint64_t repetitions = kMinBlocksForFirmVerdict;
  // The axes that may take several values; a plan measures every
  // combination.
  std::vector<SyncMethod> syncs = {SyncMethod::kFsync};
  std::vector<IoMode> ios = {IoMode::kBuffered};
  std::vector<Layout> layouts = {Layout::kExtend};
  std::vector<CacheState> caches = {CacheState::kWarm};
  DirectUnaligned direct_unaligned = DirectUnaligned::kReport;
  // The order of the runs (lib/config/schedule.h); chosen afresh and recorded
  // when not given.
  std::optional<std::uint64_t> seed;
  // --budget: after the first `repetitions` blocks, rounds until every
  // pair's interval is known to +-precision_points or this many seconds of
  // measuring have passed (lib/stats/sequential.h). Unset: a fixed design of
  // `repetitions` blocks.
  std::optional<double> budget_seconds;
  double precision_points = 5;
  // From a case file: what it is for and what a correct run shows.
  std::string case_name;
  std::string case_description;
  std::string case_expect;
  std::vector<Requirement> case_requires;
  // From a case file's "log" object: the log-append workload. Unset: Derby's
  // (a header of `shift` bytes against none; see WorkloadOf).
  std::optional<LogWorkload> log;
  // --replay: a recorded trace's commits instead of a workload's (replay.h).
  // Shared: every run's spec reads the same commits.
  std::shared_ptr<const Replay> replay;
};

// The unit the aligned variant of Derby's workload is aligned to: the log
// block (4 KiB), or the smallest power of two past the largest of `shifts`,
// so that every pair of a plan has the same aligned variant and a shift of a
// whole 4 KiB (or more) asks whether alignment to it is as good as to the
// next power of two (`alignbench unit`), never measures a variant against
// itself.
std::uint64_t AlignedUnit(const std::vector<std::uint64_t>& shifts);

// The workload the runs of a pair of `shift` write by: the case's, or Derby's
// (a header of `shift` bytes against it padded to AlignedUnit). Without a
// shift: the first of the settings'.
LogWorkload WorkloadOf(const Settings& settings);
LogWorkload WorkloadOf(const Settings& settings, std::uint64_t shift);

// One pair, the unit of one measurement: one size under one combination of the
// axes, written once aligned and once unaligned; its %gain compares the two.
// The first five members are its identity (KeyOf); a pair of the plan also
// carries what each variant writes (a pair read from a result does not).
struct PairSpec {
  std::uint64_t size;
  SyncMethod sync;
  IoMode io;
  Layout layout;
  CacheState cache;
  // The unaligned variant's shift in bytes (Derby's header; a case's log
  // rules say theirs and keep the settings' one value).
  std::uint64_t shift = 24;
  VariantWrites unaligned_writes = {};
  VariantWrites aligned_writes = {};
  const VariantWrites& WritesOf(Variant variant) const {
    return variant == Variant::kAligned ? aligned_writes : unaligned_writes;
  }
};

// A pair's identity, to match and index pairs across runs and results.
using PairKey = std::tuple<std::uint64_t, SyncMethod, IoMode, Layout,
                           CacheState, std::uint64_t>;
inline PairKey KeyOf(const PairSpec& s) {
  return {s.size, s.sync, s.io, s.layout, s.cache, s.shift};
}

// Every combination of the axes, shifts outermost (a group of pairs per
// shift), each with the sizes in the order given, and what each variant
// writes under the pair's workload (WritesFor).
std::vector<PairSpec> ExpandPlan(const Settings& settings);

// The commits of one timed step, which share its sync: a group commit's, one
// per writer thread, or the writes in flight together (1: one commit a step).
// Validate holds the three settings to one group.
inline std::uint64_t CommitsPerStep(const Settings& s) {
  return std::max({s.commits_per_sync, s.writers, s.queue_depth});
}

// K of --group-commit in thousandths of a commit: the group sizes are drawn
// from it exactly (GroupSize); 0 where it is not set.
inline std::uint64_t GroupMillis(const Settings& s) {
  return s.group_commit
             ? static_cast<std::uint64_t>(*s.group_commit * 1000 + 0.5)
             : 0;
}

// The timed steps of a run: its commits by the step's fixed group, or the
// groups of --group-commit that hold its `writes` commits (the first m
// groups hold floor(m K) commits).
inline std::uint64_t StepsPerRun(const Settings& s, std::uint64_t commits) {
  const std::uint64_t k = GroupMillis(s);
  if (k == 0) return commits / CommitsPerStep(s);
  return (commits * 1000 + k - 1) / k;
}

}  // namespace alignbench
