#include "lib/trace/case_of_trace.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/config/log_rules.h"
#include "lib/config/replay.h"

namespace alignbench {

using nlohmann::json;

std::optional<json> CaseOfTrace(const Trace& trace, const std::string& name) {
  if (trace.files.size() != 1) return std::nullopt;
  // The commits that write; the first tenth (at least one) is the program
  // setting up (SQLite's CREATE TABLE) and not held to the rule.
  std::vector<const TraceCommit*> writing;
  for (const TraceCommit& c : trace.commits) {
    if (c.ops.size() >= 2) writing.push_back(&c);
  }
  const std::size_t skip = std::max<std::size_t>(1, writing.size() / 10);
  if (writing.size() < skip + 2) return std::nullopt;
  std::optional<std::uint64_t> length;
  std::optional<TraceSync> call;
  std::optional<std::uint64_t> end;
  std::uint64_t first = 0;
  for (std::size_t k = skip; k < writing.size(); ++k) {
    const TraceCommit& c = *writing[k];
    std::uint64_t start = c.ops[0].offset, at = start;
    for (std::size_t i = 0; i + 1 < c.ops.size(); ++i) {
      const TraceOp& op = c.ops[i];
      if (op.kind != TraceOpKind::kWrite || op.offset != at) {
        return std::nullopt;
      }
      at += op.length;
    }
    const TraceSync sync = c.ops.back().call;
    if ((call && *call != sync) || (length && *length != at - start) ||
        (end && *end != start)) {
      return std::nullopt;
    }
    if (!end) first = start;
    call = sync;
    length = at - start;
    end = at;
  }
  // Commits of one length, one after another: a header of what is left of
  // the log's start once whole commits are taken off (Derby's workload).
  first %= *length;
  const TraceFile& file = trace.files[0];
  const std::optional<SyncMethod> method = SyncMethodOf(*call);
  // no sync method of a case does only sync_file_range
  if (!method) return std::nullopt;
  const std::string sync(NameOf(kSyncMethods, *method));
  const char* layout = file.state == FileState::kNew            ? "extend"
                       : file.state == FileState::kPreallocated ? "prealloc"
                                                                : "prewritten";
  json c = {
      {"name", name},
      {"description",
       "Recorded from " + (trace.argv.empty() ? "?" : trace.argv[0]) + " (" +
           trace.version + ") by alignbench record: each commit writes " +
           std::to_string(*length) + " contiguous bytes after a " +
           std::to_string(first) + "-byte header, then " +
           std::string(NameOf(kTraceSyncs, *call)) + ", in a " +
           std::string(NameOf(kFileStates, file.state)) +
           " file. The aligned variant drops the header, so that commits "
           "start on multiples of their own length."},
      {"expect",
       "Columns unaligned | aligned: the commits as recorded against the "
       "same commits without the header."},
      {"sizes", {std::to_string(*length)}},
      {"writes", std::min<std::size_t>(trace.commits.size(), 128)},
      {"sync", sync},
      {"io", file.HasFlag("O_DIRECT") ? "direct" : "buffered"},
      {"layout", layout},
      {"log", {{"header", first}}}};
  if (file.state == FileState::kRecycled) c["cache"] = "cold";
  return c;
}

}  // namespace alignbench
