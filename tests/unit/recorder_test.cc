// lib/trace/recorder.h: the recorder beneath `alignbench record`, its parts
// that need no strace: the process --pid names, and the trace in words. The
// recording itself (strace, a real program) is
// tests/integration/record_replay.sh's.
#include "lib/trace/recorder.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace alignbench;

TEST_CASE("recorder: --pid takes a running process's plain number only") {
  for (const char* bad : {"", "0", "-1", "01", "12a", "99999999999"}) {
    Result<pid_t> pid = TargetPid(bad);
    REQUIRE_FALSE(pid);
    CHECK(pid.error().Message().find("option --pid") != std::string::npos);
  }
  // Record itself is refused: strace would trace record.
  Result<pid_t> self = TargetPid(std::to_string(::getpid()));
  REQUIRE_FALSE(self);
  CHECK(self.error().Message().find("record itself") != std::string::npos);
}

TEST_CASE("recorder: Describe names each kind of op, and what is unsynced") {
  Trace trace;
  trace.argv = {"/usr/bin/prog"};
  trace.version = "1.0";
  trace.files.push_back({"/db/log", {"O_WRONLY"}, FileState::kNew, 0});
  trace.commits.push_back({{{OpKind::kWrite, 0, 0, 100},
                            {OpKind::kTruncate, 0, 0, 4096},
                            {OpKind::kRead, 0, 0, 100},
                            {OpKind::kStat, 0},
                            {OpKind::kSyncDir, 0, 0, 0, SyncCall::kFsync},
                            {OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync}}});
  // After the last sync: a write and a read, not "2 writes".
  trace.after_last_commit = {{OpKind::kWrite, 0, 100, 10},
                             {OpKind::kRead, 0, 0, 10}};
  std::ostringstream out;
  Describe(out, trace, "prog.trace.json");
  const std::string text = out.str();
  CHECK(text.find("recorded 1 commits (1 syncs) of /usr/bin/prog (1.0)") !=
        std::string::npos);
  CHECK(text.find("1 writes, 100 B, 1 syncs, 1 ftruncate, 1 reads, 1 stats, "
                  "1 directory syncs\n") != std::string::npos);
  CHECK(text.find("fallocate") == std::string::npos);
  CHECK(text.find("synced by no commit): 1 writes, 1 reads\n") !=
        std::string::npos);
  CHECK(text.find("trace saved to prog.trace.json") != std::string::npos);
}
