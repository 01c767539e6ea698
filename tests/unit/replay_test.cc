// lib/config/replay.h: a trace made a pair. Aligned traces are shifted,
// unaligned ones aligned commit by commit; the log file, its sync and state
// come from the trace; and the runs write exactly the variant's commits.
#include "lib/config/replay.h"

#include <dirent.h>
#include <linux/fs.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "lib/measure/run.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

std::string FixtureText() {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR
                   "/tests/cli/fixtures/trace-sqlite-3.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Trace Fixture() {
  Result<Trace> t = ParseTrace(FixtureText(), "fixture");
  REQUIRE(t);
  return t.value();
}

// An aligned trace: 8 KiB pages, the last one rewritten, fdatasync; and a
// second file synced once that is not the log.
Trace Pages() {
  Trace t;
  t.files = {TraceFile{"/w/000001", {"O_RDWR"}, FileState::kRecycled, 1 << 24},
             TraceFile{"/w/control", {"O_RDWR"}, FileState::kRecycled, 8192}};
  for (std::uint64_t k = 0; k < 4; ++k) {
    TraceCommit c;
    c.ops.push_back({OpKind::kWrite, 0, k / 2 * 8192, 8192, {}});
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync});
    t.commits.push_back(c);
  }
  t.commits[3].ops.insert(t.commits[3].ops.begin(),
                          {OpKind::kWrite, 1, 0, 512, {}});
  return t;
}

}  // namespace

TEST_CASE(
    "replay: SQLite's unaligned frames beside the same stream in whole "
    "blocks") {
  Result<Replay> r = ReplayOf(Fixture(), "f.json", FixtureText(), 512);
  REQUIRE(r);
  const Replay& replay = r.value();
  CHECK(replay.rule == ReplayRule::kWholeBlocks);
  CHECK(replay.sync == SyncMethod::kFdatasync);
  CHECK(replay.commits == 3);
  CHECK(replay.bytes_per_commit == 4120);
  CHECK(replay.unaligned.header == 32);
  CHECK(replay.unaligned.commits[1][0].offset == 4152);
  CHECK(replay.unaligned.name == "as recorded");
  CHECK(replay.unaligned.bytes_per_commit == 4120);
  CHECK(replay.unaligned.file_bytes == 12392);  // 32 + 3 x 4120
  // Each commit writes the whole blocks its bytes touch, once, then syncs:
  // [32, 4152) -> [0, 8192); [4152, 8272) -> [4096, 12288); the block a
  // commit leaves partly filled is written again by the next.
  const auto& aligned = replay.aligned.commits;
  REQUIRE(aligned[0].size() == 2);
  CHECK(aligned[0][0].offset == 0);
  CHECK(aligned[0][0].length == 8192);
  CHECK(aligned[0][1].kind == OpKind::kSync);
  CHECK(aligned[1][0].offset == 4096);
  CHECK(aligned[1][0].length == 8192);
  CHECK(aligned[2][0].offset == 8192);
  CHECK(replay.aligned.name == "whole blocks");
  CHECK(replay.aligned.bytes_per_commit == 8192);
  CHECK(replay.aligned.file_bytes == 16384);  // the stream's, in blocks
  CHECK(replay.digest == TraceDigest(FixtureText()));
}

TEST_CASE("replay: padded, each commit on the next 4096-byte boundary") {
  Result<Replay> r =
      ReplayOf(Fixture(), "f.json", FixtureText(), 512, ReplayRule::kAlign);
  REQUIRE(r);
  CHECK(r.value().rule == ReplayRule::kAlign);
  // The first commit starts at 4096 (the header's block is taken), each next
  // one on the boundary after the one before: 4096 + 4120 -> 12288.
  const auto& aligned = r.value().aligned.commits;
  CHECK(aligned[0][0].offset == 4096);
  CHECK(aligned[0][1].offset == 4120);
  CHECK(aligned[1][0].offset == 12288);
  CHECK(aligned[2][0].offset == 20480);
  CHECK(r.value().aligned.name == "padded");
  CHECK(r.value().aligned.file_bytes == 20480 + 4120);
}

TEST_CASE("replay: aligned pages are shifted, header and all") {
  Result<Replay> r = ReplayOf(Pages(), "p.json", "x", 512);
  REQUIRE(r);
  const Replay& replay = r.value();
  CHECK(replay.rule == ReplayRule::kShift);
  CHECK(replay.log_path == "/w/000001");
  CHECK(replay.state == FileState::kRecycled);
  CHECK(replay.aligned.commits[2][0].offset == 8192);
  CHECK(replay.unaligned.commits[2][0].offset == 8192 + 512);
  CHECK(replay.unaligned.header == 512);
  CHECK(replay.aligned.name == "as recorded");
  CHECK(replay.unaligned.name == "moved by 512 B");
  // The other file's write is kept, as recorded in both variants: file 1.
  REQUIRE(replay.others.size() == 1);
  CHECK(replay.others[0].path == "/w/control");
  REQUIRE(replay.unaligned.commits[3].size() == 3);
  CHECK(replay.unaligned.commits[3][0].file == 1);
  CHECK(replay.unaligned.commits[3][0].offset == 0);
  CHECK(replay.unaligned.commits[3][1].offset == 8192 + 512);
}

TEST_CASE("replay: a run writes the variant's commits") {
  Result<Replay> r = ReplayOf(Pages(), "p.json", "x", 512);
  REQUIRE(r);
  Settings s;
  s.replay = std::make_shared<const Replay>(r.value());
  s.writes = 4;
  s.sizes = {8192};
  s.syncs = {SyncMethod::kFdatasync};
  s.layouts = {Layout::kPrewritten};
  s.caches = {CacheState::kCold};
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 1);
  RunSpec spec = SpecFor(s, plan[0], Variant::kUnaligned, 4096, {});
  CHECK(spec.layout == Layout::kPrewritten);
  CHECK(spec.cache == CacheState::kCold);
  CHECK(spec.pattern.HeaderBytes() == 512);
  const CommitOps& first = spec.pattern.Next();
  REQUIRE(first.size() == 2);
  CHECK(first[0].offset == 512);
  CHECK(first[1].kind == OpKind::kSync);
  CHECK(spec.pattern.Over(0, 4).end == 8192 + 512 + 8192);
}

TEST_CASE("replay: refused without a writing commit or with a zero shift") {
  Trace empty = Pages();
  empty.commits.clear();
  CHECK_FALSE(ReplayOf(empty, "e.json", "", 512));
  CHECK_FALSE(ReplayOf(Pages(), "p.json", "", 0));
  CHECK(TraceDigest("") == "fnv1a64:cbf29ce484222325");
}

TEST_CASE("replay: a tie broken in deciding the run is said") {
  // Two commits end in fsync and two in fdatasync; two of the four start on
  // a 4096-byte boundary.
  Trace t = Pages();
  t.commits.pop_back();
  TraceCommit odd;
  odd.ops.push_back({OpKind::kWrite, 0, 100, 512, {}});
  odd.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFsync});
  t.commits.push_back(odd);
  t.commits.push_back(odd);
  t.commits.erase(t.commits.begin());
  Result<Replay> r = ReplayOf(t, "t.json", "x", 512);
  REQUIRE(r);
  REQUIRE(r.value().notes.size() == 4);
  // An aligned stream is said first: the pair is not its engineers' choice.
  CHECK_THAT(r.value().notes[0],
             Catch::StartsWith("the program writes its log on 4096-byte "
                               "boundaries already (2 of 4 commits"));
  CHECK_THAT(r.value().notes[1],
             Catch::StartsWith("as many commits end in fdatasync as in "
                               "fsync (2 each): the pair is named by fsync"));
  CHECK_THAT(r.value().notes[2],
             Catch::StartsWith("1 other file of the trace"));
  CHECK_THAT(r.value().notes[3], Catch::StartsWith("half the commits start"));
  CHECK(r.value().rule == ReplayRule::kShift);
  // Without a tie, the aligned stream and the other file are said.
  CHECK(ReplayOf(Pages(), "p.json", "x", 512).value().notes.size() == 2);
}

TEST_CASE("replay: truncates and allocations are made by every variant") {
  // A log that reserves room past its end, writes, and is cut back to 0 and
  // written again from its start (a WAL reset).
  Trace t = Fixture();
  t.header.reset();
  t.commits[1].ops.insert(t.commits[1].ops.begin(),
                          {OpKind::kAllocate, 0, 8192, 65536, {}, true});
  t.commits[2].ops = {{OpKind::kTruncate, 0, 0, 0, {}},
                      {OpKind::kWrite, 0, 100, 200, {}},
                      {OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync}};
  Result<Replay> whole = ReplayOf(t, "t.json", "x", 512);
  REQUIRE(whole);
  // Whole blocks: the allocation and the truncation kept, in their places.
  const auto& w = whole.value().aligned.commits;
  REQUIRE(w[1].size() == 3);
  CHECK(w[1][0].kind == OpKind::kAllocate);
  CHECK(w[1][0].keep_size);
  CHECK(w[1][1].kind == OpKind::kWrite);
  REQUIRE(w[2].size() == 3);
  CHECK(w[2][0].kind == OpKind::kTruncate);
  CHECK(w[2][1].offset == 0);
  CHECK(w[2][1].length == 4096);
  // Padded: moved with the commit they belong to.
  Result<Replay> padded = ReplayOf(t, "t.json", "x", 512, ReplayRule::kAlign);
  REQUIRE(padded);
  const auto& p = padded.value().aligned.commits;
  CHECK(p[1][0].offset == p[1][1].offset + 8192 - t.commits[1].ops[1].offset);
  // The run's pattern has them, and Over counts the truncated blocks new
  // again.
  Settings s;
  s.replay = std::make_shared<const Replay>(whole.value());
  s.writes = 3;
  s.sizes = {4120};
  s.syncs = {SyncMethod::kFdatasync};
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 1);
  RunSpec spec = SpecFor(s, plan[0], Variant::kUnaligned, 4096, {});
  spec.pattern.Next();
  const Op reserve = spec.pattern.Next()[0];
  CHECK(reserve.kind == OpKind::kAllocate);
  CHECK(reserve.keep_size);
  CHECK(spec.pattern.Next()[0].kind == OpKind::kTruncate);
  CHECK(spec.pattern.Over(0, 3).new_block_commits == 3);
  CHECK(spec.pattern.Over(0, 3).end == 8192 + 65536);
}

TEST_CASE(
    "replay: a recycled file the commits only append to grows as a new one") {
  // Redis's AOF recorded by --pid: 651 bytes before, every commit after them.
  Trace t = Fixture();
  t.header.reset();
  t.files[0].state = FileState::kRecycled;
  t.files[0].size_at_open = 32;
  Result<Replay> appended = ReplayOf(t, "t.json", "x", 512);
  REQUIRE(appended);
  CHECK(appended.value().layout == Layout::kExtend);
  REQUIRE(appended.value().notes.size() == 1);
  CHECK_THAT(appended.value().notes[0],
             Catch::Contains("held 32 B when the trace began") &&
                 Catch::Contains("layout extend"));
  // One write inside what it held: its old bytes are overwritten, prewritten.
  t.files[0].size_at_open = 33;
  Result<Replay> recycled = ReplayOf(t, "t.json", "x", 512);
  REQUIRE(recycled);
  CHECK(recycled.value().layout == Layout::kPrewritten);
  CHECK(recycled.value().notes.empty());
  CHECK(ReplayOf(Pages(), "p.json", "x", 512).value().layout ==
        Layout::kPrewritten);
}

namespace {

// Counts what a replay's run asks of the kernel.
class Calls final : public FileOpsWrapper {
 public:
  Calls() : FileOpsWrapper(SystemFileOps()) {}
  int Create(const char* path, int flags, mode_t mode) override {
    ++creates;
    return FileOpsWrapper::Create(path, flags, mode);
  }
  ssize_t PwriteFlags(int fd, const void* b, std::size_t n, off_t o,
                      int flags) override {
    flagged.push_back(flags);
    return FileOpsWrapper::PwriteFlags(fd, b, n, o, flags);
  }
  int Fsync(int fd) override {
    ++fsyncs;
    return FileOpsWrapper::Fsync(fd);
  }
  int UnlinkAt(int dir, const char* name) override {
    ++unlinks;
    return FileOpsWrapper::UnlinkAt(dir, name);
  }
  int creates = 0, fsyncs = 0, unlinks = 0;
  std::vector<int> flagged;
};

// Two transactions of a rollback journal beside the database, and a meta
// page written through an O_DSYNC descriptor.
Trace Journal() {
  Trace t;
  t.files = {TraceFile{"/d/t.db", {"O_RDWR"}, FileState::kNew, 0},
             TraceFile{"/d/t.db-journal", {"O_RDWR"}, FileState::kNew, 0}};
  for (std::uint64_t k = 0; k < 2; ++k) {
    TraceCommit c;
    if (k > 0) {
      c.ops.push_back({OpKind::kUnlink, 1, 0, 0, {}});
      c.ops.push_back({OpKind::kCreate, 1, 0, 0, {}});
    }
    c.ops.push_back({OpKind::kWrite, 1, 0, 4616, {}});
    c.ops.push_back({OpKind::kSync, 1, 0, 0, SyncCall::kFdatasync});
    c.ops.push_back({OpKind::kSyncDir, 0, 0, 0, SyncCall::kFsync});
    c.ops.push_back({OpKind::kWrite, 0, k * 4096, 4096, {}});
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFsync});
    c.ops.push_back({OpKind::kWrite, 0, 0, 100, {}});
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kODsync});
    t.commits.push_back(c);
  }
  return t;
}

}  // namespace

TEST_CASE("replay: every file of a commit, each op with its own call") {
  Result<Replay> r = ReplayOf(Journal(), "j.json", "x", 512);
  REQUIRE(r);
  const Replay& replay = r.value();
  // The journal is unlinked and made again: the database is the log.
  CHECK(replay.log_path == "/d/t.db");
  REQUIRE(replay.others.size() == 1);
  CHECK(replay.commits == 2);
  TempDir dir;
  Settings s;
  s.dir = dir.path();
  s.replay = std::make_shared<const Replay>(replay);
  s.writes = 2;
  s.sizes = {replay.bytes_per_commit};
  s.syncs = {replay.sync};
  s.layouts = {replay.layout};
  s.caches = {CacheState::kWarm};
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 1);
  Calls calls;
  RunSpec spec = SpecFor(s, plan[0], Variant::kUnaligned, 4096, {});
  spec.ops = &calls;
  CHECK(spec.sync == SyncMethod::kNone);
  REQUIRE(spec.others.size() == 1);
  {
    auto prepared = Run::Prepare(spec);
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    CHECK(calls.creates == 2);  // the log and the journal
    const int fsyncs = calls.fsyncs;
    REQUIRE(run.Step());
    // The directory's fsync and the database's; the journal's fdatasync and
    // the O_DSYNC meta page are not fsyncs.
    CHECK(calls.fsyncs - fsyncs == 2);
    CHECK(calls.flagged == std::vector<int>{RWF_DSYNC});
    REQUIRE(run.Step());
    CHECK(calls.unlinks == 1);
    CHECK(calls.creates == 3);
    run.Finish(std::nullopt);
  }
  // Every file the run made is gone.
  CHECK(calls.unlinks == 3);
  DIR* d = ::opendir(dir.path().c_str());
  int entries = 0;
  while (const dirent* e = ::readdir(d)) entries += e->d_name[0] != '.';
  ::closedir(d);
  CHECK(entries == 0);
}

TEST_CASE("replay: whole blocks keep every sync and skip the blocks between") {
  // A header rewrite at 0 and an append at 1 MiB in one commit, synced twice.
  Trace t;
  t.files = {TraceFile{"/d/aof", {"O_WRONLY"}, FileState::kNew, 0}};
  for (std::uint64_t k = 0; k < 3; ++k) {
    TraceCommit c;
    c.ops.push_back({OpKind::kWrite, 0, 10, 24, {}});
    c.ops.push_back({OpKind::kWrite, 0, (1 << 20) + 100 * k + 7, 100, {}});
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync});
    c.ops.push_back({OpKind::kWrite, 0, (1 << 20) + 100 * k + 107, 20, {}});
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync});
    t.commits.push_back(c);
  }
  Result<Replay> r = ReplayOf(t, "a.json", "x", 512);
  REQUIRE(r);
  REQUIRE(r.value().rule == ReplayRule::kWholeBlocks);
  const std::vector<Op>& c = r.value().aligned.commits[1];
  REQUIRE(c.size() == 5);
  CHECK(c[0].offset == 0);
  CHECK(c[0].length == 4096);
  CHECK(c[1].offset == 1 << 20);
  CHECK(c[1].length == 4096);
  CHECK(c[2].kind == OpKind::kSync);
  CHECK(c[3].length == 4096);
  CHECK(c[4].kind == OpKind::kSync);
}

TEST_CASE("replay: writes strace could not see are said, not measured away") {
  // tdb in its default mode writes through a shared mapping: the trace holds
  // its syncs and a few writes, and the replay says it is not the program.
  Trace t = Pages();
  Result<Replay> plain = ReplayOf(t, "p.json", "p", 512);
  REQUIRE(plain);
  for (const std::string& note : plain.value().notes) {
    CHECK(note.find("does not reproduce") == std::string::npos);
  }
  t.limits.push_back(
      "mmap of /w/000001 with PROT_WRITE and MAP_SHARED: writes through the "
      "mapping are not traced");
  Result<Replay> mapped = ReplayOf(t, "p.json", "p", 512);
  REQUIRE(mapped);
  bool said = false;
  for (const std::string& note : mapped.value().notes) {
    said = said ||
           (note.find("MAP_SHARED") != std::string::npos &&
            note.find("does not reproduce the program") != std::string::npos);
  }
  CHECK(said);
}

TEST_CASE("replay: a layout from before the trace is said before measuring") {
  // SQLite's PERSIST journal recorded by --pid lay in two extents; the
  // replay's prewritten file lies in one, and says so.
  Trace t = Pages();
  t.limits.push_back(
      "layout: /w/000001 was in 2 extents when the trace began; a replay "
      "lays its file out anew (prewritten or preallocated in one go): the "
      "layout from before is not reproduced");
  Result<Replay> r = ReplayOf(t, "p.json", "p", 512);
  REQUIRE(r);
  bool said = false;
  for (const std::string& note : r.value().notes) {
    said = said ||
           (note.find("2 extents") != std::string::npos &&
            note.find("does not reproduce the program") != std::string::npos);
  }
  CHECK(said);
}
