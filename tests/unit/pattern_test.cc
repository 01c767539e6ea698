#include "lib/measure/pattern.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace alignbench;

namespace {

// The first `n` commits' writes, as (offset, length) pairs; each commit must
// be one write then one sync.
std::vector<std::pair<std::uint64_t, std::uint64_t>> Extents(
    const LogRules& rules, std::uint64_t record, int n) {
  WritePattern p(rules, record);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (int k = 0; k < n; ++k) {
    const CommitOps& ops = p.Next();
    REQUIRE(ops.size() == 2);
    CHECK(ops[0].kind == OpKind::kWrite);
    CHECK(ops[1].kind == OpKind::kSync);
    out.emplace_back(ops[0].offset, ops[0].length);
  }
  return out;
}

// A commit's operations as text: "w32+8160 s w8192+80".
std::string Describe(const CommitOps& ops) {
  std::string text;
  for (const Op& op : ops) {
    if (!text.empty()) text += " ";
    text += op.kind == OpKind::kSync ? std::string("s")
                                     : "w" + std::to_string(op.offset) + "+" +
                                           std::to_string(op.length);
  }
  return text;
}

using Pairs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
std::pair<std::uint64_t, std::uint64_t> At(std::uint64_t offset,
                                           std::uint64_t length) {
  return {offset, length};
}

}  // namespace

TEST_CASE("Derby's aligned variant: the header padded to a block, then k*S") {
  const LogRules rules = RulesFor(DerbyWorkload(24), Variant::kAligned);
  WritePattern p(rules, 4096);
  CHECK(p.HeaderBytes() == 4096);
  CHECK(Extents(rules, 4096, 3) ==
        Pairs{{4096, 4096}, {8192, 4096}, {12288, 4096}});
  CHECK(p.Over(0, 128).end == 4096 + 128 * 4096);
  CHECK(p.Over(0, 128).max_length == 4096);
}

TEST_CASE("Derby's unaligned variant: an untimed header of `shift` bytes") {
  const LogRules rules = RulesFor(DerbyWorkload(24), Variant::kUnaligned);
  WritePattern p(rules, 1024);
  CHECK(p.HeaderBytes() == 24);
  CHECK(Extents(rules, 1024, 4)[3] == At(24 + 3 * 1024, 1024));
  CHECK(p.Over(0, 128).end == 24 + 128 * 1024);
}

TEST_CASE("A zero shift makes both variants the same pattern (A/A runs)") {
  const LogWorkload w = DerbyWorkload(0);
  CHECK(Extents(RulesFor(w, Variant::kUnaligned), 8192, 5) ==
        Extents(RulesFor(w, Variant::kAligned), 8192, 5));
}

TEST_CASE("Whole blocks: the partly filled last block is written again") {
  LogRules rules;
  rules.header = 2048;
  rules.block = 512;
  // 700-byte records: [2048, 2748) rounds to [2048, 3072); the next record
  // starts at 2748, inside the block at 2560, which is written again.
  CHECK(Extents(rules, 700, 3) ==
        Pairs{{2048, 1024}, {2560, 1024}, {3072, 1536}});
  const WritePattern::Totals t = WritePattern(rules, 700).Over(1, 2);
  CHECK(t.asked == 1400);
  CHECK(t.written == 2560);
}

TEST_CASE("Write-ahead padding extends a write past what was written") {
  LogRules rules;
  rules.header = 2048;
  rules.block = 512;
  rules.pad = 8192;
  // The first write reaches past the header: padded to 8192. The next ones
  // fall inside and are not; the one that crosses 8192 is padded to 16384.
  const Pairs e = Extents(rules, 2048, 4);
  CHECK(e[0] == At(2048, 6144));
  CHECK(e[1] == At(4096, 2048));
  CHECK(e[2] == At(6144, 2048));
  CHECK(e[3] == At(8192, 8192));
}

TEST_CASE("SQLite frames: a 32-byte header and 24-byte frame headers") {
  LogRules rules;
  rules.header = 32;
  rules.record_header = 24;
  CHECK(Extents(rules, 4096, 2) == Pairs{{32, 4120}, {4152, 4120}});
}

TEST_CASE("Sector fill repeats the frame until a sector boundary") {
  LogRules rules;
  rules.header = 32;
  rules.record_header = 24;
  rules.fill = 4096;
  // 32 + 4120 = 4152 is past 4096: one more frame reaches 8272 >= 8192.
  CHECK(Extents(rules, 4096, 2) == Pairs{{32, 8240}, {8272, 8240}});
}

TEST_CASE("Chunks: fragments with their own headers, short trailers filled") {
  LogRules rules;
  rules.record_header = 7;
  rules.chunk = 32;
  // 20 bytes + 7 = 27; then 5 bytes left in the chunk, too few for a header:
  // zero-filled, and the next record starts at 32.
  CHECK(Extents(rules, 20, 2) == Pairs{{0, 27}, {27, 32}});
  // 40 bytes from 0: 7 + 25 in the first chunk, 7 + 15 in the second.
  CHECK(Extents(rules, 40, 1) == Pairs{{0, 54}});
}

// SQLite psow=0's rules: sector fill to 4096 with the sync at the boundary.
LogRules SectorSynced(std::uint64_t header, std::uint64_t record_header) {
  LogRules rules;
  rules.header = header;
  rules.record_header = record_header;
  rules.fill = 4096;
  rules.fill_sync = FillSync::kBoundary;
  return rules;
}

TEST_CASE("SQLite psow=0: sync at the sector boundary, overshoot after it") {
  const LogRules rules = SectorSynced(32, 24);
  WritePattern p(rules, 4096);
  // The frame ends at 4152, the copy at 8272: the sync sits at 8192 and the
  // copy's last 80 bytes follow it. The next commit starts at 8272, its frame
  // ends at 12392, the boundary after it is 16384.
  CHECK(Describe(p.Next()) == "w32+8160 s w8192+80");
  CHECK(Describe(p.Next()) == "w8272+8112 s w16384+128");
  const WritePattern::Totals t = WritePattern(rules, 4096).Over(0, 2);
  CHECK(t.written == 8240 + 8240);
  CHECK(t.max_length == 8160);
  CHECK(t.max_commit == 8240);
}

TEST_CASE("psow=0: a frame that ends on the boundary is one write, one sync") {
  const LogRules rules = SectorSynced(0, 0);
  CHECK(Describe(WritePattern(rules, 4096).Next()) == "w0+4096 s");
  // A copy that ends exactly on the boundary: the sync follows it.
  CHECK(Describe(WritePattern(rules, 2048).Next()) == "w0+4096 s");
}

TEST_CASE("A run's file span, and the most any run of the plan needs") {
  Settings s;
  s.sizes = {1024, 4096};
  s.writes = 4;
  const std::vector<PairSpec> plan = ExpandPlan(s);
  REQUIRE(plan.size() == 2);
  CHECK(PatternFor(s, plan[1], Variant::kUnaligned).HeaderBytes() == 24);
  CHECK(PatternFor(s, plan[1], Variant::kAligned).HeaderBytes() == 4096);
  const WritePattern shifted = PatternFor(s, plan[1], Variant::kUnaligned);
  CHECK(FileSpan(shifted, 4, IoMode::kBuffered, 4096) == 24 + 4 * 4096);
  CHECK(FileSpan(shifted, 4, IoMode::kDirect, 4096) == 5 * 4096);
  // The 4K pair's aligned file (its header a whole block), and two blocks for
  // the metadata.
  CHECK(LargestRunBytes(s, plan) == 4096 + 4 * 4096 + 2 * 4096);
}

TEST_CASE("New blocks: the commits that reach a 4096-byte block first") {
  // 1024-byte appends after a 24-byte header: the first reaches block 0
  // (the header's, written), then each fourth commit crosses into a new one.
  const LogRules unaligned = RulesFor(DerbyWorkload(24), Variant::kUnaligned);
  CHECK(WritePattern(unaligned, 1024).Over(0, 8).new_block_commits == 2);
  // Padded to a block each: every commit reaches a new block.
  const LogRules aligned = RulesFor(DerbyWorkload(24), Variant::kAligned);
  CHECK(WritePattern(aligned, 4096).Over(0, 8).new_block_commits == 8);
  CHECK(WritePattern(aligned, 4096).Over(3, 5).new_block_commits == 5);
  // A replay that writes back into blocks written before, out of order: a
  // hole below the furthest write is new when it is reached.
  auto script = std::make_shared<std::vector<CommitOps>>();
  for (const auto& [offset, length] :
       Pairs{{8192, 100}, {0, 4096}, {100, 200}, {4096, 8192}, {20000, 1}}) {
    script->push_back({{OpKind::kWrite, 0, offset, length}, {OpKind::kSync}});
  }
  CHECK(WritePattern(script, 0).Over(0, 5).new_block_commits == 4);
}

TEST_CASE("Growth: the commits that write past the file's end") {
  // Appends grow the file at every commit; a rewrite inside it does not; a
  // truncation makes the next write grow it again, an allocation (mode 0)
  // sets the size and a reserve does not.
  auto script = std::make_shared<std::vector<CommitOps>>();
  const std::vector<Op> steps = {
      {OpKind::kWrite, 0, 0, 100},
      {OpKind::kWrite, 0, 100, 100},
      {OpKind::kWrite, 0, 0, 50},
      {OpKind::kTruncate, 0, 0, 0},
      {OpKind::kWrite, 0, 0, 10},
      {OpKind::kAllocate, 0, 0, 4096},
      {OpKind::kWrite, 0, 10, 10},
      {OpKind::kAllocate, 0, 4096, 4096, SyncCall::kRun, true},
      {OpKind::kWrite, 0, 4096, 10}};
  CommitOps commit;
  for (const Op& op : steps) {
    commit.push_back(op);
    if (op.kind != OpKind::kWrite) continue;
    commit.push_back({OpKind::kSync});
    script->push_back(commit);
    commit.clear();
  }
  const WritePattern::Totals t = WritePattern(script, 0).Over(0, 6);
  CHECK(t.grow_commits == 4);  // 0+100, 100+100, 0+10 after the cut, 4096
  CHECK(t.end == 8192);
}

TEST_CASE("--group-commit: groups of floor(K) and ceil(K) averaging K") {
  // K = 2.5: 2, 3, 2, 3, ...; the first m groups hold floor(m K) commits.
  std::vector<std::uint64_t> sizes;
  std::uint64_t commits = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    sizes.push_back(GroupSize(2500, i));
    commits += sizes.back();
    CHECK(commits == (i + 1) * 2500 / 1000);
  }
  CHECK(std::vector<std::uint64_t>(sizes.begin(), sizes.begin() + 4) ==
        std::vector<std::uint64_t>{2, 3, 2, 3});
  // A measured engine's 4.24: 4 and 5, 4.24 on average over 100 groups.
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::uint64_t g = GroupSize(4240, i);
    CHECK((g == 4 || g == 5));
    sum += g;
  }
  CHECK(sum == 424);
  CHECK(GroupSize(1000, 7) == 1);
}

TEST_CASE("--group-commit: a group's records are one write, then one sync") {
  // InnoDB-like 512-byte blocks after a 2048-byte header, 100-byte records:
  // a group of 3 appends 300 bytes and writes the blocks they touch once.
  LogRules rules;
  rules.header = 2048;
  rules.block = 512;
  WritePattern single(rules, 100);
  WritePattern grouped(rules, 100, 3000);
  const CommitOps& ops = grouped.Next();
  CHECK(Describe(ops) == "w2048+512 s");
  CHECK(grouped.Commits() == 3);
  // 300 to 600 B cross into the second block: both, the first again.
  CHECK(Describe(grouped.Next()) == "w2048+1024 s");
  CHECK(Describe(grouped.Next()) == "w2560+512 s");  // 600 to 900 B
  // The same records one by one: a write and a sync each.
  for (int k = 0; k < 3; ++k) {
    CHECK(single.Next().size() == 2);
    CHECK(single.Commits() == 1);
  }
  // Over counts commits: 9 commits are 3 groups, 900 bytes asked.
  const WritePattern::Totals t = grouped.Over(0, 9);
  CHECK(t.asked == 900);
  CHECK(t.written == 512 + 1024 + 512);
  CHECK(t.end == 2048 + 1024);
  // A run's file holds the group that passes its count.
  CHECK(grouped.Reach(9) == 9 + 2 * 3);
  CHECK(single.Reach(9) == 9);
}
