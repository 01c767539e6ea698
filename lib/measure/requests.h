// The block layer's requests during a run, told apart by where they land:
// the benchmark's own file (its extents), the filesystem's journal and
// metadata, and everything else. Pure: the events come from tracefs's text
// (block_trace.h reads them), the file's extents from FIEMAP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/measure/counters.h"

namespace alignbench {

// One line of a trace of block:block_bio_queue, block:block_rq_issue or
// block:block_rq_complete, as tracefs prints it with the record-tgid option.
struct BlockEvent {
  enum class Kind { kQueue, kIssue, kComplete };
  Kind kind = Kind::kIssue;
  // The process (thread group) that was running; -1 where the trace did not
  // record it.
  std::int64_t tgid = -1;
  // The trace clock's time of the event
  std::int64_t time_ns = 0;
  // "WS", "R", "FF", "WSM", ... (blktrace's letters: R read, W write,
  // F flush (leading) or FUA, S sync, M metadata, D discard)
  std::string rwbs;
  // In 512-byte units of the whole disk
  std::uint64_t sector = 0;
  std::uint64_t sectors = 0;
  // The task that queued a bio (kQueue only; what the event prints last)
  std::string comm;
};

// nullopt for a line that is no such event (a header, another event).
std::optional<BlockEvent> ParseBlockEvent(std::string_view line);

// A trace's text: its events, and whether the ring lost some ("#
// entries-in-buffer/entries-written: A/B" with A < B).
struct ParsedTrace {
  std::vector<BlockEvent> events;
  bool lost = false;
};
ParsedTrace ParseTrace(std::string_view text);

// [first, end) in 512-byte units of the whole disk.
struct SectorRange {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
};

// What the device did during a run, three ways: each part's requests counted
// as /sys/block/*/stat counts them (flushes always known), and the time at
// least one of the file's or the filesystem's requests was at the device
// (issue to completion), which may not exceed the run's own span.
struct RequestAccount {
  DeviceCounters file;
  DeviceCounters filesystem;
  DeviceCounters others;
  std::uint64_t device_ns = 0;
};

// A request with data goes to `file` where it overlaps one of `file_ranges`,
// to `filesystem` where it is metadata (M: a journal's or the filesystem's
// own blocks), to `others` otherwise. A flush carries no sector: it is the
// part of the last bio queued with a flush before it (a journal commit's is
// the filesystem's), or of an empty flush bio's process (`self_tgid`'s is the
// file's; a journal thread's, jbd2 or xfs, the filesystem's).
RequestAccount AccountRequests(const std::vector<BlockEvent>& events,
                               const std::vector<SectorRange>& file_ranges,
                               std::int64_t self_tgid);

// The sum of the three parts.
DeviceCounters TotalOf(const RequestAccount& account);

}  // namespace alignbench
