// The axes a run is defined by, each an enum class with one
// table that gives its name in the CLI, case files and JSON, and one line of
// help. Parsing, printing and help text all read these tables, so adding a
// value is one line.
#pragma once

#include "lib/base/named.h"

namespace alignbench {

enum class Variant { kUnaligned, kAligned };
enum class SyncMethod { kFsync, kFdatasync, kOSync, kODsync, kNone };
enum class IoMode { kBuffered, kDirect };
enum class Layout { kExtend, kPrealloc, kPrewritten };
enum class CacheState { kWarm, kCold };
// What a direct-I/O write does when its offset is not aligned as the filesystem
// demands.
enum class DirectUnaligned { kReport, kStage };
// Whether each timed write asks to be kept whole (RWF_ATOMIC).
enum class AtomicWrites { kOff, kOn };

// One name for each variant in code, output, result files and docs: the one
// whose writes start `shift` bytes after a block boundary is "unaligned" (the
// word of the question, and of Derby's column); "shift" names only the amount.
// A log case heads the two columns with its own labels ("unpadded", "new").
inline constexpr Named<Variant> kVariants[] = {
    {"unaligned", Variant::kUnaligned,
     "writes start `shift` bytes after a block boundary"},
    {"aligned", Variant::kAligned, "writes start on block boundaries"},
};
inline constexpr Named<SyncMethod> kSyncMethods[] = {
    {"fsync", SyncMethod::kFsync, "fsync(2) after every write"},
    {"fdatasync", SyncMethod::kFdatasync, "fdatasync(2) after every write"},
    {"o_sync", SyncMethod::kOSync,
     "file opened O_SYNC; each write is synchronous"},
    {"o_dsync", SyncMethod::kODsync,
     "file opened O_DSYNC; each write is synchronous"},
    {"none", SyncMethod::kNone,
     "no sync: measures the page cache, not the disk"},
};
// Whether a call follows each write (fsync, fdatasync); with o_sync and
// o_dsync the write itself is synchronous, with none nothing is synced.
constexpr bool HasSyncCall(SyncMethod method) {
  return method == SyncMethod::kFsync || method == SyncMethod::kFdatasync;
}

inline constexpr Named<IoMode> kIoModes[] = {
    {"buffered", IoMode::kBuffered, "through the page cache"},
    {"direct", IoMode::kDirect, "O_DIRECT with aligned buffers"},
};
inline constexpr Named<Layout> kLayouts[] = {
    {"extend", Layout::kExtend, "a new empty file that grows with every write"},
    {"prealloc", Layout::kPrealloc, "fallocate(2)d first: unwritten extents"},
    {"prewritten", Layout::kPrewritten,
     "zero-filled and synced first, as databases preallocate logs"},
};
inline constexpr Named<CacheState> kCacheStates[] = {
    {"warm", CacheState::kWarm, "pages of the prepared file may stay cached"},
    {"cold", CacheState::kCold,
     "POSIX_FADV_DONTNEED over the file after preparation"},
};

inline constexpr Named<DirectUnaligned> kDirectUnaligned[] = {
    {"report", DirectUnaligned::kReport,
     "report the row as not measurable (EINVAL)"},
    {"stage", DirectUnaligned::kStage,
     "write whole aligned blocks from memory, as a database's log buffer "
     "does: the partly filled first block from the write before, zeros "
     "after the end"},
};

inline constexpr Named<AtomicWrites> kAtomicWrites[] = {
    {"off", AtomicWrites::kOff, "plain writes, which a crash may tear"},
    {"on", AtomicWrites::kOn,
     "pwritev2 with RWF_ATOMIC (Linux 6.11+, direct I/O): each write is kept "
     "whole or not at all; the filesystem takes only the sizes statx names, "
     "each at an offset aligned to it, and refuses the rest (EINVAL), which "
     "the pair then reports as not measurable"},
};

}  // namespace alignbench
