// lib/io/test_file.h: the private test file is created O_EXCL under a name
// nobody mistakes, can be reopened, and is removed by its destructor, through
// the directory's descriptor even after the directory was renamed; a sweep
// removes files of dead processes and leaves those of live ones.
#include "lib/io/test_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// The pid of a process that has exited and been reaped.
pid_t DeadPid() {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return child;
}

std::string TestFileName(pid_t pid, const char* hex) {
  return ".alignbench-" + std::to_string(pid) + "-" + hex;
}

void Touch(const std::string& path) {
  std::ofstream out(path);
  out << "x";
  REQUIRE(out.good());
}

// Counts unlinks and Creates, then passes them on.
class Counting final : public FileOpsWrapper {
 public:
  Counting() : FileOpsWrapper(SystemFileOps()) {}
  int creates = 0;
  int create_flags = 0;
  int unlinks = 0;
  int Create(const char* p, int f, mode_t m) override {
    ++creates;
    create_flags = f;
    return FileOpsWrapper::Create(p, f, m);
  }
  int UnlinkAt(int d, const char* n) override {
    ++unlinks;
    return FileOpsWrapper::UnlinkAt(d, n);
  }
};

}  // namespace

TEST_CASE("test_file: Create makes .alignbench-PID-XXXXXXXX, O_EXCL") {
  TempDir dir;
  Counting ops;
  std::string path;
  {
    auto file = TestFile::Create(dir.path(), ops);
    REQUIRE(file);
    path = file.value().path();
    const std::string prefix =
        dir.path() + "/.alignbench-" + std::to_string(::getpid()) + "-";
    REQUIRE(path.rfind(prefix, 0) == 0);
    const std::string hex = path.substr(prefix.size());
    CHECK(hex.size() == 8);
    CHECK(hex.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(ops.creates == 1);
    CHECK((ops.create_flags & O_CREAT) != 0);
    CHECK((ops.create_flags & O_EXCL) != 0);
    CHECK((ops.create_flags & O_ACCMODE) == O_RDWR);

    struct stat st {};
    REQUIRE(::fstat(file.value().fd(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK(st.st_size == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(dir.Names().size() == 1);

    // A move hands the file over; only one removal follows.
    TestFile moved(std::move(file).value());
    CHECK(moved.path() == path);
    CHECK(Exists(path));
  }
  CHECK_FALSE(Exists(path));
  CHECK(ops.unlinks == 1);
  CHECK(dir.Names().empty());
}

TEST_CASE("test_file: two files in one directory have different names") {
  TempDir dir;
  auto a = TestFile::Create(dir.path());
  auto b = TestFile::Create(dir.path());
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a.value().path() != b.value().path());
  CHECK(dir.Names().size() == 2);
}

TEST_CASE("test_file: Reopen gives another descriptor on the same file") {
  TempDir dir;
  auto file = TestFile::Create(dir.path());
  REQUIRE(file);
  auto again = file.value().Reopen(O_RDWR | O_DSYNC);
  REQUIRE(again);
  const int fd2 = again.value().get();
  CHECK(fd2 != file.value().fd());
  struct stat a {
  }, b{};
  REQUIRE(::fstat(file.value().fd(), &a) == 0);
  REQUIRE(::fstat(fd2, &b) == 0);
  CHECK(a.st_ino == b.st_ino);
  CHECK(a.st_dev == b.st_dev);
  CHECK((::fcntl(fd2, F_GETFL) & O_DSYNC) == O_DSYNC);
  // What one writes the other reads.
  REQUIRE(::pwrite(fd2, "abc", 3, 0) == 3);
  char back[3] = {};
  REQUIRE(::pread(file.value().fd(), back, 3, 0) == 3);
  CHECK(std::memcmp(back, "abc", 3) == 0);
  // Reopen never creates: still one file in the directory.
  CHECK(dir.Names().size() == 1);
}

TEST_CASE("test_file: Create refuses what is not a writable directory") {
  TempDir dir;
  const auto missing = TestFile::Create(dir.path() + "/missing");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == ErrorKind::kSetup);
  CHECK(missing.error().errno_value == ENOENT);

  const std::string regular = dir.path() + "/regular";
  Touch(regular);
  const auto not_dir = TestFile::Create(regular);
  REQUIRE_FALSE(not_dir);
  CHECK(not_dir.error().errno_value == ENOTDIR);
  ::unlink(regular.c_str());

  // A create that fails (as O_EXCL does on an existing name) is an error,
  // and leaves nothing behind.
  class ExistsOps final : public FileOpsWrapper {
   public:
    ExistsOps() : FileOpsWrapper(SystemFileOps()) {}
    int Create(const char*, int, mode_t) override {
      errno = EEXIST;
      return -1;
    }
  } exists;
  const auto taken = TestFile::Create(dir.path(), exists);
  REQUIRE_FALSE(taken);
  CHECK(taken.error().errno_value == EEXIST);
  CHECK(dir.Names().empty());
}

TEST_CASE("test_file: the file is removed where the directory now is") {
  TempDir dir;
  const std::string moved = dir.path() + ".moved";
  {
    auto file = TestFile::Create(dir.path());
    REQUIRE(file);
    const std::string name =
        file.value().path().substr(file.value().path().rfind('/') + 1);
    REQUIRE(::rename(dir.path().c_str(), moved.c_str()) == 0);
    dir.Moved(moved);
    CHECK(Exists(moved + "/" + name));
  }
  CHECK(dir.Names().empty());
}

TEST_CASE("test_file: a sweep removes dead processes' files, not live ones") {
  TempDir dir;
  const std::string dead = TestFileName(DeadPid(), "0123abcd");
  const std::string live = TestFileName(::getppid(), "89abcdef");
  const std::string other = "not-ours.txt";
  const std::string near = ".alignbench-notapid-0123abcd";
  for (const std::string& name : {dead, live, other, near}) {
    Touch(dir.path() + "/" + name);
  }
  auto ours = TestFile::Create(dir.path());
  REQUIRE(ours);

  std::ostringstream log;
  SweepStaleTestFiles(dir.path(), log);
  CHECK_FALSE(Exists(dir.path() + "/" + dead));
  CHECK(Exists(dir.path() + "/" + live));
  CHECK(Exists(dir.path() + "/" + other));
  CHECK(Exists(dir.path() + "/" + near));
  CHECK(Exists(ours.value().path()));
  const std::string said = log.str();
  CHECK(said.find("removed stale test file " + dir.path() + "/" + dead) !=
        std::string::npos);
  CHECK(said.find("left " + dir.path() + "/" + live) != std::string::npos);
  CHECK(said.find(other) == std::string::npos);
  CHECK(said.find(ours.value().path()) == std::string::npos);
}

TEST_CASE("test_file: a sweep leaves a dead pid's file that is locked") {
  TempDir dir;
  const std::string path =
      dir.path() + "/" + TestFileName(DeadPid(), "00ff00ff");
  Touch(path);
  // Held locked by an open description, as a run in another PID namespace
  // would hold it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  std::ostringstream log;
  SweepStaleTestFiles(dir.path(), log);
  CHECK(Exists(path));
  CHECK(log.str().find("locked") != std::string::npos);
  ::close(fd);
  SweepStaleTestFiles(dir.path(), log);
  CHECK_FALSE(Exists(path));
}

TEST_CASE("test_file: a sweep leaves a dead pid's name that is a hard link") {
  TempDir dir;
  const std::string kept = dir.path() + "/kept";
  Touch(kept);
  const std::string path =
      dir.path() + "/" + TestFileName(DeadPid(), "0badf00d");
  REQUIRE(::link(kept.c_str(), path.c_str()) == 0);
  std::ostringstream log;
  SweepStaleTestFiles(dir.path(), log);
  CHECK(Exists(path));
  CHECK(log.str().find("2 names (hard links)") != std::string::npos);
  ::unlink(path.c_str());
}
