// A short command run to its end, one stream read back, killed at its deadline.
#include "lib/io/command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

TEST_CASE("The stream asked for is read back, the other is not") {
  const std::vector<std::string> both = {"sh", "-c",
                                         "echo out; echo err >&2; exit 3"};
  const CommandOutput out = RunCommand(both, OutputStream::kStdout, 10000);
  CHECK(out.exited);
  CHECK(out.exit_status == 3);
  CHECK(out.text == "out\n");
  CHECK(RunCommand(both, OutputStream::kStderr, 10000).text == "err\n");
}

TEST_CASE(
    "A command past its deadline is killed, one that cannot run says so") {
  const auto start = std::chrono::steady_clock::now();
  const CommandOutput slow = RunCommand(
      {"sh", "-c", "echo started; exec sleep 30"}, OutputStream::kStdout, 300);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_FALSE(slow.exited);
  CHECK(slow.text == "started\n");
  const CommandOutput missing =
      RunCommand({"alignbench-no-such-command"}, OutputStream::kStdout, 10000);
  CHECK_FALSE(missing.exited);
  CHECK_FALSE(RunCommand({}, OutputStream::kStdout, 10000).exited);
}

TEST_CASE(
    "As root, a helper that another user could have put there is not run") {
  TempDir dir;
  const std::string program = dir.path() + "/alignbench-helper";
  std::ofstream(program) << "#!/bin/sh\necho ran\n";
  REQUIRE(::chmod(program.c_str(), 0755) == 0);
  const bool root = ::geteuid() == 0;
  CHECK(HelperProgram(program) == program);
  // A directory anyone may write (not sticky): a user could swap the file.
  REQUIRE(::chmod(dir.path().c_str(), 0777) == 0);
  CHECK(HelperProgram(program) == (root ? "" : program));
  CHECK(RunCommand({program}, OutputStream::kStdout, 10000).exited == !root);
  // Sticky, as /tmp: nobody else may rename or remove root's file there.
  REQUIRE(::chmod(dir.path().c_str(), 01777) == 0);
  CHECK(HelperProgram(program) == program);
  // Writable by its group, or another user's: not run by root.
  REQUIRE(::chmod(program.c_str(), 0775) == 0);
  CHECK(HelperProgram(program) == (root ? "" : program));
  REQUIRE(::chmod(program.c_str(), 0755) == 0);
  if (root) {
    REQUIRE(::chown(program.c_str(), 65534, 65534) == 0);
    CHECK(HelperProgram(program).empty());
  }
  REQUIRE(::chmod(dir.path().c_str(), 0700) == 0);
}

TEST_CASE("A helper is never looked for in the working directory") {
  TempDir dir;
  std::ofstream(dir.path() + "/alignbench-helper") << "#!/bin/sh\n";
  REQUIRE(::chmod((dir.path() + "/alignbench-helper").c_str(), 0755) == 0);
  const std::string saved_path = std::getenv("PATH");
  char saved_cwd[4096];
  REQUIRE(::getcwd(saved_cwd, sizeof saved_cwd) != nullptr);
  REQUIRE(::chdir(dir.path().c_str()) == 0);
  for (const char* path : {".", "", ":/usr/bin", "bin:.", "/usr/bin::"}) {
    ::setenv("PATH", path, 1);
    CHECK(HelperProgram("alignbench-helper").empty());
  }
  ::setenv("PATH", (dir.path() + ":" + saved_path).c_str(), 1);
  CHECK(HelperProgram("alignbench-helper") ==
        dir.path() + "/alignbench-helper");
  ::setenv("PATH", saved_path.c_str(), 1);
  REQUIRE(::chdir(saved_cwd) == 0);
}

// Another user's link to a system directory passes the check where it points
// now; what is run must be that directory's program, by its real path, so
// that re-pointing the link afterwards changes nothing.
TEST_CASE("A helper found through a link is run by its resolved path") {
  TempDir dir;
  const std::string link = dir.path() + "/bin";
  REQUIRE(::symlink("/usr/bin", link.c_str()) == 0);
  REQUIRE(::chmod(dir.path().c_str(), 0777) == 0);
  const std::string saved_path = std::getenv("PATH");
  ::setenv("PATH", link.c_str(), 1);
  const std::string found = HelperProgram("true");
  const std::string by_name = HelperProgram(link + "/true");
  ::setenv("PATH", saved_path.c_str(), 1);
  char real[4096];
  REQUIRE(::realpath("/usr/bin/true", real) != nullptr);
  CHECK(found == real);
  CHECK(by_name == real);
  REQUIRE(::chmod(dir.path().c_str(), 0700) == 0);
}
