// lib/trace/strace_reader.h: strace's real output (tests/fixtures/strace/) made
// a trace: positions followed, commits cut at syncs and O_DSYNC writes, files'
// states, what strace cannot see named.
#include "lib/trace/strace_reader.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

using namespace alignbench;

namespace {

std::string Fixture(const std::string& name) {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR "/tests/fixtures/strace/" + name);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE_FALSE(text.str().empty());
  return text.str();
}

// A commit's operations as text: "w0:100+4120 s:fsync" (file:offset+length).
std::string OpsWithFiles(const std::vector<Op>& ops) {
  std::string text;
  for (const Op& op : ops) {
    if (!text.empty()) text += " ";
    if (op.kind == OpKind::kWrite || op.kind == OpKind::kAllocate) {
      text += std::string(op.kind == OpKind::kWrite ? "w" : "a") +
              (op.keep_size ? "k" : "") + std::to_string(op.file) + ":" +
              std::to_string(op.offset) + "+" + std::to_string(op.length);
    } else if (op.kind == OpKind::kTruncate) {
      text += "t" + std::to_string(op.file) + ":" + std::to_string(op.length);
    } else if (op.kind != OpKind::kSync) {  // unlink, create, sync_dir
      text += std::string(NameOf(kOpKinds, op.kind)) + std::to_string(op.file);
    } else {
      text += "s" + std::to_string(op.file) + ":" +
              std::string(NameOf(kTraceSyncs, op.call));
    }
  }
  return text;
}

// The trace of fixture `name` with `options`; it must parse.
Trace Parsed(const std::string& name, const StraceOptions& options) {
  Result<Trace> parsed = ParseStrace(Fixture(name), options);
  REQUIRE(parsed);
  return parsed.value();
}

}  // namespace

TEST_CASE("strace: a small program's writes, positions and syncs") {
  const Trace t = Parsed("small.strace", {});
  REQUIRE(t.files.size() == 3);
  CHECK(t.files[0].path == "/tmp/rec/out/log");
  CHECK(t.files[0].state == FileState::kNew);
  CHECK(t.files[0].HasFlag("O_TRUNC"));
  CHECK(t.files[1].path == "/tmp/rec/out/dsync");
  CHECK(t.files[1].HasFlag("O_DSYNC"));
  CHECK(t.files[2].state == FileState::kPreallocated);
  // The first commit wrote 100 bytes at 0 alone: the log's header.
  REQUIRE(t.header);
  CHECK(t.header->file == 0);
  CHECK(t.header->bytes == 100);
  REQUIRE(t.commits.size() == 6);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:100+4120 s0:fsync");
  // lseek, then a write here and one from the forked child at the shared
  // position.
  CHECK(OpsWithFiles(t.commits[1].ops) ==
        "w0:8192+512 w0:8704+512 s0:fdatasync");
  CHECK(OpsWithFiles(t.commits[2].ops) == "w0:12288+4096 s0:sync_file_range");
  // The log's last write has no sync of its own: the next sync of any traced
  // file ends its commit. O_APPEND|O_DSYNC writes end a commit each.
  CHECK(OpsWithFiles(t.commits[3].ops) == "w0:9216+10 w1:0+512 s1:O_DSYNC");
  CHECK(OpsWithFiles(t.commits[4].ops) == "w1:512+512 s1:O_DSYNC");
  CHECK(OpsWithFiles(t.commits[5].ops) == "w2:0+4096 s2:fdatasync");
  CHECK(t.after_last_commit.empty());
  REQUIRE(t.limits.size() == 3);
  CHECK_THAT(t.limits[0], Catch::StartsWith("header: the first commit (100 B "
                                            "at offset 0 of a new file)"));
  CHECK_THAT(t.limits[1], Catch::Contains("mmap of /tmp/rec/out/pre"));
  CHECK_THAT(t.limits[2], Catch::Contains("msync"));
}

TEST_CASE(
    "strace: a first commit is a header only where the commits after "
    "it say so") {
  // Appends with fdatasync, as Redis (appendfsync always) writes its AOF: a
  // first SET of 59 bytes, then 36 to 40. A small first commit alone is no
  // header: the later ones are as small.
  auto log = [](std::vector<int> sizes) {
    std::string text =
        "1  openat(AT_FDCWD</r>, \"/r/aof\", O_WRONLY|O_CREAT|O_APPEND, 0644) "
        "= 3</r/aof>\n";
    for (int n : sizes) {
      text += "1  write(3</r/aof>, \"\"..., " + std::to_string(n) +
              ") = " + std::to_string(n) + "\n";
      text += "1  fdatasync(3</r/aof>) = 0\n";
    }
    Result<Trace> t = ParseStrace(text, {});
    REQUIRE(t);
    return t.value();
  };
  const Trace redis = log({59, 38, 36, 40, 37});
  CHECK_FALSE(redis.header);
  CHECK(redis.commits.size() == 5);
  CHECK(redis.limits.empty());
  // SQLite's way: 32 bytes alone, then frames of 4120.
  const Trace wal = log({32, 4120, 4120, 4120});
  REQUIRE(wal.header);
  CHECK(wal.header->bytes == 32);
  CHECK(wal.commits.size() == 3);
  CHECK_THAT(wal.limits.at(0), Catch::Contains("later commits write 4120 B"));
  // Too few commits to tell: no header.
  CHECK_FALSE(log({32, 4120}).header);
}

TEST_CASE("strace: --file selects the files; writes after the last sync kept") {
  StraceOptions options;
  options.globs = {"/tmp/rec/out/l*"};
  const Trace t = Parsed("small.strace", options);
  REQUIRE(t.files.size() == 1);
  CHECK(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.after_last_commit) == "w0:9216+10");
  // Files that were there before, with bytes: recycled, unless O_TRUNC
  // emptied them at open; O_APPEND writes go to the old end.
  options.sizes_before["/tmp/rec/out/log"] = 65536;
  options.sizes_before["/tmp/rec/out/dsync"] = 4096;
  options.globs = {"/tmp/rec/out/log", "/tmp/rec/out/dsync"};
  const Trace again = Parsed("small.strace", options);
  CHECK(again.files[0].state == FileState::kNew);
  CHECK(again.files[1].state == FileState::kRecycled);
  CHECK(again.files[1].size_at_open == 4096);
  CHECK(OpsWithFiles(again.commits[3].ops) ==
        "w0:9216+10 w1:4096+512 s1:O_DSYNC");
}

TEST_CASE("strace: SQLite's WAL, frame header and page per commit") {
  StraceOptions options;
  options.globs = {"/tmp/rec/*-wal"};
  const Trace t = Parsed("sqlite.strace", options);
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].path == "/tmp/rec/t.db-wal");
  CHECK(t.files[0].state == FileState::kNew);
  CHECK(t.files[0].size_at_open == 0);
  REQUIRE(t.header);
  CHECK(t.header->bytes == 32);
  // CREATE TABLE (two frames), five inserts, and the checkpoint's sync at
  // close with nothing written.
  REQUIRE(t.commits.size() >= 6);
  // SQLite syncs the directory once the WAL's header is synced: a sync_dir of
  // the file in that directory, inside the commit that follows.
  CHECK(OpsWithFiles(t.commits[0].ops) ==
        "sync_dir0 w0:32+24 w0:56+4096 w0:4152+24 w0:4176+4096 s0:fdatasync");
  CHECK(OpsWithFiles(t.commits[1].ops) ==
        "w0:8272+24 w0:8296+4096 s0:fdatasync");
  REQUIRE(t.limits.size() == 1);
  CHECK_THAT(t.limits[0], Catch::StartsWith("header: the first commit (32 B"));
}

TEST_CASE("strace: default selection is every file written and synced") {
  std::vector<std::string> paths;
  for (const TraceFile& f : Parsed("sqlite.strace", {}).files)
    paths.push_back(f.path);
  CHECK(paths == std::vector<std::string>{"/tmp/rec/t.db",
                                          "/tmp/rec/t.db-journal",
                                          "/tmp/rec/t.db-wal"});
}

TEST_CASE("strace: unfinished calls are joined; text that is not strace's") {
  const std::string text =
      "12 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "12 pwrite64(3</d/log>, \"\"..., 4096, 8192 <unfinished ...>\n"
      "13 fsync(4</d/other>) = 0\n"
      "12 <... pwrite64 resumed>) = 4096\n"
      "[pid    12] fdatasync(3</d/log>) = 0\n";
  Result<Trace> parsed = ParseStrace(text, {});
  REQUIRE(parsed);
  REQUIRE(parsed.value().commits.size() == 1);
  CHECK(OpsWithFiles(parsed.value().commits[0].ops) ==
        "w0:8192+4096 s0:fdatasync");
  Result<Trace> none = ParseStrace("hello\nworld\n", {});
  REQUIRE_FALSE(none);
  CHECK_THAT(none.error().Message(), Catch::Contains("no system call"));
}

TEST_CASE("strace: a descriptor open before the trace began") {
  const std::string text =
      "12 write(7</d/log>, \"\"..., 512) = 512\n"
      "12 fdatasync(7</d/log>) = 0\n";
  StraceOptions options;
  options.open_before["12"]["7</d/log>"] = {{"O_WRONLY", "O_DIRECT"}, 4096, ""};
  Result<Trace> known = ParseStrace(text, options);
  REQUIRE(known);
  CHECK(known.value().files[0].HasFlag("O_DIRECT"));
  CHECK(OpsWithFiles(known.value().commits[0].ops) ==
        "w0:4096+512 s0:fdatasync");
  Result<Trace> unknown = ParseStrace(text, {});
  REQUIRE(unknown);
  REQUIRE(unknown.value().limits.size() == 1);
  CHECK_THAT(unknown.value().limits[0], Catch::Contains("open before"));
}

TEST_CASE("strace: a file reopened O_DSYNC, or given O_DIRECT, writes by it") {
  // alignbench's own runs: created, prepared and synced, then reopened with
  // the run's flags; MariaDB sets O_DIRECT with fcntl.
  const std::string text =
      "9 openat(AT_FDCWD</d>, \"/d/f\", O_RDWR|O_CREAT|O_EXCL, 0600) = "
      "3</d/f>\n"
      "9 pwrite64(3</d/f>, \"\"..., 32, 0) = 32\n"
      "9 fsync(3</d/f>) = 0\n"
      "9 openat(AT_FDCWD</d>, \"/d/f\", O_RDWR|O_DSYNC) = 4</d/f>\n"
      "9 pwrite64(4</d/f>, \"\"..., 512, 32) = 512\n"
      "9 pwrite64(4</d/f>, \"\"..., 512, 544) = 512\n"
      "9 openat(AT_FDCWD</d>, \"/d/g\", O_RDWR|O_CREAT, 0600) = 5</d/g>\n"
      "9 fcntl(5</d/g>, F_SETFL, O_RDONLY|O_DIRECT) = 0\n"
      "9 pwrite64(5</d/g>, \"\"..., 4096, 0) = 4096\n"
      "9 fdatasync(5</d/g>) = 0\n";
  Result<Trace> parsed = ParseStrace(text, {});
  REQUIRE(parsed);
  const Trace& t = parsed.value();
  REQUIRE(t.files.size() == 2);
  // The flags of the descriptor that wrote last, not of the one that made it.
  CHECK(t.files[0].HasFlag("O_DSYNC"));
  CHECK_FALSE(t.files[0].HasFlag("O_CREAT"));
  CHECK(t.files[1].HasFlag("O_DIRECT"));
  CHECK(t.files[1].HasFlag("O_RDWR"));
  CHECK_FALSE(t.files[1].HasFlag("O_RDONLY"));
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:32+512 s0:O_DSYNC");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w0:544+512 s0:O_DSYNC");
  CHECK(t.header->bytes == 32);
}

TEST_CASE("strace: globs match whole path components") {
  CHECK(PathSelected("/a/b/0001", {"/a/b/0*"}));
  CHECK_FALSE(PathSelected("/a/b/c/0001", {"/a/b/*"}));
  CHECK(PathSelected("/anything", {}));
}

TEST_CASE(
    "strace: preallocated by fallocate, or before the run; KEEP_SIZE is new") {
  const std::string text =
      "1765  openat(AT_FDCWD</d>, \"/d/a\", O_RDWR|O_CREAT, 0600) = 3</d/a>\n"
      "1 fallocate(3</d/a>, FALLOC_FL_KEEP_SIZE, 0, 1048576) = 0\n"
      "1 write(3</d/a>, \"\"..., 4096) = 4096\n"
      "1 fdatasync(3</d/a>) = 0\n"
      "1765  openat(AT_FDCWD</d>, \"/d/b\", O_RDWR) = 4</d/b>\n"
      "1 pwrite64(4</d/b>, \"\"..., 4096, 12288) = 4096\n"
      "1 fdatasync(4</d/b>) = 0\n";
  StraceOptions options;
  options.sizes_before["/d/b"] = 1 << 20;
  options.unwritten_before.insert("/d/b");
  const Trace t = ParseStrace(text, options).value();
  REQUIRE(t.files.size() == 2);
  CHECK(t.files[0].state == FileState::kNew);
  CHECK(t.files[1].state == FileState::kPreallocated);
  options.unwritten_before.clear();
  CHECK(ParseStrace(text, options).value().files[1].state ==
        FileState::kRecycled);
}

namespace {

// The trace of strace lines given here, with --file globs; it must parse.
Trace Lines(const std::string& text, std::vector<std::string> globs = {}) {
  StraceOptions options;
  options.globs = std::move(globs);
  Result<Trace> parsed = ParseStrace(text, options);
  REQUIRE(parsed);
  return parsed.value();
}

}  // namespace

TEST_CASE("strace: a dup()ed descriptor shares its file's position") {
  // One open, then writes through it and through its duplicate: one open
  // file description, one position (not 0, 0, 3000, 3000 ...).
  const Trace t = Lines(
      "1  openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1  dup(3</d/log>) = 4</d/log>\n"
      "1  write(3</d/log>, \"\"..., 3000) = 3000\n"
      "1  write(4</d/log>, \"\"..., 3000) = 3000\n"
      "1  fsync(4</d/log>) = 0\n"
      "1  write(3</d/log>, \"\"..., 3000) = 3000\n"
      "1  fdatasync(3</d/log>) = 0\n");
  REQUIRE(t.commits.size() == 2);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+3000 w0:3000+3000 s0:fsync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w0:6000+3000 s0:fdatasync");
  // A second open of the same file is a description of its own.
  const Trace two = Lines(
      "1  openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1  openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY, 0644) = 4</d/log>\n"
      "1  write(3</d/log>, \"\"..., 100) = 100\n"
      "1  write(4</d/log>, \"\"..., 100) = 100\n"
      "1  fsync(4</d/log>) = 0\n");
  CHECK(OpsWithFiles(two.commits[0].ops) == "w0:0+100 w0:0+100 s0:fsync");
}

TEST_CASE("strace: renames are followed, of the file and of its directory") {
  // etcd's way: the segment made and preallocated under wal.tmp/, synced,
  // the directory renamed to wal/, then the commits; --file names wal/.
  const std::string etcd =
      "1  openat(AT_FDCWD</e>, \"wal.tmp/0.wal\", "
      "O_WRONLY|O_CREAT|O_CLOEXEC, 0600) = 7</e/wal.tmp/0.wal>\n"
      "1  fallocate(7</e/wal.tmp/0.wal>, 0, 0, 64000000) = 0\n"
      "1  fsync(7</e/wal.tmp/0.wal>) = 0\n"
      "1  renameat(AT_FDCWD</e>, \"wal.tmp\", AT_FDCWD</e>, \"wal\") = 0\n"
      "1  write(7</e/wal/0.wal>, \"\"..., 96) = 96\n"
      "1  fdatasync(7</e/wal/0.wal>) = 0\n"
      "1  write(7</e/wal/0.wal>, \"\"..., 104) = 104\n"
      "1  fdatasync(7</e/wal/0.wal>) = 0\n";
  const Trace t = Lines(etcd, {"/e/wal/*.wal"});
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].path == "/e/wal/0.wal");
  CHECK(t.files[0].state == FileState::kPreallocated);
  CHECK(t.files[0].HasFlag("O_CLOEXEC"));
  CHECK(t.limits.empty());  // nothing "open before the trace began"
  REQUIRE(t.commits.size() == 2);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+96 s0:fdatasync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w0:96+104 s0:fdatasync");
  // A log renamed mid-run (rename, relative to the last working directory
  // seen) stays one file, under its new name, its position kept.
  const Trace moved = Lines(
      "1  openat(AT_FDCWD</d>, \"log.1\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log.1>\n"
      "1  write(3</d/log.1>, \"\"..., 100) = 100\n"
      "1  fsync(3</d/log.1>) = 0\n"
      "1  rename(\"log.1\", \"log.2\") = 0\n"
      "1  write(3</d/log.2>, \"\"..., 100) = 100\n"
      "1  fsync(3</d/log.2>) = 0\n");
  REQUIRE(moved.files.size() == 1);
  CHECK(moved.files[0].path == "/d/log.2");
  CHECK(OpsWithFiles(moved.commits[1].ops) == "w0:100+100 s0:fsync");
}

TEST_CASE(
    "strace: ftruncate and fallocate after writes are ops of the commit; "
    "before, the file's state") {
  const Trace t = Lines(
      "1  openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1  fallocate(3</d/log>, 0, 0, 65536) = 0\n"
      "1  write(3</d/log>, \"\"..., 4096) = 4096\n"
      "1  fsync(3</d/log>) = 0\n"
      "1  ftruncate(3</d/log>, 1024) = 0\n"
      "1  fallocate(3</d/log>, FALLOC_FL_KEEP_SIZE, 1024, 8192) = 0\n"
      "1  write(3</d/log>, \"\"..., 100) = 100\n"
      "1  fsync(3</d/log>) = 0\n"
      "1  fallocate(3</d/log>, 0, 0, 16384) = 0\n"
      "1  fallocate(3</d/log>, FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE, 0, "
      "4096) = 0\n"
      "1  fsync(3</d/log>) = 0\n");
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].state == FileState::kPreallocated);
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+4096 s0:fsync");
  CHECK(OpsWithFiles(t.commits[1].ops) ==
        "t0:1024 ak0:1024+8192 w0:4096+100 s0:fsync");
  CHECK(OpsWithFiles(t.commits[2].ops) == "a0:0+16384 s0:fsync");
  REQUIRE(t.limits.size() == 1);
  CHECK(t.limits[0] ==
        "fallocate FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE of /d/log after it "
        "was written: not replayed");
}

TEST_CASE("strace: the syncs of one transaction are one commit") {
  // Each transaction: its data page, fdatasync, then a meta page written
  // through a descriptor opened O_DSYNC. Two syncs, one commit.
  std::string text =
      "1  openat(AT_FDCWD</d>, \"/d/data\", O_RDWR|O_CREAT, 0644) = "
      "3</d/data>\n"
      "1  openat(AT_FDCWD</d>, \"/d/meta\", O_WRONLY|O_CREAT|O_DSYNC, 0644) "
      "= 4</d/meta>\n";
  for (int i = 0; i < 10; ++i) {
    text += "1  pwrite64(3</d/data>, \"\"..., 4096, " +
            std::to_string(4096 * i) + ") = 4096\n";
    text += "1  fdatasync(3</d/data>) = 0\n";
    text += "1  pwrite64(4</d/meta>, \"\"..., 512, 0) = 512\n";
  }
  const Trace t = Lines(text);
  REQUIRE(t.commits.size() == 10);
  CHECK(OpsWithFiles(t.commits[1].ops) ==
        "w0:4096+4096 s0:fdatasync w1:0+512 s1:O_DSYNC");
  REQUIRE(t.limits.size() == 1);
  CHECK_THAT(t.limits[0], Catch::StartsWith("transactions: every 2 syncs") &&
                              Catch::Contains("(20 syncs, 10 commits)"));
  // --per-sync: every sync a commit.
  StraceOptions per_sync;
  per_sync.transactions = false;
  Result<Trace> apart = ParseStrace(text, per_sync);
  REQUIRE(apart);
  CHECK(apart.value().commits.size() == 20);
  CHECK(apart.value().limits.empty());
}

TEST_CASE("strace: a path's escapes are undone, so its name is the file's") {
  // As strace 6.1 -y printed a file named a<ESC>b<U+009B>c>d"e\f g: octal for
  // the bytes that are not printable and for '>', \" and \\ for the rest.
  const std::string text =
      "1765  openat(AT_FDCWD</tmp>, \"/t/a\\33b\\302\\233c>d\\\"e\\\\f g\", "
      "O_WRONLY|O_CREAT|O_CLOEXEC, 0644) = "
      "3</t/a\\33b\\302\\233c\\76d\\\"e\\\\f "
      "g>\n"
      "1765  write(3</t/a\\33b\\302\\233c\\76d\\\"e\\\\f g>, \"\"..., 4096) = "
      "4096\n"
      "1765  fsync(3</t/a\\33b\\302\\233c\\76d\\\"e\\\\f g>) = 0\n";
  const Result<Trace> t = ParseStrace(text, {});
  REQUIRE(t);
  REQUIRE(t.value().files.size() == 1);
  CHECK(t.value().files[0].path ==
        "/t/a\x1b"
        "b\xc2\x9b"
        "c>d\"e\\f g");
  CHECK(t.value().commits.size() == 1);
}

namespace {

// SQLite's rollback journal in DELETE mode: per transaction the journal made,
// written and synced, the directory synced, the page written and synced, the
// journal unlinked.
std::string DeleteJournal(int transactions) {
  std::string text =
      "1 openat(AT_FDCWD</d>, \"/d/t.db\", O_RDWR|O_CREAT, 0644) = "
      "3</d/t.db>\n";
  for (int i = 0; i < transactions; ++i) {
    text +=
        "1 openat(AT_FDCWD</d>, \"/d/t.db-journal\", O_RDWR|O_CREAT, 0644) = "
        "4</d/t.db-journal>\n"
        "1 pwrite64(4</d/t.db-journal>, \"\"..., 512, 0) = 512\n"
        "1 pwrite64(4</d/t.db-journal>, \"\"..., 4104, 512) = 4104\n"
        "1 fdatasync(4</d/t.db-journal>) = 0\n"
        "1 openat(AT_FDCWD</d>, \"/d\", O_RDONLY|O_CLOEXEC) = 5</d>\n"
        "1 fdatasync(5</d>) = 0\n"
        "1 close(5</d>) = 0\n"
        "1 pwrite64(3</d/t.db>, \"\"..., 4096, " +
        std::to_string(4096 * i) +
        ") = 4096\n"
        "1 fdatasync(3</d/t.db>) = 0\n"
        "1 close(4</d/t.db-journal>) = 0\n"
        "1 unlink(\"/d/t.db-journal\") = 0\n";
  }
  return text;
}

}  // namespace

TEST_CASE("strace: a journal made and unlinked by every transaction") {
  const Trace t = Lines(DeleteJournal(3));
  REQUIRE(t.files.size() == 2);
  CHECK(t.files[1].path == "/d/t.db-journal");
  CHECK(t.files[1].state == FileState::kNew);
  // The journal's 512-byte header is written again by every transaction: no
  // header of a log.
  CHECK_FALSE(t.header);
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[0].ops) ==
        "w1:0+512 w1:512+4104 s1:fdatasync sync_dir0 w0:0+4096 s0:fdatasync");
  CHECK(OpsWithFiles(t.commits[1].ops) ==
        "unlink1 create1 w1:0+512 w1:512+4104 s1:fdatasync sync_dir0 "
        "w0:4096+4096 s0:fdatasync");
  CHECK(OpsWithFiles(t.after_last_commit) == "unlink1");
}

TEST_CASE("strace: a transaction's cycle found after a leading sync") {
  // One sync of the journal before the transactions begin.
  const std::string lead =
      "1 openat(AT_FDCWD</d>, \"/d/t.db-journal\", O_RDWR|O_CREAT, 0644) = "
      "4</d/t.db-journal>\n"
      "1 pwrite64(4</d/t.db-journal>, \"\"..., 100, 0) = 100\n"
      "1 fdatasync(4</d/t.db-journal>) = 0\n"
      "1 close(4</d/t.db-journal>) = 0\n";
  const Trace t = Lines(lead + DeleteJournal(6));
  REQUIRE(t.commits.size() == 7);
  CHECK(OpsWithFiles(t.commits[0].ops) ==
        "w0:0+100 s0:fdatasync");  // opened first
  REQUIRE_FALSE(t.limits.empty());
  CHECK_THAT(t.limits.back(),
             Catch::Contains("13 syncs, 7 commits, 1 syncs outside the cycle"));
}

TEST_CASE("strace: O_TRUNC cuts a written file; F_DUPFD shares a position") {
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1 write(3</d/log>, \"\"..., 100) = 100\n"
      "1 fcntl(3</d/log>, F_DUPFD_CLOEXEC, 10) = 10</d/log>\n"
      "1 write(10</d/log>, \"\"..., 50) = 50\n"
      "1 fsync(3</d/log>) = 0\n"
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_TRUNC, 0644) = "
      "4</d/log>\n"
      "1 write(4</d/log>, \"\"..., 10) = 10\n"
      "1 fsync(4</d/log>) = 0\n");
  REQUIRE(t.commits.size() == 2);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+100 w0:100+50 s0:fsync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "t0:0 w0:0+10 s0:fsync");
}

TEST_CASE("strace: a file open before the trace, by descriptor") {
  // LMDB's two descriptors of one file: data written and fdatasync'd, the
  // meta page through an O_DSYNC one.
  StraceOptions options;
  options.open_before["1"]["3</d/data.mdb>"] = {{"O_RDWR"}, 0, ""};
  options.open_before["1"]["4</d/data.mdb>"] = {{"O_WRONLY", "O_DSYNC"}, 0, ""};
  Result<Trace> t = ParseStrace(
      "1 pwrite64(3</d/data.mdb>, \"\"..., 4096, 8192) = 4096\n"
      "1 fdatasync(3</d/data.mdb>) = 0\n"
      "1 pwrite64(4</d/data.mdb>, \"\"..., 24, 16) = 24\n",
      options);
  REQUIRE(t);
  REQUIRE(t.value().commits.size() == 2);
  CHECK(OpsWithFiles(t.value().commits[0].ops) == "w0:8192+4096 s0:fdatasync");
  CHECK(OpsWithFiles(t.value().commits[1].ops) == "w0:16+24 s0:O_DSYNC");
}

TEST_CASE("strace: a log in /dev/shm is a file; a device is not") {
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/dev/shm/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</dev/shm/log>\n"
      "1 write(3</dev/shm/log>, \"\"..., 100) = 100\n"
      "1 fdatasync(3</dev/shm/log>) = 0\n"
      "1 openat(AT_FDCWD</d>, \"/dev/sdz\", O_WRONLY) = 4</dev/sdz>\n"
      "1 write(4</dev/sdz>, \"\"..., 100) = 100\n"
      "1 fdatasync(4</dev/sdz>) = 0\n");
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].path == "/dev/shm/log");
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+100 s0:fdatasync");
}

TEST_CASE("strace: bytes copied into a log by the kernel are a limit") {
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1 openat(AT_FDCWD</d>, \"/d/src\", O_RDONLY) = 4</d/src>\n"
      "1 write(3</d/log>, \"\"..., 10) = 10\n"
      "1 copy_file_range(4</d/src>, NULL, 3</d/log>, NULL, 4096, 0) = 4096\n"
      "1 sendfile(3</d/log>, 4</d/src>, NULL, 100) = 100\n"
      "1 fdatasync(3</d/log>) = 0\n");
  REQUIRE(t.limits.size() == 2);
  CHECK_THAT(t.limits[0], Catch::StartsWith("copy_file_range into /d/log"));
  CHECK_THAT(t.limits[1], Catch::StartsWith("sendfile into /d/log"));
}

TEST_CASE(
    "strace: a log rotated away keeps its commits; truncate(2) is an op") {
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "1 write(3</d/log>, \"\"..., 10) = 10\n"
      "1 fsync(3</d/log>) = 0\n"
      "1 rename(\"/d/log\", \"/d/log.1\") = 0\n"
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "4</d/log>\n"
      "1 write(4</d/log>, \"\"..., 20) = 20\n"
      "1 truncate(\"/d/log\", 4096) = 0\n"
      "1 fsync(4</d/log>) = 0\n",
      {"/d/log"});
  REQUIRE(t.files.size() == 2);
  CHECK(t.files[0].path == "/d/log.1");
  CHECK(t.files[1].path == "/d/log");
  REQUIRE(t.commits.size() == 2);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+10 s0:fsync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w1:0+20 t1:4096 s1:fsync");
}

TEST_CASE("strace: a path no --file matches yet still moves its position") {
  // write(2) under wal.tmp/ (not matched), the directory renamed to wal/.
  const Trace t = Lines(
      "1 openat(AT_FDCWD</e>, \"/e/wal.tmp/0\", O_WRONLY|O_CREAT, 0600) = "
      "7</e/wal.tmp/0>\n"
      "1 write(7</e/wal.tmp/0>, \"\"..., 80) = 80\n"
      "1 rename(\"/e/wal.tmp\", \"/e/wal\") = 0\n"
      "1 write(7</e/wal/0>, \"\"..., 100) = 100\n"
      "1 fdatasync(7</e/wal/0>) = 0\n"
      "1 ftruncate(7</e/wal/0>, 1048576) = 0\n",
      {"/e/wal/*"});
  REQUIRE(t.commits.size() == 1);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:80+100 s0:fdatasync");
  // Sized by ftruncate after its last sync: an op, after the last commit.
  CHECK(OpsWithFiles(t.after_last_commit) == "t0:1048576");
}

TEST_CASE("strace: a forked child's close leaves its parent's descriptor") {
  const Trace t = Lines(
      "10 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n"
      "10 write(3</d/log>, \"\"..., 100) = 100\n"
      "10 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, "
      "child_tidptr=0x7f) = 11\n"
      "10 clone(child_stack=0x7e, flags=CLONE_VM|CLONE_FS|CLONE_FILES|"
      "CLONE_THREAD) = 12\n"
      "11 write(3</d/log>, \"\"..., 50) = 50\n"
      "11 close(3</d/log>) = 0\n"
      "10 write(3</d/log>, \"\"..., 10) = 10\n"
      "12 write(3</d/log>, \"\"..., 5) = 5\n"
      "10 fsync(3</d/log>) = 0\n");
  REQUIRE(t.commits.size() == 1);
  // The child shares the position while it has the descriptor; the thread
  // writes through its process's table.
  CHECK(OpsWithFiles(t.commits[0].ops) ==
        "w0:0+100 w0:100+50 w0:150+10 w0:160+5 s0:fsync");
  CHECK(t.limits.empty());
}

TEST_CASE("strace: --pid's processes have a descriptor table each") {
  // A parent (20, thread 21) and its child (30), both attached: each holds
  // descriptor 3 of the log, the child's its own at 1 MiB; descriptor 4 the
  // child inherited, one description with its parent's. Without a table per
  // process the child's write went below 1 MiB.
  StraceOptions options;
  options.process_of = {{"20", "20"}, {"21", "20"}, {"30", "30"}};
  options.open_before["20"]["3</d/log>"] = {{"O_WRONLY"}, 4096, "20 3"};
  options.open_before["20"]["4</d/log>"] = {{"O_WRONLY"}, 0, "20 4"};
  options.open_before["30"]["3</d/log>"] = {{"O_WRONLY"}, 1 << 20, "30 3"};
  options.open_before["30"]["4</d/log>"] = {{"O_WRONLY"}, 0, "20 4"};
  Result<Trace> t = ParseStrace(
      "30 write(3</d/log>, \"\"..., 100) = 100\n"
      "21 write(3</d/log>, \"\"..., 10) = 10\n"
      "20 write(3</d/log>, \"\"..., 10) = 10\n"
      "30 write(4</d/log>, \"\"..., 8) = 8\n"
      "20 write(4</d/log>, \"\"..., 8) = 8\n"
      "30 clone(child_stack=NULL, flags=SIGCHLD) = 31\n"
      "31 write(3</d/log>, \"\"..., 1) = 1\n"
      "20 fsync(3</d/log>) = 0\n",
      options);
  REQUIRE(t);
  REQUIRE(t.value().commits.size() == 1);
  CHECK(OpsWithFiles(t.value().commits[0].ops) ==
        "w0:1048576+100 w0:4096+10 w0:4106+10 w0:0+8 w0:8+8 w0:1048676+1 "
        "s0:fsync");
  CHECK(t.value().limits.empty());
}

TEST_CASE("strace: a file mostly holes before the trace is new and sized") {
  // Berkeley DB's log, sized ahead and written into, recorded by --pid: as
  // recycled the replay prewrote it, and no commit allocated a block.
  StraceOptions options;
  options.sizes_before["/d/log.1"] = 10 << 20;
  options.sparse_before.insert("/d/log.1");
  options.open_before["5"]["3</d/log.1>"] = {{"O_WRONLY"}, 8192, ""};
  Result<Trace> t = ParseStrace(
      "5 write(3</d/log.1>, \"\"..., 100) = 100\n"
      "5 fdatasync(3</d/log.1>) = 0\n"
      "5 write(3</d/log.1>, \"\"..., 100) = 100\n"
      "5 fdatasync(3</d/log.1>) = 0\n",
      options);
  REQUIRE(t);
  REQUIRE(t.value().files.size() == 1);
  CHECK(t.value().files[0].state == FileState::kNew);
  CHECK(t.value().files[0].size_at_open == 10u << 20);
  CHECK(OpsWithFiles(t.value().commits[0].ops) ==
        "t0:10485760 w0:8192+100 s0:fdatasync");
  CHECK(OpsWithFiles(t.value().commits[1].ops) == "w0:8292+100 s0:fdatasync");
  REQUIRE(t.value().limits.size() == 1);
  CHECK_THAT(t.value().limits[0], Catch::StartsWith("sparse: /d/log.1"));
}

TEST_CASE("strace: a file's extents from before the trace are a limit") {
  StraceOptions options;
  options.sizes_before["/d/j"] = 8192;
  options.extents_before["/d/j"] = 2;
  options.open_before["5"]["3</d/j>"] = {{"O_RDWR"}, 0, ""};
  const std::string text =
      "5 pwrite64(3</d/j>, \"\"..., 512, 0) = 512\n"
      "5 fdatasync(3</d/j>) = 0\n";
  Result<Trace> t = ParseStrace(text, options);
  REQUIRE(t);
  CHECK(t.value().files[0].state == FileState::kRecycled);
  REQUIRE(t.value().limits.size() == 1);
  CHECK_THAT(t.value().limits[0],
             Catch::StartsWith("layout: /d/j was in 2 extents") &&
                 Catch::Contains("not reproduced"));
  options.extents_before["/d/j"] = 1;
  Result<Trace> one = ParseStrace(text, options);
  REQUIRE(one);
  CHECK(one.value().limits.empty());
  // Preallocated (MariaDB's redo log in two extents after install): the
  // replay fallocates it as it was, and nothing is said.
  options.extents_before["/d/j"] = 2;
  options.unwritten_before.insert("/d/j");
  Result<Trace> prealloc = ParseStrace(text, options);
  REQUIRE(prealloc);
  CHECK(prealloc.value().files[0].state == FileState::kPreallocated);
  CHECK(prealloc.value().limits.empty());
}

TEST_CASE("strace: an O_TMPFILE log, linked; syncfs and sync said") {
  // As strace -y printed it (strace 6.1, Linux 6.18): the file has no name
  // until linkat gives it one, and keeps "(deleted)" in strace's name after.
  const std::string text =
      "7 openat(AT_FDCWD</d>, \"/d\", O_RDWR|O_CLOEXEC|O_TMPFILE, 0600) = "
      "3</d/#10977639>(deleted)\n"
      "7 write(3</d/#10977639>(deleted), \"\"..., 100) = 100\n"
      "7 fsync(3</d/#10977639>(deleted)) = 0\n"
      "7 linkat(3</d/#10977639>(deleted), \"\", AT_FDCWD</d>, \"/d/log\", "
      "AT_EMPTY_PATH) = 0\n"
      "7 write(3</d/#10977639>(deleted), \"\"..., 100) = 100\n"
      "7 fdatasync(3</d/#10977639>(deleted)) = 0\n"
      "7 write(3</d/#10977639>(deleted), \"\"..., 100) = 100\n"
      "7 syncfs(3</d/#10977639>(deleted)) = 0\n"
      "7 syncfs(9</d/x>) = -1 EBADF (Bad file descriptor)\n"
      "7 sync() = 0\n";
  const Trace t = Lines(text);
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].path == "/d/log");
  REQUIRE(t.commits.size() == 2);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+100 s0:fsync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w0:100+100 s0:fdatasync");
  CHECK(OpsWithFiles(t.after_last_commit) == "w0:200+100");
  REQUIRE(t.limits.size() == 1);
  CHECK_THAT(t.limits[0], Catch::StartsWith("sync or syncfs: 2 calls") &&
                              Catch::Contains("not reproduced"));
  // Never linked: the file under the kernel's name for it.
  const Trace unnamed = Lines(
      "7 openat(AT_FDCWD</d>, \"/d\", O_RDWR|O_TMPFILE, 0600) = "
      "3</d/#5>(deleted)\n"
      "7 write(3</d/#5>(deleted), \"\"..., 100) = 100\n"
      "7 fsync(3</d/#5>(deleted)) = 0\n");
  REQUIRE(unnamed.files.size() == 1);
  CHECK(unnamed.files[0].path == "/d/#5");
}

TEST_CASE("strace: the program is the one exec'd last, that wrote the log") {
  // setpriv --reuid=redis redis-server ...: setpriv execs the server; a
  // helper the server forks and execs later writes no log.
  const Trace t = Lines(
      "40 execve(\"/usr/bin/setpriv\", [...], 0x7ff /* 41 vars */) = 0\n"
      "40 execve(\"/usr/local/bin/redis-server\", [...], 0x7ff) = -1 ENOENT "
      "(No such file or directory)\n"
      "40 execve(\"/usr/bin/redis-server\", [...], 0x7ff /* 41 vars */) = 0\n"
      "40 openat(AT_FDCWD</r>, \"/r/aof\", O_WRONLY|O_CREAT, 0644) = "
      "3</r/aof>\n"
      "40 clone(child_stack=NULL, flags=SIGCHLD) = 41\n"
      "41 execve(\"/bin/sh\", [...], 0x7ff /* 41 vars */) = 0\n"
      "40 write(3</r/aof>, \"\"..., 38) = 38\n"
      "40 fdatasync(3</r/aof>) = 0\n");
  CHECK(t.argv == std::vector<std::string>{"/usr/bin/redis-server"});
  // No execve seen (--pid): the caller's to fill.
  CHECK(Lines("1 write(3</r/aof>, \"\"..., 38) = 38\n"
              "1 fdatasync(3</r/aof>) = 0\n")
            .argv.empty());
}

TEST_CASE("strace: syncs the grouping cannot join are said") {
  // tdb (TDB_NOMMAP) commits a transaction with four fdatasyncs of its one
  // file between taking and releasing its record locks, as strace -f showed
  // tdbtool 1.4.8 do: they differ in neither file nor call.
  std::string text =
      "9 openat(AT_FDCWD</t>, \"/t/db.tdb\", O_RDWR) = 3</t/db.tdb>\n";
  for (int k = 0; k < 5; ++k) {
    text +=
        "9 fcntl(3</t/db.tdb>, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_SET, "
        "l_start=168, l_len=0}) = 0\n";
    for (int s = 0; s < 4; ++s) {
      text += "9 pwrite64(3</t/db.tdb>, \"\"..., 100, " +
              std::to_string(1000 * s) + ") = 100\n";
      text += "9 fdatasync(3</t/db.tdb>) = 0\n";
    }
    for (const char* at : {"168, l_len=0", "8, l_len=1", "0, l_len=1"}) {
      text += std::string(
                  "9 fcntl(3</t/db.tdb>, F_SETLKW, {l_type=F_UNLCK, "
                  "l_whence=SEEK_SET, l_start=") +
              at + "}) = 0\n";
    }
  }
  const Trace t = Lines(text);
  CHECK(t.commits.size() == 20);
  REQUIRE(t.limits.size() == 1);
  CHECK_THAT(t.limits[0],
             Catch::StartsWith("syncs not grouped: between its lock releases "
                               "the program made 4 syncs each time (5 of 5") &&
                 Catch::Contains("not reproduced"));
}

TEST_CASE("strace: a relative rename after chdir, before any open") {
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/d/a/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/a/log>\n"
      "1 write(3</d/a/log>, \"\"..., 100) = 100\n"
      "1 fsync(3</d/a/log>) = 0\n"
      "1 chdir(\"a/../a\") = 0\n"
      "1 rename(\"log\", \"log.1\") = 0\n"
      "1 write(3</d/a/log.1>, \"\"..., 100) = 100\n"
      "1 fsync(3</d/a/log.1>) = 0\n");
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].path == "/d/a/log.1");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w0:100+100 s0:fsync");
}

TEST_CASE("strace: a log renamed over another is that one's end") {
  // Redis's way with its AOF: the new file written whole, renamed over the
  // old one, appended to.
  const Trace t = Lines(
      "1 openat(AT_FDCWD</d>, \"/d/aof\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/aof>\n"
      "1 write(3</d/aof>, \"\"..., 100) = 100\n"
      "1 fsync(3</d/aof>) = 0\n"
      "1 openat(AT_FDCWD</d>, \"/d/aof.tmp\", O_WRONLY|O_CREAT, 0644) = "
      "4</d/aof.tmp>\n"
      "1 write(4</d/aof.tmp>, \"\"..., 50) = 50\n"
      "1 fsync(4</d/aof.tmp>) = 0\n"
      "1 rename(\"/d/aof.tmp\", \"/d/aof\") = 0\n"
      "1 write(4</d/aof>, \"\"..., 10) = 10\n"
      "1 fsync(4</d/aof>) = 0\n");
  REQUIRE(t.files.size() == 2);
  CHECK(t.files[0].path == "/d/aof (replaced)");
  CHECK(t.files[1].path == "/d/aof");
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[2].ops) == "unlink0 w1:50+10 s1:fsync");
}

TEST_CASE("strace: each file renamed over a log is numbered in turn") {
  std::string text;
  for (int i = 0; i < 3; ++i) {
    const std::string fd = std::to_string(3 + i);
    text +=
        "1 openat(AT_FDCWD</d>, \"/d/aof.tmp\", O_WRONLY|O_CREAT, 0644) = " +
        fd + "</d/aof.tmp>\n1 write(" + fd +
        "</d/aof.tmp>, \"\"..., 50) = 50\n" + "1 fsync(" + fd +
        "</d/aof.tmp>) = 0\n" + "1 rename(\"/d/aof.tmp\", \"/d/aof\") = 0\n";
  }
  const Trace t = Lines(text);
  REQUIRE(t.files.size() == 3);
  CHECK(t.files[0].path == "/d/aof (replaced)");
  CHECK(t.files[1].path == "/d/aof (replaced 2)");
  CHECK(t.files[2].path == "/d/aof");
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[1].ops) == "w1:0+50 s1:fsync");
}

TEST_CASE("strace: a stop asked while reading abandons the trace") {
  std::string text =
      "1 openat(AT_FDCWD</d>, \"/d/log\", O_WRONLY|O_CREAT, 0644) = "
      "3</d/log>\n";
  for (int i = 0; i < 5000; ++i) {
    text += "1 write(3</d/log>, \"\"..., 10) = 10\n1 fsync(3</d/log>) = 0\n";
  }
  StraceOptions options;
  int asked = 0;
  // Asked at lines 4096 and 8192, then before the trace is made.
  options.stopped = [&asked] { return ++asked == 2; };
  Result<Trace> stopped = ParseStrace(text, options);
  REQUIRE_FALSE(stopped);
  CHECK_THAT(stopped.error().Message(), Catch::Contains("stopped by a signal"));
  CHECK(asked == 2);
  asked = 0;
  options.stopped = [&asked] { return ++asked > 3; };
  Result<Trace> whole = ParseStrace(text, options);
  REQUIRE(whole);
  CHECK(whole.value().commits.size() == 5000);
  CHECK(asked == 3);
}

namespace {

// strace lines of process 1, a trace of them read with no --file.
Trace Lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "1  " + line + "\n";
  Result<Trace> t = ParseStrace(text, {});
  REQUIRE(t);
  return t.value();
}

}  // namespace

TEST_CASE("strace: F_SETFL's O_DSYNC and O_SYNC, which Linux ignores") {
  std::vector<std::string> lines = {
      "openat(AT_FDCWD</r>, \"/r/log\", O_WRONLY|O_CREAT, 0644) = 3</r/log>",
      "fcntl(3</r/log>, F_SETFL, O_WRONLY|O_DSYNC|O_SYNC) = 0"};
  for (int k = 0; k < 10; ++k) {
    lines.push_back("write(3</r/log>, \"\"..., 10) = 10");
  }
  lines.push_back("fdatasync(3</r/log>) = 0");
  const Trace t = Lines(lines);
  // Ten unsynced writes and one fdatasync: one commit, not ten.
  REQUIRE(t.commits.size() == 1);
  CHECK(t.commits[0].ops.size() == 11);
  CHECK(t.commits[0].ops.back().call == SyncCall::kFdatasync);
}

TEST_CASE("strace: O_APPEND and RWF_APPEND writes go to the file's end") {
  // pwrite on an O_APPEND descriptor appends whatever its offset (opened so,
  // or set by F_SETFL), as pwritev2 with RWF_APPEND does.
  const Trace t = Lines({
      "openat(AT_FDCWD</r>, \"/r/a\", O_WRONLY|O_CREAT|O_APPEND, 0644) = "
      "3</r/a>",
      "pwrite64(3</r/a>, \"\"..., 10, 0) = 10",
      "pwrite64(3</r/a>, \"\"..., 10, 0) = 10",
      "fdatasync(3</r/a>) = 0",
      "openat(AT_FDCWD</r>, \"/r/b\", O_WRONLY|O_CREAT, 0644) = 4</r/b>",
      "fcntl(4</r/b>, F_SETFL, O_APPEND) = 0",
      "pwrite64(4</r/b>, \"\"..., 10, 0) = 10",
      "pwrite64(4</r/b>, \"\"..., 10, 0) = 10",
      "fdatasync(4</r/b>) = 0",
      "openat(AT_FDCWD</r>, \"/r/c\", O_WRONLY|O_CREAT, 0644) = 5</r/c>",
      "pwritev2(5</r/c>, [{iov_base=\"\"..., iov_len=10}], 1, 0, RWF_APPEND) "
      "= 10",
      "pwritev2(5</r/c>, [{iov_base=\"\"..., iov_len=10}], 1, 0, RWF_APPEND) "
      "= 10",
      "fdatasync(5</r/c>) = 0",
  });
  REQUIRE(t.commits.size() == 3);
  CHECK(OpsWithFiles(t.commits[0].ops) == "w0:0+10 w0:10+10 s0:fdatasync");
  CHECK(OpsWithFiles(t.commits[1].ops) == "w1:0+10 w1:10+10 s1:fdatasync");
  CHECK(OpsWithFiles(t.commits[2].ops) == "w2:0+10 w2:10+10 s2:fdatasync");
}

TEST_CASE("strace: a header is judged by its own file's later commits") {
  // A 100-byte first commit of one file, then that file's 100-byte commits
  // between another file's 4 KiB ones: no header, the 100 bytes stay a
  // commit (and the file's allocation with them).
  std::vector<std::string> lines = {
      "openat(AT_FDCWD</r>, \"/r/a\", O_WRONLY|O_CREAT, 0644) = 3</r/a>",
      "openat(AT_FDCWD</r>, \"/r/b\", O_WRONLY|O_CREAT, 0644) = 4</r/b>",
      "pwrite64(3</r/a>, \"\"..., 100, 0) = 100", "fdatasync(3</r/a>) = 0"};
  for (int k = 0; k < 3; ++k) {
    const std::string at = std::to_string(4096 * k);
    lines.push_back("pwrite64(4</r/b>, \"\"..., 4096, " + at + ") = 4096");
    lines.push_back("fdatasync(4</r/b>) = 0");
    lines.push_back("pwrite64(3</r/a>, \"\"..., 100, " +
                    std::to_string(100 * (k + 1)) + ") = 100");
    lines.push_back("fdatasync(3</r/a>) = 0");
  }
  const Trace t = Lines(lines);
  CHECK_FALSE(t.header);
  CHECK(t.commits.size() == 7);
}
