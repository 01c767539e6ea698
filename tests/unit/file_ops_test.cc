// lib/io/file_ops.h: SystemFileOps makes the kernel's calls, and a
// FileOpsWrapper passes every call it does not override on to its target.
#include "lib/io/file_ops.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <string>

#include "lib/io/fd.h"
#include "lib/io/uring.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

// Counts every call, then passes it on.
class Counting final : public FileOpsWrapper {
 public:
  using FileOpsWrapper::FileOpsWrapper;
  int calls = 0;
  int Create(const char* p, int f, mode_t m) override {
    ++calls;
    return FileOpsWrapper::Create(p, f, m);
  }
  ssize_t Pwrite(int fd, const void* b, std::size_t n, off_t o) override {
    ++calls;
    return FileOpsWrapper::Pwrite(fd, b, n, o);
  }
  ssize_t Pread(int fd, void* b, std::size_t n, off_t o) override {
    ++calls;
    return FileOpsWrapper::Pread(fd, b, n, o);
  }
  int Fsync(int fd) override {
    ++calls;
    return FileOpsWrapper::Fsync(fd);
  }
  int Fdatasync(int fd) override {
    ++calls;
    return FileOpsWrapper::Fdatasync(fd);
  }
  int Fallocate(int fd, int mode, off_t at, off_t n) override {
    ++calls;
    return FileOpsWrapper::Fallocate(fd, mode, at, n);
  }
  int Ftruncate(int fd, off_t n) override {
    ++calls;
    return FileOpsWrapper::Ftruncate(fd, n);
  }
  int DropCache(int fd) override {
    ++calls;
    return FileOpsWrapper::DropCache(fd);
  }
  int UnlinkAt(int d, const char* n) override {
    ++calls;
    return FileOpsWrapper::UnlinkAt(d, n);
  }
  ssize_t PwriteFlags(int fd, const void* b, std::size_t n, off_t o,
                      int flags) override {
    ++calls;
    return FileOpsWrapper::PwriteFlags(fd, b, n, o, flags);
  }
  int Open(const char* p, int f) override {
    ++calls;
    return FileOpsWrapper::Open(p, f);
  }
  int Fstat(int fd, struct stat* st) override {
    ++calls;
    return FileOpsWrapper::Fstat(fd, st);
  }
  int Fiemap(int fd, fiemap* map) override {
    ++calls;
    return FileOpsWrapper::Fiemap(fd, map);
  }
  int ResidentPages(int fd, std::uint64_t span, std::uint64_t* n) override {
    ++calls;
    return FileOpsWrapper::ResidentPages(fd, span, n);
  }
  int RingInit(unsigned entries, io_uring* ring) override {
    ++calls;
    return FileOpsWrapper::RingInit(entries, ring);
  }
  void RingExit(io_uring* ring) override {
    ++calls;
    FileOpsWrapper::RingExit(ring);
  }
};

}  // namespace

TEST_CASE("file_ops: SystemFileOps is one object") {
  CHECK(&SystemFileOps() == &SystemFileOps());
}

TEST_CASE("file_ops: every call reaches the kernel through a wrapper") {
  TempDir dir;
  Counting ops(SystemFileOps());
  const std::string path = dir.path() + "/f";
  UniqueFd fd(ops.Create(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600));
  REQUIRE(fd.valid());
  // O_EXCL: a second create of the same name fails with EEXIST.
  CHECK(ops.Create(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600) == -1);
  CHECK(errno == EEXIST);

  const char text[] = "hello";
  CHECK(ops.Pwrite(fd.get(), text, 5, 3) == 5);
  char back[5] = {};
  CHECK(ops.Pread(fd.get(), back, 5, 3) == 5);
  CHECK(std::memcmp(back, text, 5) == 0);
  CHECK(ops.Fsync(fd.get()) == 0);
  CHECK(ops.Fdatasync(fd.get()) == 0);
  CHECK(ops.DropCache(fd.get()) == 0);
  const int fallocated = ops.Fallocate(fd.get(), 0, 0, 65536);
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  if (fallocated == 0) {
    CHECK(st.st_size == 65536);
  } else {  // a filesystem without fallocate (tmpfs has it; some do not)
    CHECK(errno == EOPNOTSUPP);
    CHECK(st.st_size == 8);
  }
  CHECK(ops.Ftruncate(fd.get(), 4) == 0);
  REQUIRE(::fstat(fd.get(), &st) == 0);
  CHECK(st.st_size == 4);
  // Errors come back as the system call returns them.
  CHECK(ops.Fsync(-1) == -1);
  CHECK(errno == EBADF);

  UniqueFd dir_fd(::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY));
  REQUIRE(dir_fd.valid());
  CHECK(ops.UnlinkAt(dir_fd.get(), "f") == 0);
  CHECK(::access(path.c_str(), F_OK) != 0);
  CHECK(ops.UnlinkAt(dir_fd.get(), "f") == -1);
  CHECK(errno == ENOENT);
  CHECK(ops.calls == 12);
}

TEST_CASE("file_ops: the calls around the writes reach the kernel too") {
  TempDir dir;
  Counting ops(SystemFileOps());
  const std::string path = dir.path() + "/f";
  UniqueFd fd(ops.Create(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600));
  REQUIRE(fd.valid());
  CHECK(ops.PwriteFlags(fd.get(), "hello", 5, 0, RWF_DSYNC) == 5);
  struct stat st {};
  REQUIRE(ops.Fstat(fd.get(), &st) == 0);
  CHECK(st.st_size == 5);
  UniqueFd again(ops.Open(path.c_str(), O_RDONLY));
  CHECK(again.valid());
  CHECK(ops.Open((dir.path() + "/none").c_str(), O_RDONLY) == -1);
  CHECK(errno == ENOENT);
  std::uint64_t pages = 0;
  CHECK(ops.ResidentPages(fd.get(), 5, &pages) == 0);
  CHECK(pages == 1);  // just written, so in the page cache
  fiemap head{};
  head.fm_length = FIEMAP_MAX_OFFSET;
  const int mapped = ops.Fiemap(fd.get(), &head);
  CHECK((mapped == 0 || errno == EOPNOTSUPP));
  CHECK(ops.calls == 7);
  // io_uring's setup and teardown: through the wrapper, or setup refused by
  // the machine (io_uring_disabled, a seccomp filter), which is not a fault.
  bool ringed = false;
  {
    auto ring = Uring::Open(2, ops);
    ringed = static_cast<bool>(ring);
    if (!ringed) WARN("io_uring refused here: " << ring.error().Message());
  }
  CHECK(ops.calls == (ringed ? 9 : 8));
}
