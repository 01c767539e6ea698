// lib/trace/case_of_trace.h: the case file a trace corresponds to, where its
// commits fit the rules. The recording itself (strace, a real program) is
// tests/integration/record_replay.sh's.
#include "lib/trace/case_of_trace.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "lib/config/case_file.h"
#include "lib/config/replay.h"
#include "lib/config/settings.h"

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

TEST_CASE(
    "record: commits aligned already are a case whose unaligned variant is "
    "moved") {
  // 4096-byte commits from offset 0: nothing to drop, so the case moves
  // the unaligned variant by 512 bytes and says so.
  Trace t = FixtureTrace();
  t.header.reset();
  for (std::size_t k = 0; k < t.commits.size(); ++k) {
    t.commits[k].ops = {{OpKind::kWrite, 0, k * 4096, 4096, {}},
                        {OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync}};
  }
  const std::optional<nlohmann::json> c = CaseOfTrace(t, "t");
  REQUIRE(c);
  CHECK((*c)["log"]["header"] == 512);
  const std::string text = (*c)["description"];
  CHECK_THAT(text, Catch::Contains("from offset 0") &&
                       Catch::Contains("moves them by a 512-byte header") &&
                       !Catch::Contains("drops the header"));
  Settings s;
  const Status applied = ApplyCaseText(c->dump(), "t.case.json", s);
  if (!applied) FAIL(applied.error().Message());
  CHECK(Validate(s).ok());
}

TEST_CASE("record: equal writes before each sync are commits sharing it") {
  // MariaDB's binlog with sync_binlog=4: a 330-byte header, then four
  // 180-byte writes and an fdatasync, again and again.
  Trace t = FixtureTrace();
  t.header.reset();
  for (std::size_t k = 0; k < t.commits.size(); ++k) {
    t.commits[k].ops.clear();
    for (std::uint64_t w = 0; w < 4; ++w) {
      t.commits[k].ops.push_back(
          {OpKind::kWrite, 0, 330 + (4 * k + w) * 180, 180, {}});
    }
    t.commits[k].ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync});
  }
  const std::optional<nlohmann::json> c = CaseOfTrace(t, "t");
  REQUIRE(c);
  CHECK((*c)["sizes"] == nlohmann::json::array({"180"}));
  CHECK((*c)["commits_per_sync"] == 4);
  CHECK((*c)["log"]["header"] == 330);
  CHECK((*c)["writes"].get<std::uint64_t>() % 4 == 0);
  CHECK_THAT((*c)["description"].get<std::string>(),
             Catch::Contains("4 commits of one 180-byte write each"));
  Settings s;
  const Status applied = ApplyCaseText(c->dump(), "t.case.json", s);
  if (!applied) FAIL(applied.error().Message());
  CHECK(Validate(s).ok());
  CHECK(s.commits_per_sync == 4);
  // One sync after two writes of 360 bytes instead: the same bytes, but no
  // group of one shape, so each sync's bytes are one commit, as before.
  TraceCommit& last = t.commits.back();
  const std::uint64_t at = last.ops[0].offset;
  last.ops = {{OpKind::kWrite, 0, at, 360, {}},
              {OpKind::kWrite, 0, at + 360, 360, {}},
              {OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync}};
  const std::optional<nlohmann::json> joined = CaseOfTrace(t, "t");
  REQUIRE(joined);
  CHECK((*joined)["sizes"] == nlohmann::json::array({"720"}));
  CHECK_FALSE(joined->contains("commits_per_sync"));
}

namespace {

// `commits` commits of `writes` contiguous 8-byte writes each, then
// fdatasync, in a new file.
Trace EqualWritesTrace(std::uint64_t commits, std::uint64_t writes) {
  Trace t = FixtureTrace();
  t.header.reset();
  t.commits.clear();
  std::uint64_t at = 0;
  for (std::uint64_t k = 0; k < commits; ++k) {
    TraceCommit c;
    for (std::uint64_t w = 0; w < writes; ++w, at += 8) {
      c.ops.push_back({OpKind::kWrite, 0, at, 8, {}});
    }
    c.ops.push_back({OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync});
    t.commits.push_back(c);
  }
  return t;
}

}  // namespace

TEST_CASE("record: more than 128 equal writes a sync still make a case") {
  // 200 writes a sync: the old case said writes 0, which --case refused
  // after "case file saved".
  std::string why;
  const std::optional<nlohmann::json> c =
      CaseOfTrace(EqualWritesTrace(12, 200), "t", &why);
  REQUIRE(c);
  CHECK((*c)["commits_per_sync"] == 200);
  CHECK((*c)["writes"] == 200);
  Settings s;
  const Status applied = ApplyCaseText(c->dump(), "t.case.json", s);
  if (!applied) FAIL(applied.error().Message());
  CHECK(Validate(s).ok());
  CHECK(why.empty());
}

TEST_CASE("record: more writes a sync than a case takes make none, said") {
  // 2000 writes a sync: past --commits-per-sync's bound of 1024.
  std::string why;
  CHECK_FALSE(CaseOfTrace(EqualWritesTrace(12, 2000), "t", &why));
  CHECK_THAT(why, Catch::Contains("2000 writes of 8 B share each sync"));
  CHECK_THAT(why, Catch::Contains("1024"));
}

namespace {

// MariaDB's binlog recorded by --pid: the file held `held` bytes when strace
// attached (recycled by its state), and every commit appends 200 bytes past
// them, then fdatasync.
Trace AppendedTrace(std::uint64_t held) {
  Trace t = FixtureTrace();
  t.header.reset();
  t.files[0].state = FileState::kRecycled;
  t.files[0].size_at_open = held;
  t.commits.clear();
  for (std::uint64_t k = 0; k < 20; ++k) {
    t.commits.push_back({{{OpKind::kWrite, 0, held + 200 * k, 200, {}},
                          {OpKind::kSync, 0, 0, 0, SyncCall::kFdatasync}}});
  }
  return t;
}

}  // namespace

TEST_CASE(
    "record: a log appended to past what it held is a case that extends, "
    "warm, each commit in its block where the program's was") {
  // It said prewritten, cold and a header of the first commit's offset
  // modulo its length (12345 + 2 * 200 = 12745; 12745 % 200 = 145), and ran
  // at -33/-75/-50 % of the engine.
  const std::optional<nlohmann::json> c =
      CaseOfTrace(AppendedTrace(12345), "t");
  REQUIRE(c);
  CHECK((*c)["layout"] == "extend");
  CHECK_FALSE(c->contains("cache"));
  // The first commit the case holds to its rule is the third (a tenth, at
  // least one, is set-up): at 12745, 457 B into its 4096-byte block.
  CHECK((*c)["log"]["header"] == 12745 % 4096);
  CHECK_THAT((*c)["description"].get<std::string>(),
             Catch::Contains("held 12345 B when the trace began and grew") &&
                 Catch::Contains("pads the header to a whole block"));
  Settings s;
  const Status applied = ApplyCaseText(c->dump(), "t.case.json", s);
  if (!applied) FAIL(applied.error().Message());
  CHECK(Validate(s).ok());
  CHECK(s.layouts == std::vector<Layout>{Layout::kExtend});
  CHECK(s.caches == std::vector<CacheState>{CacheState::kWarm});
  // Its first commit on a block boundary: the unaligned variant moved.
  const std::optional<nlohmann::json> at_block =
      CaseOfTrace(AppendedTrace(8192 - 400), "t");
  REQUIRE(at_block);
  CHECK((*at_block)["log"]["header"] == kReplayShift);
  CHECK_THAT((*at_block)["description"].get<std::string>(),
             Catch::Contains("starts on a 4096-byte boundary already"));
}

TEST_CASE("record: a recycled log written inside what it held stays cold") {
  // PostgreSQL's recycled segment: the commits overwrite old bytes.
  Trace t = AppendedTrace(1 << 20);
  for (std::size_t k = 0; k < t.commits.size(); ++k) {
    t.commits[k].ops[0].offset = 200 * k;
  }
  const std::optional<nlohmann::json> c = CaseOfTrace(t, "t");
  REQUIRE(c);
  CHECK((*c)["layout"] == "prewritten");
  CHECK((*c)["cache"] == "cold");
}
