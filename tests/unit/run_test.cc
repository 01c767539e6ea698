// lib/measure/run.h: one run on a real file in a temporary directory. Prepare
// makes the file, each Step does one write (and its sync), Finish's histograms
// count exactly the timed writes, and the file is gone once the Run is.
#include "lib/measure/run.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

// Counts the calls a run makes; Pwrite fails with ENOSPC from the
// `fail_write`-th (1-based) on, if set.
class Counting final : public FileOpsWrapper {
 public:
  Counting() : FileOpsWrapper(SystemFileOps()) {}
  int creates = 0, pwrites = 0, fsyncs = 0, fdatasyncs = 0, unlinks = 0;
  int fail_write = 0;
  std::vector<off_t> offsets;
  int Create(const char* p, int f, mode_t m) override {
    ++creates;
    return FileOpsWrapper::Create(p, f, m);
  }
  ssize_t Pwrite(int fd, const void* b, std::size_t n, off_t o) override {
    ++pwrites;
    offsets.push_back(o);
    if (fail_write > 0 && pwrites >= fail_write) {
      errno = ENOSPC;
      return -1;
    }
    return FileOpsWrapper::Pwrite(fd, b, n, o);
  }
  int Fsync(int fd) override {
    ++fsyncs;
    return FileOpsWrapper::Fsync(fd);
  }
  int Fdatasync(int fd) override {
    ++fdatasyncs;
    return FileOpsWrapper::Fdatasync(fd);
  }
  int UnlinkAt(int d, const char* n) override {
    ++unlinks;
    return FileOpsWrapper::UnlinkAt(d, n);
  }
};

RunSpec Spec(const std::string& dir, FileOps& ops, std::uint64_t header,
             std::uint64_t record, std::uint64_t writes) {
  LogRules rules;
  rules.header = header;
  RunSpec spec;
  spec.dir = dir;
  spec.pattern = WritePattern(rules, record);
  spec.writes = writes;
  spec.sync = SyncMethod::kFdatasync;
  spec.ops = &ops;
  return spec;
}

off_t SizeOfOnlyFile(const TempDir& dir) {
  const std::vector<std::string> names = dir.Names();
  REQUIRE(names.size() == 1);
  struct stat st {};
  REQUIRE(::stat((dir.path() + "/" + names[0]).c_str(), &st) == 0);
  return st.st_size;
}

}  // namespace

TEST_CASE("run: Prepare, Step, Finish on a temporary directory") {
  TempDir dir;
  Counting ops;
  const std::uint64_t header = 100, record = 4096, writes = 6;
  {
    auto prepared = Run::Prepare(Spec(dir.path(), ops, header, record, writes));
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    CHECK(ops.creates == 1);
    // The header is written while the file is prepared.
    CHECK(SizeOfOnlyFile(dir) == static_cast<off_t>(header));
    const int pwrites_before = ops.pwrites;
    const int fdatasyncs_before = ops.fdatasyncs;
    std::int64_t sum = 0;
    for (std::uint64_t k = 0; k < writes; ++k) {
      auto op = run.Step();
      REQUIRE(op);
      CHECK(op.value().write_ns >= 0);
      CHECK(op.value().sync_ns >= 0);
      CHECK(op.value().Total() == op.value().write_ns + op.value().sync_ns);
      sum += op.value().Total();
    }
    // One pwrite and one fdatasync per step, each write after the last.
    CHECK(ops.pwrites - pwrites_before == static_cast<int>(writes));
    CHECK(ops.fdatasyncs - fdatasyncs_before == static_cast<int>(writes));
    const std::vector<off_t> timed(ops.offsets.end() - writes,
                                   ops.offsets.end());
    for (std::uint64_t k = 0; k < writes; ++k) {
      CHECK(timed[k] == static_cast<off_t>(header + k * record));
    }
    CHECK(SizeOfOnlyFile(dir) == static_cast<off_t>(header + writes * record));

    const RunRecord result = run.Finish(std::nullopt);
    CHECK(result.Writes() == writes);
    CHECK(result.total_ns.count == writes);
    CHECK(result.write_ns.count == writes);
    CHECK(result.sync_ns.count == writes);
    CHECK(result.total_ns.sum_ns == sum);
    CHECK(result.total_ns.sum_ns ==
          result.write_ns.sum_ns + result.sync_ns.sum_ns);
    CHECK_FALSE(result.error.has_value());
    CHECK_FALSE(result.staged);
    // Where it landed, where the filesystem says (FIEMAP; tmpfs does not):
    // 6 synced 4 KiB writes after the header make at least one extent.
    struct statfs fs {};
    REQUIRE(::statfs(dir.path().c_str(), &fs) == 0);
    if (fs.f_type != TMPFS_MAGIC) {
      REQUIRE(result.placement);
      CHECK(result.placement->extents >= 1);
      CHECK(result.placement->tree_blocks <= 1);
    } else {
      WARN("SKIP (part): no FIEMAP on tmpfs, where TMPDIR is");
      CHECK_FALSE(result.placement);
    }
  }
  CHECK(ops.unlinks == 1);
  CHECK(dir.Names().empty());
}

TEST_CASE("run: a commit of write, sync, write times all its operations") {
  TempDir dir;
  Counting ops;
  LogRules rules;
  rules.header = 32;
  rules.record_header = 24;
  rules.fill = 4096;
  rules.fill_sync = FillSync::kBoundary;
  RunSpec spec = Spec(dir.path(), ops, 0, 4096, 3);
  spec.pattern = WritePattern(rules, 4096);
  auto prepared = Run::Prepare(spec);
  REQUIRE(prepared);
  Run run = std::move(prepared).value();
  const int pwrites_before = ops.pwrites;
  const int syncs_before = ops.fdatasyncs;
  auto op = run.Step();
  REQUIRE(op);
  // Two writes and one sync: [32, 8192), the sync, then [8192, 8272).
  CHECK(ops.pwrites - pwrites_before == 2);
  CHECK(ops.fdatasyncs - syncs_before == 1);
  CHECK(ops.offsets[ops.offsets.size() - 2] == 32);
  CHECK(ops.offsets.back() == 8192);
  CHECK(SizeOfOnlyFile(dir) == 8272);
  const RunRecord result = run.Finish(std::nullopt);
  CHECK(result.total_ns.count == 1);
  CHECK(result.total_ns.sum_ns ==
        result.write_ns.sum_ns + result.sync_ns.sum_ns);
}

TEST_CASE("run: warm-up writes are done in Prepare and not counted") {
  TempDir dir;
  Counting ops;
  RunSpec spec = Spec(dir.path(), ops, 0, 512, 3);
  spec.warmup = 4;
  spec.sync = SyncMethod::kNone;
  {
    auto prepared = Run::Prepare(spec);
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    CHECK(ops.pwrites == 4);
    CHECK(SizeOfOnlyFile(dir) == 4 * 512);
    for (int k = 0; k < 3; ++k) REQUIRE(run.Step());
    CHECK(ops.offsets.back() == 6 * 512);
    const RunRecord result = run.Finish(std::nullopt);
    CHECK(result.Writes() == 3);
    // No sync call: sync time is 0 for every write.
    CHECK(result.sync_ns.sum_ns == 0);
    CHECK(ops.fsyncs == 1);  // the one in preparation
    CHECK(ops.fdatasyncs == 0);
  }
  CHECK(dir.Names().empty());
}

TEST_CASE("run: a failed write stops the step and is not recorded") {
  TempDir dir;
  Counting ops;
  const std::uint64_t record = 1024;
  {
    auto prepared = Run::Prepare(Spec(dir.path(), ops, 0, record, 5));
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    REQUIRE(run.Step());
    REQUIRE(run.Step());
    ops.fail_write = ops.pwrites + 1;
    auto failed = run.Step();
    REQUIRE_FALSE(failed);
    CHECK(failed.error().errno_value == ENOSPC);
    CHECK(failed.error().offset == static_cast<std::int64_t>(2 * record));
    const RunRecord result = run.Finish(failed.error());
    CHECK(result.Writes() == 2);
    REQUIRE(result.error.has_value());
    CHECK(result.error->errno_value == ENOSPC);
  }
  CHECK(dir.Names().empty());
}

TEST_CASE("run: Prepare in a missing directory fails and leaves nothing") {
  TempDir dir;
  Counting ops;
  auto prepared = Run::Prepare(Spec(dir.path() + "/missing", ops, 0, 512, 1));
  REQUIRE_FALSE(prepared);
  CHECK(prepared.error().errno_value == ENOENT);
  CHECK(ops.creates == 0);
  CHECK(dir.Names().empty());
}

TEST_CASE("run: a group commit writes its commits, then syncs once") {
  TempDir dir;
  Counting ops;
  RunSpec spec = Spec(dir.path(), ops, 24, 512, 8);
  spec.commits_per_sync = 4;
  spec.warmup = 4;
  {
    auto prepared = Run::Prepare(spec);
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    // The header, then the warm-up as one group: four writes, one sync.
    CHECK(ops.pwrites == 1 + 4);
    CHECK(ops.fdatasyncs == 1);
    for (int k = 0; k < 2; ++k) {
      const Result<OpTimes> step = run.Step();
      REQUIRE(step);
      CHECK(step.value().sync_ns > 0);
    }
    CHECK(ops.pwrites == 1 + 12);
    CHECK(ops.fdatasyncs == 3);
    // Each write where the commit before it ended, after the header.
    REQUIRE(ops.offsets.size() == 13);
    for (std::size_t k = 1; k < ops.offsets.size(); ++k) {
      CHECK(ops.offsets[k] == static_cast<off_t>(24 + 512 * (k - 1)));
    }
    // Each commit of a group is recorded as its share of the span: the
    // statistics count commits, the device's counters are per commit.
    const RunRecord result = run.Finish(std::nullopt);
    CHECK(result.Writes() == 8);
    CHECK(result.sync_ns.count == 8);
  }
  CHECK(dir.Names().empty());
}

namespace {

// Counts syncs only: writer threads write through it at once, and a forward
// keeps no state.
class CountingSyncs final : public FileOpsWrapper {
 public:
  CountingSyncs() : FileOpsWrapper(SystemFileOps()) {}
  int fdatasyncs = 0;
  int Fdatasync(int fd) override {
    ++fdatasyncs;
    return FileOpsWrapper::Fdatasync(fd);
  }
};

// The file's bytes [from, from + length).
std::string BytesOf(const TempDir& dir, off_t from, std::size_t length) {
  const std::vector<std::string> names = dir.Names();
  REQUIRE(names.size() == 1);
  std::string bytes(length, '\0');
  const int fd = ::open((dir.path() + "/" + names[0]).c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  CHECK(::pread(fd, bytes.data(), length, from) ==
        static_cast<ssize_t>(length));
  ::close(fd);
  return bytes;
}

}  // namespace

TEST_CASE("run: writer threads write a group's commits, then one syncs") {
  TempDir dir;
  CountingSyncs ops;
  const std::uint64_t header = 24, record = 512;
  RunSpec spec = Spec(dir.path(), ops, header, record, 16);
  spec.commits_per_sync = 4;
  spec.writers = 4;
  {
    auto prepared = Run::Prepare(spec);
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    const int syncs_before = ops.fdatasyncs;
    for (int k = 0; k < 4; ++k) REQUIRE(run.Step());
    CHECK(ops.fdatasyncs - syncs_before == 4);
    // Every commit took its own place in the log: the file is the header and
    // sixteen records, none left a hole (payload bytes are never all zero).
    CHECK(SizeOfOnlyFile(dir) == static_cast<off_t>(header + 16 * record));
    const std::string log = BytesOf(dir, header, 16 * record);
    for (std::uint64_t k = 0; k < 16; ++k) {
      const std::string one = log.substr(k * record, record);
      CHECK(one.find_first_not_of('\0') != std::string::npos);
    }
    const RunRecord result = run.Finish(std::nullopt);
    CHECK(result.Writes() == 16);
    CHECK_FALSE(result.error.has_value());
  }
  CHECK(dir.Names().empty());
}

TEST_CASE("run: writes in flight go through the ring, a sync per batch") {
  TempDir dir;
  Counting ops;
  RunSpec spec = Spec(dir.path(), ops, 0, 4096, 8);
  spec.io = IoMode::kDirect;
  spec.commits_per_sync = 4;
  spec.queue_depth = 4;
  {
    auto prepared = Run::Prepare(spec);
    if (!prepared && prepared.error().errno_value == EINVAL) {
      WARN("SKIPPED: no O_DIRECT under " << dir.path() << " (TMPDIR)");
      return;
    }
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    const int pwrites_before = ops.pwrites;
    const int syncs_before = ops.fdatasyncs;
    for (int k = 0; k < 2; ++k) REQUIRE(run.Step());
    // Not one pwrite: the eight writes went to io_uring, four at a time.
    CHECK(ops.pwrites == pwrites_before);
    CHECK(ops.fdatasyncs - syncs_before == 2);
    CHECK(SizeOfOnlyFile(dir) == 8 * 4096);
    const RunRecord result = run.Finish(std::nullopt);
    CHECK(result.Writes() == 8);
  }
  CHECK(dir.Names().empty());
}
