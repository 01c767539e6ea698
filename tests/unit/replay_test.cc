// lib/config/replay.h: a trace made a pair. Aligned traces are shifted,
// unaligned ones aligned commit by commit; the log file, its sync and state
// come from the trace; and the runs write exactly the variant's commits.
#include "lib/config/replay.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "lib/measure/run.h"

using namespace alignbench;

namespace {

std::string FixtureText() {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR
                   "/tests/cli/fixtures/trace-sqlite-3.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Trace Fixture() {
  Result<Trace> t = ParseTrace(FixtureText(), "fixture");
  REQUIRE(t);
  return t.value();
}

// An aligned trace: 8 KiB pages, the last one rewritten, fdatasync; and a
// second file synced once that is not the log.
Trace Pages() {
  Trace t;
  t.files = {TraceFile{"/w/000001", {"O_RDWR"}, FileState::kRecycled, 1 << 24},
             TraceFile{"/w/control", {"O_RDWR"}, FileState::kRecycled, 8192}};
  for (std::uint64_t k = 0; k < 4; ++k) {
    TraceCommit c;
    c.ops.push_back({TraceOpKind::kWrite, 0, k / 2 * 8192, 8192, {}});
    c.ops.push_back({TraceOpKind::kSync, 0, 0, 0, TraceSync::kFdatasync});
    t.commits.push_back(c);
  }
  t.commits[3].ops.insert(t.commits[3].ops.begin(),
                          {TraceOpKind::kWrite, 1, 0, 512, {}});
  return t;
}

}  // namespace

TEST_CASE("replay: SQLite's unaligned frames are aligned commit by commit") {
  Result<Replay> r = ReplayOf(Fixture(), "f.json", FixtureText(), 512);
  REQUIRE(r);
  CHECK(r.value().rule == ReplayRule::kAlign);
  CHECK(r.value().sync == SyncMethod::kFdatasync);
  CHECK(r.value().commits == 3);
  CHECK(r.value().bytes_per_commit == 4120);
  CHECK(r.value().unaligned.header == 32);
  CHECK(r.value().unaligned.commits[1][0].offset == 4152);
  // The first commit starts at 4096 (the header's block is taken), each next
  // one on the boundary after the one before: 4096 + 4120 -> 12288.
  const auto& aligned = r.value().aligned.commits;
  CHECK(aligned[0][0].offset == 4096);
  CHECK(aligned[0][1].offset == 4120);
  CHECK(aligned[1][0].offset == 12288);
  CHECK(aligned[2][0].offset == 20480);
  CHECK(r.value().digest == TraceDigest(FixtureText()));
}

TEST_CASE("replay: aligned pages are shifted, header and all") {
  Result<Replay> r = ReplayOf(Pages(), "p.json", "x", 512);
  REQUIRE(r);
  const Replay& replay = r.value();
  CHECK(replay.rule == ReplayRule::kShift);
  CHECK(replay.log_path == "/w/000001");
  CHECK(replay.state == FileState::kRecycled);
  CHECK(replay.aligned.commits[2][0].offset == 8192);
  CHECK(replay.unaligned.commits[2][0].offset == 8192 + 512);
  CHECK(replay.unaligned.header == 512);
  // The other file's write is left out; its commit keeps the log's sync.
  CHECK(replay.aligned.commits[3].size() == 2);
}

TEST_CASE("replay: a run writes the variant's commits") {
  Result<Replay> r = ReplayOf(Pages(), "p.json", "x", 512);
  REQUIRE(r);
  Settings s;
  s.replay = std::make_shared<const Replay>(r.value());
  s.writes = 4;
  s.sizes = {8192};
  s.syncs = {SyncMethod::kFdatasync};
  s.layouts = {Layout::kPrewritten};
  s.caches = {CacheState::kCold};
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 1);
  RunSpec spec = SpecFor(s, plan[0], Variant::kUnaligned, 4096, {});
  CHECK(spec.layout == Layout::kPrewritten);
  CHECK(spec.cache == CacheState::kCold);
  CHECK(spec.pattern.HeaderBytes() == 512);
  const CommitOps& first = spec.pattern.Next();
  REQUIRE(first.size() == 2);
  CHECK(first[0].extent.offset == 512);
  CHECK(first[1].kind == OpKind::kSync);
  CHECK(spec.pattern.Over(0, 4).end == 8192 + 512 + 8192);
}

TEST_CASE("replay: refused without a writing commit or with a zero shift") {
  Trace empty = Pages();
  empty.commits.clear();
  CHECK_FALSE(ReplayOf(empty, "e.json", "", 512));
  CHECK_FALSE(ReplayOf(Pages(), "p.json", "", 0));
  CHECK(TraceDigest("") == "fnv1a64:cbf29ce484222325");
}
