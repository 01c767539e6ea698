#include "lib/trace/case_of_trace.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/config/case_file.h"
#include "lib/config/log_rules.h"
#include "lib/config/replay.h"
#include "lib/trace/tracing_effect.h"

namespace alignbench {

using nlohmann::json;

namespace {

// What every commit after the first tenth does: `length` contiguous bytes
// from where the one before ended, then `call`; `first` is where the first
// of them starts. Where each writes them in `writes` calls of one length
// (MariaDB's binlog with sync_binlog=4: four 180-byte writes, then
// fdatasync), a case's commit is one write and `writes` of them share a sync.
struct Shape {
  std::uint64_t length = 0;
  SyncCall call = SyncCall::kFdatasync;
  std::uint64_t first = 0;
  std::uint64_t writes = 1;
};

// The number of writes of a commit, if all have one length; else 0.
std::uint64_t EqualWrites(const TraceCommit& c) {
  for (std::size_t i = 0; i + 1 < c.ops.size(); ++i) {
    if (c.ops[i].length != c.ops[0].length) return 0;
  }
  return c.ops.size() - 1;
}

std::optional<Shape> ShapeOf(const Trace& trace) {
  // The commits that write; the first tenth (at least one) is the program
  // setting up (SQLite's CREATE TABLE) and not held to the rule.
  std::vector<const TraceCommit*> writing;
  for (const TraceCommit& c : trace.commits) {
    if (c.ops.size() >= 2) writing.push_back(&c);
  }
  const std::size_t skip = std::max<std::size_t>(1, writing.size() / 10);
  if (writing.size() < skip + 2) return std::nullopt;
  std::optional<Shape> shape;
  std::uint64_t end = 0;
  for (std::size_t k = skip; k < writing.size(); ++k) {
    const TraceCommit& c = *writing[k];
    std::uint64_t start = c.ops[0].offset, at = start;
    for (std::size_t i = 0; i + 1 < c.ops.size(); ++i) {
      const Op& op = c.ops[i];
      if (op.kind != OpKind::kWrite || op.offset != at) {
        return std::nullopt;
      }
      at += op.length;
    }
    const SyncCall sync = c.ops.back().call;
    if (shape &&
        (shape->call != sync || shape->length != at - start || end != start)) {
      return std::nullopt;
    }
    if (!shape) shape = Shape{at - start, sync, start, EqualWrites(c)};
    if (EqualWrites(c) != shape->writes) shape->writes = 0;
    end = at;
  }
  if (shape && shape->writes == 0) shape->writes = 1;
  return shape;
}

// Where the case's commit stream starts, and the file it is written in,
// as the trace saw them: the layout a replay of it prepares (a recycled file
// the commits only append to grows as a new one does), a cold cache only for
// a recycled file the commits overwrite, and the header: in a file that grew
// from what it held when the trace began (--pid), the bytes of its last
// 4096-byte block before the first commit, so that every commit lands in its
// block where the program's did; else what is left of the log's start once
// whole commits are taken off (SQLite's 32-byte WAL header). None (0) where
// the commits start on a boundary already.
struct Start {
  Layout layout = Layout::kExtend;
  CacheState cache = CacheState::kWarm;
  std::uint64_t header = 0;
  // The file held bytes before the trace and grew past them.
  bool appended = false;
};

Start StartOf(const Trace& trace, const Shape& shape) {
  const TraceFile& file = trace.files[0];
  std::uint64_t lowest = UINT64_MAX;
  for (const TraceCommit& c : trace.commits) {
    for (const Op& op : c.ops) {
      if (op.kind == OpKind::kWrite) lowest = std::min(lowest, op.offset);
    }
  }
  Start start;
  start.layout = LayoutOfTraced(file, lowest);
  start.appended =
      file.state == FileState::kRecycled && start.layout == Layout::kExtend;
  if (start.layout == Layout::kPrewritten) start.cache = CacheState::kCold;
  start.header = start.appended ? shape.first % kLogBlockBytes
                                : shape.first % shape.length;
  return start;
}

// The file the commits go to, in words: ", then fdatasync, in a new file."
std::string FileWords(const Trace& trace, const Shape& s, const Start& start) {
  const TraceFile& file = trace.files[0];
  const std::string then =
      ", then " + std::string(NameOf(kTraceSyncs, s.call)) + ", in a ";
  if (!start.appended) {
    return then + std::string(NameOf(kFileStates, file.state)) + " file.";
  }
  return then + "file that held " + std::to_string(file.size_at_open) +
         " B when the trace began and grew with every commit (layout extend; "
         "the case writes the " +
         std::to_string(start.header) +
         " B of its last 4096-byte block as a header, so that every commit "
         "lands in its block where the program's did).";
}

// The case's description and what to expect, for a stream that starts
// `start.header` bytes in (or, where that is 0, moved by `shift` bytes).
std::pair<std::string, std::string> Words(const Trace& trace, const Shape& s,
                                          const Start& start,
                                          std::uint64_t shift) {
  const std::string writes =
      "Recorded from " + (trace.argv.empty() ? "?" : trace.argv[0]) + " (" +
      trace.version + ") by alignbench record: " +
      (s.writes > 1
           ? std::to_string(s.writes) + " commits of one " +
                 std::to_string(s.length / s.writes) + "-byte write each (" +
                 std::to_string(s.length) + " contiguous bytes)"
           : "each commit writes " + std::to_string(s.length) +
                 " contiguous bytes");
  const std::string then = FileWords(trace, s, start);
  if (start.header == 0) {
    return {writes +
                (start.appended ? " from a block boundary" : " from offset 0") +
                then +
                (start.appended ? " Its first commit starts on a 4096-byte "
                                  "boundary already"
                                : " Its commits start on multiples of their "
                                  "own length already") +
                "; the unaligned variant moves them by a " +
                std::to_string(shift) + "-byte header.",
            "Columns unaligned | aligned: the commits moved by " +
                std::to_string(shift) +
                " bytes against the commits as recorded."};
  }
  return {writes + " after a " + std::to_string(start.header) + "-byte header" +
              then +
              (start.appended
                   ? " The aligned variant pads the header to a whole block, "
                     "so that the first commit starts on a 4096-byte "
                     "boundary."
                   : " The aligned variant drops the header, so that commits "
                     "start on multiples of their own length."),
          "Columns unaligned | aligned: the commits as recorded against the "
          "same commits without the header."};
}

// The case of `shape`: `group` writes share each sync, and a run writes at
// most 128 of them in whole groups, one group at least.
json CaseJson(const Trace& trace, const Shape& shape, const std::string& name,
              SyncMethod method) {
  // Where nothing comes before the commits, they are aligned already: the
  // unaligned variant is then theirs moved by a replay's shift.
  const Start start = StartOf(trace, shape);
  const std::uint64_t header = start.header == 0 ? kReplayShift : start.header;
  auto [description, expect] = Words(trace, shape, start, header);
  // What strace did to the grouping, where a --pid recording could tell.
  if (trace.tracing && trace.tracing->untraced && trace.tracing->traced) {
    std::string said = TracingSentence(*trace.tracing);
    said[0] = 'T';
    description += " " + said + ".";
  }
  // A case's commit is one write; a group of them shares each sync.
  const std::uint64_t group = shape.writes;
  const std::uint64_t commits = std::max(
      group, std::min<std::uint64_t>(trace.commits.size() * group, 128) /
                 group * group);
  json c = {{"name", name},
            {"description", description},
            {"expect", expect},
            {"sizes", {std::to_string(shape.length / group)}},
            {"writes", commits},
            {"sync", NameOf(kSyncMethods, method)},
            {"io", trace.files[0].HasFlag("O_DIRECT") ? "direct" : "buffered"},
            {"layout", NameOf(kLayouts, start.layout)},
            {"log", {{"header", header}}}};
  if (start.cache == CacheState::kCold) c["cache"] = "cold";
  if (group > 1) c["commits_per_sync"] = group;
  return c;
}

}  // namespace

std::optional<json> CaseOfTrace(const Trace& trace, const std::string& name,
                                std::string* why_not) {
  if (trace.files.size() != 1) return std::nullopt;
  const std::optional<Shape> shape = ShapeOf(trace);
  if (!shape) return std::nullopt;
  const std::optional<SyncMethod> method = SyncMethodOf(shape->call);
  // no sync method of a case does only sync_file_range
  if (!method) return std::nullopt;
  json c = CaseJson(trace, *shape, name, *method);
  // Never a case --case would refuse: the same reading and checks as its.
  Settings settings;
  Status ok = ApplyCaseText(c.dump(), name + ".case.json", settings);
  if (ok) ok = Validate(settings);
  if (!ok) {
    if (why_not != nullptr) {
      *why_not = std::to_string(shape->writes) + " writes of " +
                 std::to_string(shape->length / shape->writes) +
                 " B share each sync, and the case they make is refused: " +
                 ok.error().Message();
    }
    return std::nullopt;
  }
  return c;
}

}  // namespace alignbench
