// lib/cli/record.h: where a trace goes by default. The command itself
// (strace, a real program) is tests/integration/record_replay.sh's.
#include <catch2/catch.hpp>

#include "lib/cli/record.h"

using namespace alignbench;

TEST_CASE("record: the default trace path is the program's name") {
  CHECK(DefaultTracePath("/usr/bin/sqlite3") == "sqlite3.trace.json");
  CHECK(DefaultTracePath("") == "program.trace.json");
}
