// The log-append workload: the rules by which a log writer turns
// each commit's record into one write, and the one rule the two variants of a
// pair differ in (the contrast). Derby's fixed-size sweep is this workload's
// simplest setting: records of one size, a header of `shift` bytes, no
// rounding, and the header as the contrast. Case files set it under "log".
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "lib/base/error.h"
#include "lib/base/named.h"
#include "lib/config/axes.h"

namespace alignbench {

// The rule a pair's two variants differ in. The "unaligned" variant is the
// engine as configured, the "aligned" one the alternative the user asks about.
enum class LogContrast { kFraming, kPad, kFill, kFile };
inline constexpr Named<LogContrast> kLogContrasts[] = {
    {"framing", LogContrast::kFraming,
     "aligned variant: the file header padded to whole 4096-byte blocks and "
     "no record headers, so records start on block boundaries"},
    {"pad", LogContrast::kPad,
     "aligned variant: a write that reaches past what was written ahead is "
     "padded to a multiple of `aligned` bytes (InnoDB write-ahead)"},
    {"fill", LogContrast::kFill,
     "aligned variant: at commit the last record is repeated until the log "
     "reaches a multiple of `aligned` bytes (SQLite sector padding)"},
    {"file", LogContrast::kFile,
     "the variants write into files in different states (`unaligned`, "
     "`aligned`)"},
};

// The state of the log file before the first commit.
enum class FileState { kNew, kPreallocated, kRecycled };
inline constexpr Named<FileState> kFileStates[] = {
    {"new", FileState::kNew, "an empty file that grows with every commit"},
    {"preallocated", FileState::kPreallocated,
     "fallocate(2)d first: unwritten extents"},
    {"recycled", FileState::kRecycled,
     "written with old data and synced, then dropped from the page cache"},
};

// Where the sync of a commit with sector fill goes.
enum class FillSync { kEnd, kBoundary };
inline constexpr Named<FillSync> kFillSyncs[] = {
    {"end", FillSync::kEnd,
     "one write with the copies, then the sync (older case files)"},
    {"boundary", FillSync::kBoundary,
     "write up to the sector boundary, sync there, then write the copies' "
     "overshoot past it (SQLite's walWriteToLog)"},
};

// How one commit becomes its writes and sync. Blocks and chunks count from the
// end of the file header, where the log starts; pad and fill from the file's
// start, as the page cache and a sector do.
struct LogRules {
  // Bytes before the first record, written while the file is prepared.
  std::uint64_t header = 0;
  // Framing before each record (SQLite's frame header, RocksDB's record
  // header).
  std::uint64_t record_header = 0;
  // The writer writes whole blocks of this size: the partly filled last block
  // is written whole, and written again by the next commit. 0: the write
  // covers the new bytes only.
  std::uint64_t block = 0;
  // Records are cut at boundaries of this unit, each fragment with its own
  // record header; a remainder too small for a header is zero-filled
  // (RocksDB's 32 KiB blocks). 0: no such unit.
  std::uint64_t chunk = 0;
  // Write-ahead: a write that reaches past the end of what was written so far
  // is extended to a multiple of this (InnoDB innodb_log_write_ahead_size).
  // The next commit starts where the log ends, inside the padding. 0: none.
  std::uint64_t pad = 0;
  // At commit the last record (with its header) is repeated until the log
  // reaches a multiple of this; the log then goes on after the copies
  // (SQLite padToSectorBoundary). 0: none.
  std::uint64_t fill = 0;
  // With fill: whether the sync follows the whole write or sits at the
  // boundary the copies reach past.
  FillSync fill_sync = FillSync::kEnd;
};

// The block the framing contrast pads the header to by default: the page
// cache's unit, and the block of nearly every filesystem a log lives on.
inline constexpr std::uint64_t kLogBlockBytes = 4096;

struct LogWorkload {
  LogRules rules;
  LogContrast contrast = LogContrast::kFraming;
  // kPad, kFill: the rule's value in the aligned variant.
  std::uint64_t aligned_bytes = 0;
  // kFile: the file state of each variant.
  FileState unaligned_file = FileState::kNew;
  FileState aligned_file = FileState::kRecycled;
  // kFraming: the unit the aligned variant pads the header to.
  std::uint64_t framing_unit = kLogBlockBytes;
};

// Derby's workload: a header of `shift` bytes, contrasted with the same header
// padded to a whole `unit` (none where `shift` is 0: the A/A check).
LogWorkload DerbyWorkload(std::uint64_t shift,
                          std::uint64_t unit = kLogBlockBytes);

// The rules one variant writes by.
LogRules RulesFor(const LogWorkload& workload, Variant variant);

// The file state a variant's contrast sets, if the contrast is the file.
std::optional<FileState> FileFor(const LogWorkload& workload, Variant variant);

// How one variant of a pair writes, resolved once when the plan is made, so
// that a run reads it and never goes back to the workload: each commit's
// extent by `rules`, and the file as the run finds it.
struct VariantWrites {
  LogRules rules;
  Layout layout = Layout::kExtend;
  CacheState cache = CacheState::kWarm;
};

// `variant` under `workload` on a pair whose axes say `layout` and `cache`.
// A file contrast's state replaces them by the layout that makes it: new =
// extend, preallocated = prealloc, recycled = prewritten and cold (nothing of
// a recycled file is cached; ValidateLogSettings makes such a pair cold).
VariantWrites WritesFor(const LogWorkload& workload, Variant variant,
                        Layout layout, CacheState cache);

// Column headings of the two variants, at most 10 characters:
// "unaligned"/"aligned" for framing, "unpadded"/"padded", "new"/"recycled".
std::string VariantLabel(const LogWorkload& workload, Variant variant);

// The case file's "log" object over `workload` (absent: Derby's); `origin`
// names the file in errors. Rule keys: header, record_header, block, chunk,
// pad, fill (byte sizes), fill_sync (a kFillSyncs name; absent: end);
// contrast (a kLogContrasts name); aligned (bytes for pad and fill) or
// unaligned/aligned (kFileStates names for file).
Result<LogWorkload> ParseLogCase(const nlohmann::json& value,
                                 const std::string& origin,
                                 LogWorkload workload);

// Bounds: every size at most 1 GiB, block/chunk/pad/fill powers of two, a
// chunk larger than a record header, fill_sync boundary only with a fill, and a
// contrast whose aligned variant differs from the unaligned one.
Status ValidateLog(const LogWorkload& workload);

}  // namespace alignbench
