// lib/io/file_io.h: PwriteAll/PreadAll continue short transfers and retry
// EINTR, and report an error with the offset it happened at; ReadWholeFile
// reads regular files within the bound and refuses everything else before
// reading; AlignedBuffer is aligned and filled.
#include "lib/io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "lib/io/fd.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

// Each call: first `eintr` calls fail with EINTR, then every call moves at most
// `most` bytes; a call at `fail_at` (if set) fails with EIO.
class Stingy final : public FileOpsWrapper {
 public:
  Stingy(std::size_t most, int eintr)
      : FileOpsWrapper(SystemFileOps()), most_(most), eintr_(eintr) {}
  off_t fail_at = -1;
  int calls = 0;
  std::vector<off_t> offsets;

  ssize_t Pwrite(int fd, const void* b, std::size_t n, off_t o) override {
    if (const ssize_t r = Before(o); r != 0) return r;
    return FileOpsWrapper::Pwrite(fd, b, std::min(n, most_), o);
  }
  ssize_t Pread(int fd, void* b, std::size_t n, off_t o) override {
    if (const ssize_t r = Before(o); r != 0) return r;
    return FileOpsWrapper::Pread(fd, b, std::min(n, most_), o);
  }

 private:
  ssize_t Before(off_t offset) {
    ++calls;
    if (eintr_ > 0) {
      --eintr_;
      errno = EINTR;
      return -1;
    }
    offsets.push_back(offset);
    if (fail_at >= 0 && offset >= fail_at) {
      errno = EIO;
      return -1;
    }
    return 0;
  }
  std::size_t most_;
  int eintr_;
};

std::string Bytes(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

UniqueFd OpenNew(const std::string& path) {
  UniqueFd fd(
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  REQUIRE(fd.valid());
  return fd;
}

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

}  // namespace

TEST_CASE("file_io: PwriteAll continues short writes and retries EINTR") {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  UniqueFd fd = OpenNew(path);
  const std::string data = Bytes(1000);
  Stingy ops(/*most=*/300, /*eintr=*/2);
  REQUIRE(PwriteAll(fd.get(), data.data(), data.size(), 10, path, ops));
  // 2 EINTR, then 300 + 300 + 300 + 100.
  CHECK(ops.calls == 6);
  CHECK(ops.offsets == std::vector<off_t>{10, 310, 610, 910});
  CHECK(Contents(path) == std::string(10, '\0') + data);
}

TEST_CASE("file_io: PreadAll continues short reads and retries EINTR") {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  const std::string data = Bytes(1000);
  WriteFile(path, data);
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  Stingy ops(/*most=*/256, /*eintr=*/1);
  std::string back(900, 'x');
  REQUIRE(PreadAll(fd.get(), back.data(), back.size(), 100, path, ops));
  CHECK(back == data.substr(100));
  CHECK(ops.offsets == std::vector<off_t>{100, 356, 612, 868});

  // Past the end of the file the rest reads as zeros.
  std::string tail(50, 'x');
  REQUIRE(PreadAll(fd.get(), tail.data(), tail.size(), 980, path, ops));
  CHECK(tail == data.substr(980) + std::string(30, '\0'));
}

TEST_CASE("file_io: an error names the call, the path and the offset") {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  UniqueFd fd = OpenNew(path);
  const std::string data = Bytes(1000);
  Stingy ops(/*most=*/300, /*eintr=*/0);
  ops.fail_at = 600;
  const Status wrote =
      PwriteAll(fd.get(), data.data(), data.size(), 0, path, ops);
  REQUIRE_FALSE(wrote);
  CHECK(wrote.error().kind == ErrorKind::kIo);
  CHECK(wrote.error().operation == "pwrite");
  CHECK(wrote.error().path == path);
  CHECK(wrote.error().errno_value == EIO);
  CHECK(wrote.error().offset == std::int64_t{600});

  std::string back(1000, 'x');
  const Status read =
      PreadAll(fd.get(), back.data(), back.size(), 0, path, ops);
  REQUIRE_FALSE(read);
  CHECK(read.error().operation == "pread");
  CHECK(read.error().errno_value == EIO);
  CHECK(read.error().offset == std::int64_t{600});

  // A real failure from the kernel: a read-only descriptor cannot write.
  UniqueFd ro(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  const Status bad = PwriteAll(ro.get(), data.data(), 10, 7, path);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().errno_value == EBADF);
  CHECK(bad.error().offset == std::int64_t{7});
}

TEST_CASE("file_io: ReadWholeFile reads a regular file within the bound") {
  TempDir dir;
  const std::string path = dir.path() + "/f";
  const std::string data = Bytes(70000);  // more than one read's chunk
  WriteFile(path, data);
  const auto read = ReadWholeFile(path, ErrorKind::kUsage, data.size());
  REQUIRE(read);
  CHECK(read.value() == data);
  WriteFile(dir.path() + "/empty", "");
  const auto empty = ReadWholeFile(dir.path() + "/empty", ErrorKind::kUsage, 0);
  REQUIRE(empty);
  CHECK(empty.value().empty());
}

TEST_CASE("file_io: ReadWholeFile refuses what is not a small regular file") {
  TempDir dir;
  const std::string big = dir.path() + "/big";
  WriteFile(big, Bytes(101));
  const auto too_large = ReadWholeFile(big, ErrorKind::kUsage, 100);
  REQUIRE_FALSE(too_large);
  CHECK(too_large.error().kind == ErrorKind::kUsage);
  CHECK(too_large.error().path == big);

  const auto directory = ReadWholeFile(dir.path(), ErrorKind::kSetup, 1 << 20);
  REQUIRE_FALSE(directory);
  CHECK(directory.error().kind == ErrorKind::kSetup);
  CHECK(directory.error().errno_value == EISDIR);

  // A device that would never end.
  const auto zero = ReadWholeFile("/dev/zero", ErrorKind::kUsage, 1 << 20);
  REQUIRE_FALSE(zero);
  CHECK(zero.error().path == "/dev/zero");

  // A FIFO without a writer: refused at once, not waited on.
  const std::string fifo = dir.path() + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto from_fifo = ReadWholeFile(fifo, ErrorKind::kUsage, 1 << 20);
  REQUIRE_FALSE(from_fifo);
  CHECK(from_fifo.error().path == fifo);

  const auto missing =
      ReadWholeFile(dir.path() + "/missing", ErrorKind::kUsage, 1 << 20);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().errno_value == ENOENT);
}

TEST_CASE("file_io: AlignedBuffer is aligned, sized and not zeros") {
  for (std::size_t alignment : {512u, 4096u, 65536u}) {
    for (std::size_t size : {0u, 1u, 4095u, 4096u, 100000u}) {
      AlignedBuffer buffer(size, alignment);
      CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % alignment == 0);
      CHECK(buffer.size() == size);
    }
  }
  AlignedBuffer a(4096, 4096), b(4096, 512);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < a.size(); ++i) zeros += a.data()[i] == 0;
  CHECK(zeros < 64);  // pseudo-random: about 16 of 4096 bytes are zero
  // The same fixed bytes every time.
  CHECK(std::string(a.data(), 4096) == std::string(b.data(), 4096));
}
