#include "lib/io/result_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace alignbench;

namespace {

// A fresh directory, removed with everything in it at the end of the test.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/alignbench-unit.XXXXXX";
    REQUIRE(::mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool OnlyEntry(const std::string& dir, const std::string& name) {
  const std::string listing = "ls -A '" + dir + "' | grep -vx '" + name + "'";
  return std::system(("test -z \"$(" + listing + ")\"").c_str()) == 0;
}

}  // namespace

// The check before measuring and the rename at the end can be far apart: what
// took the result's place meanwhile is looked at again at the rename itself.
TEST_CASE("--force at the rename: only a regular file is replaced") {
  TempDir dir;
  const std::string out = dir.path + "/r.json";

  SECTION("a regular file is replaced") {
    std::ofstream(out) << "old";
    REQUIRE(WriteResultFile(out, "new", Overwrite::kReplace));
    CHECK(Slurp(out) == "new");
    CHECK(OnlyEntry(dir.path, "r.json"));
  }
  SECTION("nothing there: the file is created") {
    REQUIRE(WriteResultFile(out, "new", Overwrite::kReplace));
    CHECK(Slurp(out) == "new");
  }
  SECTION("a FIFO that took its place is kept") {
    REQUIRE(::mkfifo(out.c_str(), 0600) == 0);
    const Status saved = WriteResultFile(out, "new", Overwrite::kReplace);
    REQUIRE_FALSE(saved);
    CHECK(saved.error().kind == ErrorKind::kNotSaved);
    CHECK_THAT(saved.error().Message(), Catch::Contains("a FIFO"));
    struct stat st {};
    REQUIRE(::lstat(out.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(OnlyEntry(dir.path, "r.json"));  // no temporary file left
  }
  SECTION("a symbolic link that took its place is kept") {
    const std::string victim = dir.path + "/victim";
    std::ofstream(victim) << "precious";
    REQUIRE(::symlink(victim.c_str(), out.c_str()) == 0);
    const Status saved = WriteResultFile(out, "new", Overwrite::kReplace);
    REQUIRE_FALSE(saved);
    CHECK_THAT(saved.error().Message(), Catch::Contains("symbolic link"));
    struct stat st {};
    REQUIRE(::lstat(out.c_str(), &st) == 0);
    CHECK(S_ISLNK(st.st_mode));
    CHECK(Slurp(victim) == "precious");
  }
  SECTION("a directory that took its place is kept") {
    REQUIRE(::mkdir(out.c_str(), 0700) == 0);
    REQUIRE_FALSE(WriteResultFile(out, "new", Overwrite::kReplace));
    struct stat st {};
    REQUIRE(::lstat(out.c_str(), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
  }
  SECTION("without --force a file that appeared is not replaced") {
    std::ofstream(out) << "old";
    REQUIRE_FALSE(WriteResultFile(out, "new", Overwrite::kRefuse));
    CHECK(Slurp(out) == "old");
  }
}

// The fallback is tried in every place its message names: an unwritable
// current directory and a TMPDIR that does not exist still leave /tmp.
TEST_CASE("The fallback result reaches /tmp when cwd and TMPDIR fail") {
  char previous[PATH_MAX];
  REQUIRE(::getcwd(previous, sizeof previous) != nullptr);
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved_tmpdir = old_tmpdir ? old_tmpdir : "";
  char gone[] = "/tmp/alignbench-gone.XXXXXX";
  REQUIRE(::mkdtemp(gone) != nullptr);
  REQUIRE(::chdir(gone) == 0);
  REQUIRE(::rmdir(gone) == 0);  // a deleted working directory takes no file
  ::setenv("TMPDIR", "/nonexistent-alignbench", 1);

  const SaveOutcome outcome =
      SaveResult("/nonexistent-alignbench/r.json", "{}\n", Overwrite::kRefuse);

  REQUIRE(::chdir(previous) == 0);
  if (old_tmpdir) {
    ::setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  REQUIRE_FALSE(outcome.status);
  CHECK(outcome.status.error().kind == ErrorKind::kNotSaved);
  REQUIRE(outcome.fallback);
  CHECK(outcome.fallback->rfind("/tmp/alignbench-result-", 0) == 0);
  CHECK(Slurp(*outcome.fallback) == "{}\n");
  CHECK_THAT(outcome.status.error().hint, Catch::Contains(*outcome.fallback));
  ::unlink(outcome.fallback->c_str());
}

// Another user sharing the working directory plants every name a pid alone
// would give (links to a file of ours, FIFOs); the fallback is still written,
// at a name nobody could have guessed, and nothing planted is followed.
TEST_CASE("A fallback's name cannot be planted in advance") {
  TempDir shared;
  const std::string target = shared.path + "/victim";
  std::ofstream(target) << "keep";
  const std::string pid = std::to_string(::getpid());
  for (const char* what : {"result", "trace"}) {
    const std::string planted =
        shared.path + "/alignbench-" + what + "-" + pid + ".json";
    REQUIRE(::symlink(target.c_str(), planted.c_str()) == 0);
  }
  char previous[PATH_MAX];
  REQUIRE(::getcwd(previous, sizeof previous) != nullptr);
  REQUIRE(::chdir(shared.path.c_str()) == 0);
  const SaveOutcome first =
      SaveResult("/nonexistent-alignbench/r.json", "{}\n", Overwrite::kRefuse);
  const SaveOutcome second = SaveResult("/nonexistent-alignbench/r.json",
                                        "{}\n", Overwrite::kRefuse, "trace");
  REQUIRE(::chdir(previous) == 0);
  REQUIRE(first.fallback);
  REQUIRE(second.fallback);
  const std::string prefix = shared.path + "/alignbench-result-" + pid + "-";
  REQUIRE(first.fallback->rfind(prefix, 0) == 0);
  const std::string random = first.fallback->substr(
      prefix.size(),
      first.fallback->size() - prefix.size() - sizeof ".json" + 1);
  CHECK(random.size() == 16);
  CHECK(random.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(second.fallback->rfind(shared.path + "/alignbench-trace-" + pid + "-",
                               0) == 0);
  CHECK(Slurp(*first.fallback) == "{}\n");
  CHECK(Slurp(target) == "keep");
}

TEST_CASE(
    "Each directory's result file is named for it, never like a temporary "
    "file") {
  CHECK(ResultPaths("r.json", {"/tmp"}) == std::vector<std::string>{"r.json"});
  CHECK(ResultPaths("runs/r.json", {"/tmp", "/dev/shm/"}) ==
        std::vector<std::string>{"runs/r-in-tmp.json", "runs/r-in-shm.json"});
  CHECK(ResultPaths("r.json", {"/a/mnt", "/b/mnt", "/"}) ==
        std::vector<std::string>{"r-in-mnt.json", "r-in-dir2-mnt.json",
                                 "r-in-dir3.json"});
  CHECK(ResultPaths("d.x/r", {"/tmp", "/var"}) ==
        std::vector<std::string>{"d.x/r-in-tmp", "d.x/r-in-var"});
}
