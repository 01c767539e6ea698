#include "lib/config/case_file.h"

#include <catch2/catch.hpp>

#include "lib/config/settings.h"
#include "tests/unit/case_names.h"

using namespace alignbench;

TEST_CASE("Every case file in cases/ loads and validates") {
  const std::vector<std::string> names = ShippedCaseNames();
  CHECK(names.size() >= 12);  // the directory was found, not an empty list
  for (const std::string& name : names) {
    INFO(name);
    Settings s;
    const Status loaded = ApplyCaseFile(
        std::string(ALIGNBENCH_SOURCE_DIR "/cases/") + name + ".json", s);
    if (!loaded) FAIL(loaded.error().Message());
    CHECK(s.case_name == name);
    CHECK_FALSE(s.case_description.empty());
    CHECK_FALSE(s.case_expect.empty());
    CHECK(Validate(s).ok());
  }
}

TEST_CASE("derby-2004 reproduces Suresh's run") {
  Settings s;
  REQUIRE(
      ApplyCaseFile(ALIGNBENCH_SOURCE_DIR "/cases/derby-2004.json", s).ok());
  CHECK(s.sizes == kDerbySizes);
  CHECK(s.writes == 128);
  CHECK(s.shifts == std::vector<std::uint64_t>{24});
  CHECK(s.syncs == std::vector<SyncMethod>{SyncMethod::kFsync});
}

TEST_CASE("A case sets only the keys it has; axes may be lists") {
  Settings s;
  s.writes = 7;
  REQUIRE(ApplyCaseText(
              R"({"sync": ["fsync", "none"], "layout": "prewritten"})", "t", s)
              .ok());
  CHECK(s.writes == 7);
  CHECK(s.syncs ==
        std::vector<SyncMethod>{SyncMethod::kFsync, SyncMethod::kNone});
  CHECK(s.layouts == std::vector<Layout>{Layout::kPrewritten});
  CHECK(ExpandPlan(s).size() == 2 * kDerbySizes.size());
}

TEST_CASE("Bad case files: the error names file, key and expectation") {
  const std::pair<const char*, const char*> bad[] = {
      {"not json", "case file t.json: not valid JSON"},
      {"[1, 2]", "expected a JSON object"},
      {R"({"wirtes": 3})", "key 'wirtes': unknown key"},
      {R"({"writes": "many"})",
       "key 'writes': expected a non-negative whole number, got 'many'"},
      {R"({"writes": -1})",
       "key 'writes': expected a non-negative whole number, got -1"},
      {R"({"writes": 0})", "key 'writes': must be at least 1"},
      {R"({"sync": ["fsync", "fsync"]})", "key 'sync': fsync is listed twice"},
      {R"({"sizes": 4096})", "key 'sizes': expected a list of sizes"},
      {R"({"sizes": ["4Q"]})", "key 'sizes': size '4Q': unknown suffix"},
      {R"({"sizes": "1K..3K"})", "key 'sizes'"},
      {R"({"sync": "fsink"})",
       "key 'sync': unknown value 'fsink' (expected fsync"},
      {R"({"sync": 3})", "key 'sync': expected a string"},
      {R"({"layout": ["extend", 1]})", "key 'layout': expected a string"},
      {R"({"description": 5})", "key 'description': expected a string"},
      {R"({"direct_unaligned": ["stage", "report"]})", "takes one value"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    Settings s;
    const Status loaded = ApplyCaseText(text, "t.json", s);
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().kind == ErrorKind::kUsage);
    CHECK_THAT(loaded.error().Message(), Catch::Contains(message));
  }
}

TEST_CASE("A failed case file changes nothing") {
  Settings s;
  REQUIRE_FALSE(
      ApplyCaseText(R"({"writes": 5, "sync": "bogus"})", "t", s).ok());
  CHECK(s.writes == Settings{}.writes);
}

TEST_CASE("Validate refuses impossible plans") {
  auto invalid = [](auto change) {
    Settings s;
    change(s);
    return !Validate(s).ok();
  };
  CHECK(invalid([](Settings& s) { s.writes = 0; }));
  CHECK(invalid([](Settings& s) { s.repetitions = 0; }));
  CHECK(invalid([](Settings& s) { s.sizes = {}; }));
  CHECK(invalid([](Settings& s) { s.sizes = {0}; }));
  CHECK(invalid([](Settings& s) { s.sizes = {4096, 1024, 4096}; }));
  CHECK(invalid([](Settings& s) { s.sizes = {4ull << 30}; }));
  CHECK(invalid([](Settings& s) { s.syncs.clear(); }));
  CHECK(invalid([](Settings& s) {  // found by fuzzing: a plan of millions
    s.syncs = {SyncMethod::kFsync, SyncMethod::kFsync};
  }));
  CHECK(invalid(
      [](Settings& s) { s.sizes = std::vector<std::uint64_t>(65, 1); }));
  CHECK(invalid([](Settings& s) { s.warmup = 100'000'001; }));
  CHECK(invalid([](Settings& s) { s.precision_points = 0; }));
  CHECK(invalid([](Settings& s) { s.budget_seconds = -1.0; }));
  // Finite plans only: a budget of 1e308 s or a precision of 1e-308 points
  // would make a plan that never ends.
  CHECK(invalid([](Settings& s) { s.budget_seconds = 1e308; }));
  CHECK(invalid([](Settings& s) { s.precision_points = 1e-308; }));
  CHECK(invalid([](Settings& s) { s.precision_points = 0.009; }));
  CHECK(invalid([](Settings& s) { s.dir = std::string(4096, 'd'); }));
  CHECK(invalid([](Settings& s) {  // 13 sizes x 2 x 10,000 x 10,000 writes
    s.repetitions = 10'000;
    s.writes = 10'000;
  }));
  // A group commit shares a sync call, over whole groups of commits.
  CHECK(invalid([](Settings& s) { s.commits_per_sync = 0; }));
  CHECK(invalid([](Settings& s) { s.commits_per_sync = 1025; }));
  CHECK(invalid([](Settings& s) {
    s.commits_per_sync = 4;
    s.syncs = {SyncMethod::kODsync};
  }));
  CHECK(invalid([](Settings& s) { s.commits_per_sync = 3; }));  // 32 writes
  CHECK(invalid([](Settings& s) {
    s.commits_per_sync = 4;
    s.warmup = 2;
  }));
  CHECK_FALSE(invalid([](Settings& s) { s.commits_per_sync = 4; }));
  // Writer threads and writes in flight make a group of their own count.
  CHECK_FALSE(invalid([](Settings& s) { s.writers = 4; }));
  CHECK_FALSE(invalid([](Settings& s) {  // each thread's write is synchronous
    s.writers = 4;
    s.syncs = {SyncMethod::kODsync};
  }));
  CHECK(invalid([](Settings& s) { s.writers = 3; }));  // 32 writes
  CHECK(invalid([](Settings& s) { s.writers = 65; }));
  CHECK(invalid([](Settings& s) {
    s.writers = 4;
    s.commits_per_sync = 2;
  }));
  // A --commits-per-sync above 1 is the threads' own group, whatever order
  // the numbers come in: 2 threads never write a group of 4.
  CHECK(invalid([](Settings& s) {
    s.writers = 2;
    s.commits_per_sync = 4;
  }));
  CHECK(invalid([](Settings& s) {
    s.queue_depth = 2;
    s.ios = {IoMode::kDirect};
    s.commits_per_sync = 4;
  }));
  CHECK_FALSE(invalid([](Settings& s) {
    s.writers = 2;
    s.commits_per_sync = 2;
  }));
  CHECK(invalid([](Settings& s) {  // staging needs the write before's block
    s.writers = 4;
    s.ios = {IoMode::kDirect};
    s.direct_unaligned = DirectUnaligned::kStage;
  }));
  CHECK(invalid([](Settings& s) { s.queue_depth = 4; }));  // buffered
  CHECK_FALSE(invalid([](Settings& s) {
    s.queue_depth = 4;
    s.ios = {IoMode::kDirect};
    s.direct_unaligned = DirectUnaligned::kStage;
    s.syncs = {SyncMethod::kODsync};
  }));
  CHECK(invalid([](Settings& s) {
    s.queue_depth = 4;
    s.writers = 4;
    s.ios = {IoMode::kDirect};
  }));
  CHECK(invalid([](Settings& s) { s.queue_depth = 257; }));
  CHECK(invalid([](Settings& s) { s.atomic = AtomicWrites::kOn; }));
  CHECK_FALSE(invalid([](Settings& s) {
    s.atomic = AtomicWrites::kOn;
    s.ios = {IoMode::kDirect};
  }));
  CHECK_FALSE(invalid([](Settings& s) { s.budget_seconds = 604800; }));
  CHECK_FALSE(invalid([](Settings& s) { s.precision_points = 0.01; }));
  CHECK_FALSE(invalid([](Settings&) {}));
}

TEST_CASE("A case file's group is held to the rule the command line keeps") {
  Settings s;
  REQUIRE(ApplyCaseText(R"({"writes": 4, "writers": 2, "commits_per_sync": 4})",
                        "group.json", s));
  const Status valid = Validate(s);
  REQUIRE_FALSE(valid);
  CHECK(valid.error().Message() ==
        "option --writers: a group is one commit per writer or per write in "
        "flight: --commits-per-sync 1 or 2");
}

TEST_CASE("A broken rule says what it reads, for a reader to name its keys") {
  Settings s;
  s.writers = 2;
  s.commits_per_sync = 4;
  const std::optional<SettingsRule> broken = BrokenRule(s);
  REQUIRE(broken);
  CHECK(broken->option == "--writers");
  CHECK(broken->reads ==
        std::vector<std::string_view>{"writers", "commits-per-sync"});
}

TEST_CASE("--group-commit: at least one commit, one group shape, no replay") {
  Settings s;
  REQUIRE(ApplyCaseText(R"({"writes": 8, "group_commit": 4.24})", "g.json", s));
  CHECK(Validate(s));
  REQUIRE(s.group_commit);
  CHECK(*s.group_commit == 4.24);
  CHECK(StepsPerRun(s, 8) == 2);     // 2 groups hold floor(8.48) = 8
  CHECK(StepsPerRun(s, 100) == 24);  // 24 groups hold floor(101.76)
  s.group_commit = 0.5;
  std::optional<SettingsRule> broken = BrokenRule(s);
  REQUIRE(broken);
  CHECK(broken->option == "--group-commit");
  s.group_commit = 4;
  s.commits_per_sync = 4;
  broken = BrokenRule(s);
  REQUIRE(broken);
  CHECK(broken->why.find("not both") != std::string::npos);
}

TEST_CASE("--commits-per-sync: refused where each commit syncs inside") {
  // sqlite-wal-psow0's fill syncs at the sector boundary inside a commit:
  // its commits share no sync, whatever the report would say.
  Settings s;
  REQUIRE(
      ApplyCaseFile(ALIGNBENCH_SOURCE_DIR "/cases/sqlite-wal-psow0.json", s));
  s.commits_per_sync = 4;
  s.writes = 16;
  s.warmup = 0;
  const std::optional<SettingsRule> broken = BrokenRule(s);
  REQUIRE(broken);
  CHECK(broken->why.find("share no sync") != std::string::npos);
}

TEST_CASE("--commits-per-sync on a direct-I/O log says what engines do") {
  Settings s;
  s.commits_per_sync = 4;
  CHECK_FALSE(GroupShapeWarning(s));  // buffered: sync_binlog=N's shape
  s.ios = {IoMode::kDirect};
  const std::optional<std::string> warning = GroupShapeWarning(s);
  REQUIRE(warning);
  CHECK(warning->find("--group-commit 4 measures that") != std::string::npos);
  s.commits_per_sync = 1;
  CHECK_FALSE(GroupShapeWarning(s));
}
