// lib/trace/files_before.h: what the traced files were before tracing: the
// unwritten extents of a fallocated file, the sizes the globs find, and the
// files a process already holds open with their flags and positions.
#include "lib/trace/files_before.h"

#include <fcntl.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <vector>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

TEST_CASE("record: a fallocated, never written file is mostly unwritten") {
  TempDir dir;
  const std::string path = dir.path() + "/log";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0600);
  REQUIRE(fd >= 0);
  CHECK_FALSE(MostlyUnwritten(path).has_value());  // empty: nothing to say
  const bool fallocated = ::fallocate(fd, 0, 0, 1 << 20) == 0;
  std::vector<char> bytes(1 << 20, 'x');
  if (!fallocated) {
    ::close(fd);
    WARN("fallocate unsupported under " << dir.path() << ": not checked");
    return;
  }
  const std::optional<bool> fresh = MostlyUnwritten(path);
  if (!fresh) {
    ::close(fd);
    WARN("FIEMAP unsupported under " << dir.path() << ": not checked");
    return;
  }
  CHECK(*fresh);
  REQUIRE(::pwrite(fd, bytes.data(), bytes.size(), 0) ==
          static_cast<ssize_t>(bytes.size()));
  REQUIRE(::fsync(fd) == 0);
  CHECK(MostlyUnwritten(path) == std::optional<bool>(false));
  ::close(fd);
  CHECK_FALSE(MostlyUnwritten(dir.path() + "/missing").has_value());
}

TEST_CASE("record: the globs made absolute, and the sizes of what they match") {
  TempDir dir;
  const std::string path = dir.path() + "/wal-1";
  { std::ofstream(path) << std::string(100, 'x'); }
  StraceOptions options;
  Result<std::vector<std::string>> globs =
      AbsoluteGlobs({dir.path() + "/wal-*"}, options);
  REQUIRE(globs);
  CHECK(globs.value() == std::vector<std::string>{dir.path() + "/wal-*"});
  CHECK(options.sizes_before.at(path) == 100);
  CHECK(options.unwritten_before.empty());

  char cwd[4096];
  REQUIRE(::getcwd(cwd, sizeof cwd) != nullptr);
  Result<std::vector<std::string>> relative =
      AbsoluteGlobs({"x/*.log"}, options);
  REQUIRE(relative);
  CHECK(relative.value()[0] == std::string(cwd) + "/x/*.log");

  Result<std::vector<std::string>> empty = AbsoluteGlobs({""}, options);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().Message().find("--file") != std::string::npos);
}

TEST_CASE("record: a file this process holds open, with flags and position") {
  TempDir dir;
  const std::string path = dir.path() + "/redo";
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_DSYNC, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, "0123456789", 10) == 10);
  StraceOptions options;
  options.globs = {dir.path() + "/*"};
  OpenBefore({::getpid()}, options);
  ::close(fd);
  // By descriptor, as strace -y names it.
  const std::string key = std::to_string(fd) + "<" + path + ">";
  const std::string self = std::to_string(::getpid());
  REQUIRE(options.open_before[self].count(key) == 1);
  const StraceOptions::OpenBefore& open = options.open_before[self].at(key);
  CHECK(open.position == 10);
  CHECK(open.flags ==
        std::vector<std::string>{"O_WRONLY", "O_APPEND", "O_DSYNC"});
  CHECK(options.sizes_before.at(path) == 10);
  // Not selected by the globs: not recorded.
  StraceOptions other;
  other.globs = {"/no/such/dir/*"};
  OpenBefore({::getpid()}, other);
  CHECK(other.open_before.empty());
}

TEST_CASE(
    "record: a child's descriptors are its own, its inherited ones shared") {
  // strace -f of a parent whose child, forked before the attach, opened the
  // log again and writes it at 1 MiB: one process's descriptor 5 is not the
  // other's, and the descriptor it inherited shares its parent's position.
  TempDir dir;
  const std::string path = dir.path() + "/log";
  const int inherited = ::open(path.c_str(), O_WRONLY | O_CREAT, 0600);
  REQUIRE(inherited >= 0);
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int own = ::open(path.c_str(), O_WRONLY);
    ::lseek(own, 1 << 20, SEEK_SET);
    const std::string fd = std::to_string(own);
    (void)!::write(ready[1], fd.data(), fd.size());
    ::pause();
    ::_exit(0);
  }
  char buffer[16] = {};
  const ssize_t got = ::read(ready[0], buffer, sizeof buffer - 1);
  StraceOptions options;
  options.globs = {dir.path() + "/*"};
  OpenBefore({::getpid(), child}, options);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  ::close(inherited);
  REQUIRE(got > 0);
  const std::string self = std::to_string(::getpid()),
                    kid = std::to_string(child);
  const std::string own = std::string(buffer) + "<" + path + ">";
  const std::string shared = std::to_string(inherited) + "<" + path + ">";
  CHECK(options.process_of.at(kid) == kid);
  REQUIRE(options.open_before[kid].count(own) == 1);
  CHECK(options.open_before[kid].at(own).position == 1u << 20);
  CHECK(options.open_before[self].count(own) == 0);
  REQUIRE(options.open_before[kid].count(shared) == 1);
  CHECK(options.open_before[kid].at(shared).description ==
        options.open_before[self].at(shared).description);
  CHECK(options.open_before[kid].at(own).description !=
        options.open_before[self].at(shared).description);
}

TEST_CASE("record: an io_uring open before --pid attached is a limit") {
  io_uring_params params{};
  const int ring = static_cast<int>(::syscall(SYS_io_uring_setup, 1, &params));
  if (ring < 0) {
    WARN("SKIPPED: io_uring_setup refused here (errno "
         << errno << "): the io_uring limit is not checked");
    return;
  }
  StraceOptions options;
  OpenBefore({::getpid()}, options);
  ::close(ring);
  CHECK(options.io_uring_before);
  Result<Trace> t = ParseStrace(
      "1 pwrite64(3</d/log>, \"\"..., 10, 0) = 10\n"
      "1 fsync(3</d/log>) = 0\n",
      options);
  REQUIRE(t);
  const std::vector<std::string>& limits = t.value().limits;
  CHECK(std::any_of(limits.begin(), limits.end(), [](const std::string& l) {
    return l.rfind("an io_uring was set up before the trace", 0) == 0;
  }));
}

TEST_CASE("record: a file mostly holes is sparse; its extents are counted") {
  // Berkeley DB sizes its log ahead and writes into it: 8 KiB written of a
  // 1 MiB file. Two blocks apart are two extents.
  TempDir dir;
  const std::string path = dir.path() + "/log.0000000001";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0600);
  REQUIRE(fd >= 0);
  const std::vector<char> block(4096, 'x');
  REQUIRE(::ftruncate(fd, 1 << 20) == 0);
  REQUIRE(::pwrite(fd, block.data(), block.size(), 0) == 4096);
  REQUIRE(::pwrite(fd, block.data(), block.size(), 512 << 10) == 4096);
  REQUIRE(::fsync(fd) == 0);
  ::close(fd);
  StraceOptions options;
  REQUIRE(AbsoluteGlobs({dir.path() + "/log.*"}, options));
  CHECK(options.sizes_before.at(path) == 1u << 20);
  CHECK(options.sparse_before.count(path) == 1);
  CHECK(options.unwritten_before.count(path) == 0);
  const std::optional<FileLayout> layout = LayoutBefore(path);
  REQUIRE(layout);
  CHECK(layout->allocated < layout->size / 2);
  if (!layout->extents) {
    WARN("FIEMAP unsupported under " << dir.path() << ": extents not checked");
    return;
  }
  CHECK(*layout->extents == 2);
  CHECK(options.extents_before.at(path) == 2);
}
