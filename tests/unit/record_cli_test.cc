// lib/cli/record.h: the case file a trace corresponds to, where its commits
// fit the rules, and where a trace goes by default. The recording itself
// (strace, a real program) is tests/integration/record_replay.sh's.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "lib/cli/record.h"
#include "lib/config/case_file.h"
#include "lib/config/settings.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

Trace FixtureTrace() {
  Result<Trace> t = ReadTraceFile(ALIGNBENCH_SOURCE_DIR
                                  "/tests/cli/fixtures/trace-sqlite-3.json");
  REQUIRE(t);
  return t.value();
}

}  // namespace

TEST_CASE("record: SQLite's frames fit a case: a header and equal commits") {
  const std::optional<nlohmann::json> c = CaseOfTrace(FixtureTrace(), "t");
  REQUIRE(c);
  CHECK((*c)["log"]["header"] == 32);
  CHECK((*c)["sizes"] == nlohmann::json::array({"4120"}));
  CHECK((*c)["sync"] == "fdatasync");
  CHECK((*c)["layout"] == "extend");
  // The case file it writes is one alignbench reads and validates.
  Settings s;
  const Status applied = ApplyCaseText(c->dump(), "t.case.json", s);
  if (!applied) FAIL(applied.error().Message());
  CHECK(Validate(s).ok());
}

TEST_CASE("record: commits that do not follow one another fit no case") {
  Trace t = FixtureTrace();
  t.commits[2].ops[0].offset += 512;
  t.commits[2].ops[1].offset += 512;
  CHECK_FALSE(CaseOfTrace(t, "t"));
  Trace two_files = FixtureTrace();
  two_files.files.push_back(two_files.files[0]);
  CHECK_FALSE(CaseOfTrace(two_files, "t"));
}

TEST_CASE("record: the default trace path is the program's name") {
  CHECK(DefaultTracePath("/usr/bin/sqlite3") == "sqlite3.trace.json");
  CHECK(DefaultTracePath("") == "program.trace.json");
}

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
