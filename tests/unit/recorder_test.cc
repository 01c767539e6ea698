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
  // A trace from before version 3 says nothing of tracing; one of now says
  // what it did, or why that is not known, before where it is saved.
  CHECK(text.find("tracing") == std::string::npos);
  trace.tracing = TracingEffect{std::nullopt, std::nullopt,
                                "recorded from the start: there is no "
                                "untraced window to compare"};
  std::ostringstream now;
  Describe(now, trace, "prog.trace.json");
  CHECK_THAT(now.str(),
             Catch::Contains("  what tracing did to the grouping is not "
                             "known: recorded from the start: there is no "
                             "untraced window to compare\ntrace saved to"));
}

TEST_CASE("recorder: wrote nothing says why: io_uring, syncfs, O_TMPFILE") {
  Recording plan;
  plan.program = {"prog"};
  RecordedRun ring;
  ring.trace.limits = {
      "io_uring_setup seen: writes through io_uring are not traced"};
  const std::string uring = NothingTraced(plan, ring).Message();
  CHECK_THAT(uring, Catch::Contains("prog wrote nothing to trace") &&
                        Catch::Contains("through io_uring cannot be recorded"));
  // Commits made durable by syncfs alone: no file was written and synced.
  RecordedRun syncfs;
  syncfs.trace.limits = {
      "sync or syncfs: 3 calls that make every file of a filesystem "
      "durable; ..."};
  const std::string all = NothingTraced(plan, syncfs).Message();
  CHECK_THAT(all, Catch::Contains("sync or syncfs: 3 calls") &&
                      Catch::Contains("name its files with --file"));
  // A log made by O_TMPFILE, which --file did not name.
  plan.options.globs = {"/d/log"};
  RecordedRun tmp;
  tmp.written_elsewhere = {"/d/#1234"};
  const std::string unnamed = NothingTraced(plan, tmp).Message();
  CHECK_THAT(unnamed, Catch::Contains("it wrote and synced /d/#1234") &&
                          Catch::Contains("made by O_TMPFILE"));
}

TEST_CASE("recorder: a server started through setpriv is named, not setpriv") {
  const std::vector<std::string> command = {
      "setpriv", "--reuid=redis", "redis-server", "/etc/redis/redis.conf"};
  CHECK(ProgramRan(command, "/usr/bin/setpriv", "/usr/bin/redis-server") ==
        std::vector<std::string>{"redis-server", "/etc/redis/redis.conf"});
  // The program itself, or nothing seen: the command as given.
  CHECK(ProgramRan(command, "/usr/bin/setpriv", "/usr/bin/setpriv") == command);
  CHECK(ProgramRan(command, "/usr/bin/setpriv", "") == command);
  // A program no word of the command names (sh -c "..."): its path.
  CHECK(ProgramRan({"sh", "-c", "sqlite3 db < x.sql"}, "/usr/bin/sh",
                   "/usr/bin/sqlite3") ==
        std::vector<std::string>{"/usr/bin/sqlite3"});
}
