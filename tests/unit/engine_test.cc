// lib/measure/engine.h, prepare.h, staging.h: the calls a run made around
// the fault seam before (io_uring's setup and submission, the directory's
// open, mincore) now go through FileOps, and a fault put there fails the run
// as a fault at any other call does; a staged write is the whole blocks
// around its bytes, from the block the writer holds.
#include "lib/measure/engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <string>

#include "lib/measure/prepare.h"
#include "lib/measure/run.h"
#include "lib/measure/run_spec.h"
#include "lib/measure/staging.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

// Fails the calls that bypassed the seam before, each when its errno is set.
class SeamFaults final : public FileOpsWrapper {
 public:
  SeamFaults() : FileOpsWrapper(SystemFileOps()) {}
  int ring_init_errno = 0, ring_submit_errno = 0, dir_open_errno = 0,
      resident_errno = 0, fiemap_errno = 0, fstat_errno = 0;
  int ring_submits = 0, ring_exits = 0, preads = 0;
  int RingInit(unsigned entries, io_uring* ring) override {
    if (ring_init_errno != 0) return -ring_init_errno;
    return FileOpsWrapper::RingInit(entries, ring);
  }
  int RingSubmitAndWait(io_uring* ring, unsigned wait) override {
    ++ring_submits;
    if (ring_submit_errno != 0) return -ring_submit_errno;
    return FileOpsWrapper::RingSubmitAndWait(ring, wait);
  }
  int Open(const char* path, int flags) override {
    if (dir_open_errno != 0 && (flags & O_DIRECTORY) != 0) {
      errno = dir_open_errno;
      return -1;
    }
    return FileOpsWrapper::Open(path, flags);
  }
  int ResidentPages(int fd, std::uint64_t span, std::uint64_t* pages) override {
    if (resident_errno != 0) {
      errno = resident_errno;
      return -1;
    }
    return FileOpsWrapper::ResidentPages(fd, span, pages);
  }
  void RingExit(io_uring* ring) override {
    ++ring_exits;
    FileOpsWrapper::RingExit(ring);
  }
  int Fiemap(int fd, fiemap* map) override {
    if (fiemap_errno != 0) {
      errno = fiemap_errno;
      return -1;
    }
    return FileOpsWrapper::Fiemap(fd, map);
  }
  int Fstat(int fd, struct stat* st) override {
    if (fstat_errno != 0) {
      errno = fstat_errno;
      return -1;
    }
    return FileOpsWrapper::Fstat(fd, st);
  }
  ssize_t Pread(int fd, void* b, std::size_t n, off_t o) override {
    ++preads;
    return FileOpsWrapper::Pread(fd, b, n, o);
  }
};

RunSpec EngineRunSpec(const std::string& dir, FileOps& ops) {
  RunSpec spec;
  spec.dir = dir;
  spec.pattern = WritePattern(LogRules{}, 4096);
  spec.writes = 8;
  spec.sync = SyncMethod::kFdatasync;
  spec.ops = &ops;
  return spec;
}

// Writes in flight: direct I/O, a group of 4, 4 in flight.
RunSpec RingRunSpec(const std::string& dir, FileOps& ops) {
  RunSpec spec = EngineRunSpec(dir, ops);
  spec.io = IoMode::kDirect;
  spec.commits_per_sync = 4;
  spec.queue_depth = 4;
  return spec;
}

// The run, or why not: no O_DIRECT or no io_uring where TMPDIR is.
std::optional<Run> PreparedOrSkipped(const RunSpec& spec) {
  auto prepared = Run::Prepare(spec);
  if (!prepared && (prepared.error().errno_value == EINVAL ||
                    prepared.error().operation == "io_uring_setup")) {
    WARN("SKIPPED: " << prepared.error().Message());
    return std::nullopt;
  }
  REQUIRE(prepared);
  return std::move(prepared).value();
}

}  // namespace

TEST_CASE("engine: a fault at io_uring's submission fails the step") {
  TempDir dir;
  SeamFaults ops;
  {
    std::optional<Run> run = PreparedOrSkipped(RingRunSpec(dir.path(), ops));
    if (!run) return;
    REQUIRE(run->Step());
    CHECK(ops.ring_submits >= 1);
    ops.ring_submit_errno = EIO;
    auto failed = run->Step();
    REQUIRE_FALSE(failed);
    CHECK(failed.error().operation == "io_uring write");
    CHECK(failed.error().errno_value == EIO);
    CHECK(failed.error().kind == ErrorKind::kIo);
    CHECK(run->Finish(failed.error()).Writes() == 4);
  }
  // The ring is torn down through the seam too, once, when the run ends.
  CHECK(ops.ring_exits == 1);
  CHECK(dir.Names().empty());
}

TEST_CASE("engine: a fault at io_uring_setup is the machine's, with a hint") {
  TempDir dir;
  SeamFaults ops;
  ops.ring_init_errno = EPERM;
  auto prepared = Run::Prepare(RingRunSpec(dir.path(), ops));
  REQUIRE_FALSE(prepared);
  if (prepared.error().errno_value == EINVAL) {
    WARN("SKIPPED: no O_DIRECT under " << dir.path() << " (TMPDIR)");
    return;
  }
  CHECK(prepared.error().operation == "io_uring_setup");
  CHECK(prepared.error().errno_value == EPERM);
  CHECK(prepared.error().kind == ErrorKind::kSetup);
  CHECK(prepared.error().hint.find("io_uring_disabled") != std::string::npos);
  CHECK(dir.Names().empty());
}

TEST_CASE("prepare: a fault at the directory's open fails Prepare") {
  TempDir dir;
  SeamFaults ops;
  ops.dir_open_errno = EACCES;
  auto prepared = Run::Prepare(EngineRunSpec(dir.path(), ops));
  REQUIRE_FALSE(prepared);
  CHECK(prepared.error().operation == "open directory");
  CHECK(prepared.error().path == dir.path());
  CHECK(prepared.error().errno_value == EACCES);
  CHECK(dir.Names().empty());
}

TEST_CASE("prepare: mincore's failure leaves the resident pages unknown") {
  for (const bool fail : {false, true}) {
    TempDir dir;
    SeamFaults ops;
    ops.resident_errno = fail ? ENOMEM : 0;
    RunSpec spec = EngineRunSpec(dir.path(), ops);
    spec.cache = CacheState::kCold;
    auto prepared = Run::Prepare(spec);
    REQUIRE(prepared);
    const RunRecord record = prepared.value().Finish(std::nullopt);
    CHECK(record.resident_pages_after_drop.has_value() == !fail);
  }
}

TEST_CASE(
    "run: fiemap's or fstat's failure leaves the file's placement unknown") {
  // 0: no fault; then FIEMAP failing, then fstat failing after FIEMAP worked.
  for (const int fault : {0, 1, 2}) {
    TempDir dir;
    SeamFaults ops;
    auto prepared = Run::Prepare(EngineRunSpec(dir.path(), ops));
    REQUIRE(prepared);
    Run run = std::move(prepared).value();
    REQUIRE(run.Step());
    ops.fiemap_errno = fault == 1 ? EOPNOTSUPP : 0;
    ops.fstat_errno = fault == 2 ? EIO : 0;
    const RunRecord record = run.Finish(std::nullopt);
    if (fault == 0 && !record.placement) {
      WARN("SKIPPED: no FIEMAP under " << dir.path() << " (TMPDIR)");
      return;
    }
    CHECK(record.placement.has_value() == (fault == 0));
  }
}

TEST_CASE("staging: a write is the whole blocks around it") {
  TempDir dir;
  SeamFaults ops;
  const int fd = ::open((dir.path() + "/log").c_str(), O_RDWR | O_CREAT, 0600);
  REQUIRE(fd >= 0);
  const std::string far(4096, 'f');
  REQUIRE(::pwrite(fd, far.data(), far.size(), 40960) == 4096);
  Staging staging(2, 3 * 4096, 4096, 4096, 100);
  const std::string bytes(50, 'x');
  // The first write starts in the header block, which the writer holds.
  auto first = staging.Stage({100, 50}, bytes.data(), 0, fd, "log", ops);
  REQUIRE(first);
  CHECK(first.value().offset == 0);
  CHECK(first.value().length == 4096);
  const std::string block(first.value().bytes, 4096);
  CHECK(block.substr(0, 100) == std::string(100, 'H'));
  CHECK(block.substr(100, 50) == bytes);
  CHECK(block.substr(150) == std::string(4096 - 150, '\0'));
  // The next one spans two blocks, the first the one before ended in.
  auto second = staging.Stage({4090, 50}, bytes.data(), 0, fd, "log", ops);
  REQUIRE(second);
  CHECK(second.value().length == 8192);
  CHECK(std::string(second.value().bytes + 100, 50) == bytes);
  CHECK(std::string(second.value().bytes + 4090, 50) == bytes);
  CHECK(ops.preads == 0);
  // A write elsewhere reads its head block from the file.
  auto elsewhere = staging.Stage({40970, 10}, bytes.data(), 0, fd, "log", ops);
  REQUIRE(elsewhere);
  CHECK(ops.preads == 1);
  CHECK(elsewhere.value().offset == 40960);
  CHECK(std::string(elsewhere.value().bytes, 10) == std::string(10, 'f'));
  ::close(fd);
}
