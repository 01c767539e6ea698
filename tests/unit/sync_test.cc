// lib/measure/sync.h: each sync method's open flags and the call it makes after
// a write (fsync for fsync, fdatasync for fdatasync, nothing for the others),
// counted through a FileOpsWrapper.
#include "lib/measure/sync.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "lib/io/fd.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

class Counting final : public FileOpsWrapper {
 public:
  Counting() : FileOpsWrapper(SystemFileOps()) {}
  int fsyncs = 0;
  int fdatasyncs = 0;
  int fail_errno = 0;
  int Fsync(int fd) override {
    ++fsyncs;
    if (fail_errno != 0) {
      errno = fail_errno;
      return -1;
    }
    return FileOpsWrapper::Fsync(fd);
  }
  int Fdatasync(int fd) override {
    ++fdatasyncs;
    if (fail_errno != 0) {
      errno = fail_errno;
      return -1;
    }
    return FileOpsWrapper::Fdatasync(fd);
  }
};

struct Expected {
  SyncMethod method;
  int flags;
  bool call;
  int fsyncs;
  int fdatasyncs;
};

constexpr Expected kExpected[] = {
    {SyncMethod::kFsync, 0, true, 1, 0},
    {SyncMethod::kFdatasync, 0, true, 0, 1},
    {SyncMethod::kOSync, O_SYNC, false, 0, 0},
    {SyncMethod::kODsync, O_DSYNC, false, 0, 0},
    {SyncMethod::kNone, 0, false, 0, 0},
};

}  // namespace

TEST_CASE("sync: every method's flags, call and system call") {
  REQUIRE(std::size(kExpected) == std::size(kSyncMethods));
  // A real file: fsync(2) of /dev/null fails with EINVAL.
  TempDir dir;
  const std::string path = dir.path() + "/f";
  UniqueFd fd(
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  REQUIRE(fd.valid());
  for (const Expected& e : kExpected) {
    CAPTURE(NameOf(kSyncMethods, e.method));
    CHECK(SyncOpenFlags(e.method) == e.flags);
    CHECK(HasSyncCall(e.method) == e.call);
    Counting ops;
    CHECK(SyncAfterWrite(e.method, fd.get(), path, ops));
    CHECK(ops.fsyncs == e.fsyncs);
    CHECK(ops.fdatasyncs == e.fdatasyncs);
    // A method with a call makes exactly that one call.
    CHECK((ops.fsyncs + ops.fdatasyncs == 1) == HasSyncCall(e.method));
  }
}

TEST_CASE("sync: a failed call is an I/O error named after the method") {
  for (SyncMethod method : {SyncMethod::kFsync, SyncMethod::kFdatasync}) {
    Counting ops;
    ops.fail_errno = EIO;
    const Status synced = SyncAfterWrite(method, 7, "/d/f", ops);
    REQUIRE_FALSE(synced);
    CHECK(synced.error().kind == ErrorKind::kIo);
    CHECK(synced.error().operation == NameOf(kSyncMethods, method));
    CHECK(synced.error().path == "/d/f");
    CHECK(synced.error().errno_value == EIO);
  }
  // Methods without a call cannot fail, whatever the descriptor.
  Counting ops;
  ops.fail_errno = EIO;
  for (SyncMethod method :
       {SyncMethod::kOSync, SyncMethod::kODsync, SyncMethod::kNone}) {
    CHECK(SyncAfterWrite(method, -1, "/d/f", ops));
  }
  CHECK(ops.fsyncs + ops.fdatasyncs == 0);
}
