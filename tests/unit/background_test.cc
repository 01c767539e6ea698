// The disk's own traffic, from the idle windows before the rounds,
// on hand-made records: scaled to a write's time, reported beside the
// per-write counters, and never explained as the writes' own I/O.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "lib/pairs/explain.h"
#include "lib/pairs/log_case.h"
#include "lib/pairs/pairs.h"
#include "lib/render/writers.h"
#include "lib/result/result_json.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// 200 ms idle with 20 device writes of 80 KiB in all: 100 writes per second.
IdleSample BusyIdle() {
  IdleSample idle;
  idle.seconds = 0.2;
  idle.delta.writes = 20;
  idle.delta.write_sectors = 160;
  idle.delta.flushes = 4;
  return idle;
}

// A measured pair whose variants both counted `writes` device writes per
// operation, 10 ms per write+sync, with a time difference.
PairResult Measured(double writes) {
  PairResult pair;
  pair.spec = {4096, SyncMethod::kFsync, IoMode::kBuffered, Layout::kExtend,
               CacheState::kWarm};
  pair.unaligned = testing::FixedVariant(10, 0, 4);
  pair.aligned = testing::FixedVariant(10, 0, 4);
  pair.unaligned.device = pair.aligned.device =
      DevicePerOp{0, 0, writes, 4 * writes, 1};
  pair.means_gain_pct = 30;
  pair.verdict = Verdict::kAlignedFaster;
  return pair;
}

}  // namespace

TEST_CASE("The idle window is scaled to the time of one write") {
  const DevicePerOp per = BackgroundPerWrite(BusyIdle(), 0.01);
  CHECK(per.writes == Approx(1.0));  // 100/s over 10 ms
  CHECK(per.kib_written == Approx(4.0));
  CHECK(per.flushes == Approx(0.2));
  CHECK(per.reads == 0);
}

TEST_CASE("BuildPairs puts the background beside each variant's counters") {
  // 20 ms per write+sync for the unaligned, 10 ms for the aligned.
  const std::vector<CollectedRun> runs =
      testing::OneBlock(20e6f, 10e6f, DeviceCounters{0, 0, 2, 16, 2});
  const PairSpec& spec = testing::kFsync4K;
  const std::vector<PairResult> without = BuildPairs({spec}, runs);
  CHECK_FALSE(without[0].aligned.background.has_value());
  const std::vector<PairResult> pairs = BuildPairs({spec}, runs, BusyIdle());
  REQUIRE(pairs[0].unaligned.background);
  REQUIRE(pairs[0].aligned.background);
  CHECK(pairs[0].unaligned.background->writes == Approx(2.0));
  CHECK(pairs[0].aligned.background->writes == Approx(1.0));
}

TEST_CASE(
    "BuildPairs gives each pair the CPU share others used, both ends read") {
  const std::vector<CollectedRun> runs =
      testing::OneBlock(20e6f, 10e6f, DeviceCounters{0, 0, 2, 16, 2});
  IdleSample idle = BusyIdle();
  CHECK_FALSE(BuildPairs({testing::kFsync4K}, runs, idle)[0]
                  .others_cpu_share.has_value());
  idle.cpu = CpuTicks{15, 20};
  const std::vector<PairResult> pairs =
      BuildPairs({testing::kFsync4K}, runs, idle);
  REQUIRE(pairs[0].others_cpu_share);
  CHECK(*pairs[0].others_cpu_share == Approx(0.75));
  // Kept in the result file, and a share above 1 refused there.
  Report r = testing::FixedReport();
  r.pairs[0].others_cpu_share = 0.75;
  nlohmann::json j = ToJson(r);
  CHECK(j.at("pairs")[0].at("others_cpu_share") == 0.75);
  const Result<Report> back = FromJson(j, "test");
  REQUIRE(back);
  CHECK(back.value().pairs[0].others_cpu_share == 0.75);
  j["pairs"][0]["others_cpu_share"] = 1.5;
  const Result<Report> refused = FromJson(j, "test");
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().Message(), Catch::Contains("others_cpu_share"));
}

TEST_CASE("Explain does not attribute the disk's own traffic to the writes") {
  // 8 device writes per write, and the idle disk did 6 in the same time:
  // the counters are mostly someone else's.
  PairResult busy = Measured(8);
  busy.unaligned.background = busy.aligned.background =
      DevicePerOp{0, 0, 6, 24, std::nullopt};
  const std::string text = Explain(busy, 24);
  CHECK_THAT(text, Catch::StartsWith("the disk was busy without alignbench"));
  CHECK_THAT(text, Catch::Contains("6.0 device writes"));
  CHECK_THAT(text, !Catch::Contains("metadata commits"));
  CHECK_THAT(text, !Catch::Contains("cannot explain this difference"));

  // A quiet disk: the counters are the writes' own, explained as before.
  PairResult quiet = Measured(8);
  quiet.unaligned.background = quiet.aligned.background =
      DevicePerOp{0, 0, 0.1, 0.4, std::nullopt};
  CHECK_THAT(Explain(quiet, 24), Catch::Contains("metadata commits"));
  CHECK_THAT(Explain(quiet, 24), !Catch::Contains("busy"));
}

TEST_CASE("Others' writes do not hide a read-on-write in the read counters") {
  // A neighbour writing: 8 writes counted per write, 6 of them the idle
  // disk's; but no read in the idle windows, and every unaligned write read.
  PairResult busy = Measured(8);
  busy.unaligned.device->reads = 1.1;
  busy.unaligned.device->kib_read = 4.4;
  busy.unaligned.background = busy.aligned.background =
      DevicePerOp{0, 0, 6, 24, std::nullopt};
  CHECK(MechanismsOf(busy) ==
        std::vector<Mechanism>{Mechanism::kReadOnWrite, Mechanism::kBusyDisk});
  const std::string text = Explain(busy, 24);
  CHECK_THAT(text, Catch::StartsWith("unaligned: +1.1 device reads"));
  CHECK_THAT(text, Catch::Contains("The device writes cannot say"));
  // Reads the idle disk did as well are not taken for the writes' own.
  busy.unaligned.background->reads = busy.aligned.background->reads = 1.0;
  CHECK(MechanismsOf(busy) == std::vector<Mechanism>{Mechanism::kBusyDisk});
  CHECK_THAT(Explain(busy, 24),
             Catch::Contains("The device writes and reads cannot say"));
}

TEST_CASE(
    "A read-on-write is read from a busy disk's reads, net of the idle "
    "windows' reads") {
  // A cold postgres-wal segment at 16K: 1.2 device reads per unaligned
  // write, 0.1 per aligned one, and the idle disk read 0.4 in the time of
  // one: busy for the aligned side, but 1.1 more reads are more than the
  // idle traffic could make.
  PairResult pair = Measured(2);
  pair.spec.cache = CacheState::kCold;
  pair.spec.unaligned_writes.layout = Layout::kPrewritten;
  pair.spec.aligned_writes.layout = Layout::kPrewritten;
  pair.unaligned.device = DevicePerOp{1.2, 4.8, 2.0, 24.0, 1.0};
  pair.aligned.device = DevicePerOp{0.1, 0.4, 2.0, 20.0, 1.0};
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0.4, 1.6, 0.1, 0.4, 0.0};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kReadOnWrite,
                                                     Mechanism::kExtraBlock});
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::StartsWith(
                       "unaligned: +0.8 device reads (3.2 KiB) per write (net "
                       "of the disk's own 0.4 device reads per write in the "
                       "idle windows): the partly overwritten block was read "
                       "first"));
  CHECK_THAT(text, !Catch::Contains("busy") && !Catch::Contains("cannot say"));
  // The quiet writes are read as counted, with no note.
  CHECK_THAT(text, Catch::Contains("unaligned: +4.0 KiB written per write: a "
                                   "24-byte shift"));
}

TEST_CASE(
    "A busy disk's difference smaller than its idle traffic is not read as "
    "the writes'") {
  // 2.0 against 0.8 reads per write, and the idle disk read 1.3 in the time
  // of one: others' reads alone could make a 1.2 difference, though 0.7 of
  // the unaligned side's would be left net of them.
  PairResult pair = Measured(2);
  pair.unaligned.device->reads = 2.0;
  pair.aligned.device->reads = 0.8;
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{1.3, 5.2, 0, 0, 0.0};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kBusyDisk});
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::StartsWith("the disk was busy without alignbench"));
  CHECK_THAT(text, Catch::Contains("counted 1.3 device reads, against 2.0 per "
                                   "write while measuring. The device reads "
                                   "cannot say"));
  CHECK_THAT(text, !Catch::Contains("read-modify-write"));
  // A difference as large as the idle count is the writes' own.
  pair.unaligned.device->reads = 2.1;
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kReadOnWrite});
  CHECK_THAT(Explain(pair, 24), Catch::StartsWith("unaligned: +0.8 device "
                                                  "reads"));
}

TEST_CASE(
    "On a disk busy with both reads and writes, a readable read-on-write is "
    "said, and the writes are busy") {
  // 8 device writes per write, 6 of them the idle disk's: nothing to read in
  // the writes. 1.6 against 0.1 reads, 0.5 of them the idle disk's.
  PairResult pair = Measured(8);
  pair.unaligned.device->reads = 1.6;
  pair.unaligned.device->kib_read = 6.4;
  pair.aligned.device->reads = 0.1;
  pair.aligned.device->kib_read = 0.4;
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0.5, 2.0, 6, 24, std::nullopt};
  CHECK(MechanismsOf(pair) ==
        std::vector<Mechanism>{Mechanism::kReadOnWrite, Mechanism::kBusyDisk});
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::StartsWith("unaligned: +1.1 device reads (4.4 KiB) "
                                     "per write (net of the disk's own 0.5 "
                                     "device reads per write"));
  CHECK_THAT(text, Catch::Contains("counted 6.0 device writes, against 8.0 "
                                   "per write while measuring. The device "
                                   "writes cannot say"));
  CHECK_THAT(text, !Catch::Contains("writes and reads"));
}

TEST_CASE(
    "A block written more is read from a busy disk's KiB, net of each side's "
    "idle KiB") {
  // 8 device writes per write, 6 of them the idle disk's; but 48 against 32
  // KiB written, and the idle disk wrote 8 or 12 KiB in the time of one.
  PairResult pair = Measured(8);
  pair.unaligned.device->kib_written = 48;
  pair.aligned.device->kib_written = 32;
  pair.unaligned.background = DevicePerOp{0, 0, 6, 8, std::nullopt};
  pair.aligned.background = DevicePerOp{0, 0, 6, 12, std::nullopt};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kExtraBlock});
  CHECK_THAT(Explain(pair, 24),
             Catch::StartsWith("unaligned: +20.0 KiB written per write (net "
                               "of the disk's own 8.0 (unaligned) and 12.0 "
                               "(aligned) KiB written per write in the idle "
                               "windows): a 24-byte shift"));
  // The idle disk writing more than the 16 KiB difference: others' writes
  // alone could have made it.
  pair.aligned.background->kib_written = 20;
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kBusyDisk});
}

TEST_CASE("Same device I/O is said only of counters that are alike") {
  // The counters of a quiet pair without a verdict, 14.8 against 12.4 writes
  // per write: not the same I/O, and not a mechanism the counters name.
  PairResult pair = Measured(12.4);
  pair.verdict = Verdict::kNoSignificantDifference;
  pair.unaligned.device->writes = 14.8;
  pair.unaligned.device->kib_written = 220.7;
  pair.aligned.device->kib_written = 258.0;
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, std::nullopt};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kOtherIo});
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, !Catch::Contains("same device I/O"));
  CHECK_THAT(text, Catch::StartsWith("the device I/O differs (unaligned 14.8 "
                                     "writes, 220.7 KiB; aligned 12.4 writes, "
                                     "258.0 KiB per operation)"));
  // Alike (and one write each, no metadata commits), it is the same I/O.
  PairResult same = Measured(1);
  same.verdict = Verdict::kNoSignificantDifference;
  CHECK(MechanismsOf(same) == std::vector<Mechanism>{Mechanism::kSameIo});
  same.unaligned.device->writes = 1.5;
  CHECK(MechanismsOf(same) == std::vector<Mechanism>{Mechanism::kOtherIo});
}

TEST_CASE("A pair whose unaligned files landed worse says where, not alike") {
  // A 16K pair of a /var/tmp session before both variants grew alike: the
  // unaligned files kept an extent-tree block, 3.8 device writes per sync
  // against 3.0.
  PairResult pair = Measured(3.0);
  pair.unaligned.device->writes = 3.8;
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, std::nullopt};
  pair.unaligned.placement = MeanPlacement{4.0, 1.0};
  pair.aligned.placement = MeanPlacement{3.0, 0.0};
  const std::vector<Mechanism> found = MechanismsOf(pair);
  CHECK(std::find(found.begin(), found.end(), Mechanism::kPlacement) !=
        found.end());
  const std::string text = Explain(pair, 24);
  CHECK_THAT(text, Catch::Contains(
                       "unaligned's files landed worse, not by their "
                       "alignment: they kept 1.0 extent-tree blocks in 4.0 "
                       "extents, the other's 0.0 in 3.0"));
  CHECK_THAT(text, Catch::Contains("3.8 against 3.0 device writes"));
  // The aligned side's, the other way round.
  std::swap(pair.unaligned.placement, pair.aligned.placement);
  CHECK_THAT(Explain(pair, 24), Catch::StartsWith("aligned's files landed"));
  // Without the files' placement (a result written before it was recorded),
  // 3.8 against 3.0 requests per write are never called alike.
  pair.unaligned.placement.reset();
  pair.aligned.placement.reset();
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kOtherIo});
  CHECK_THAT(Explain(pair, 24), !Catch::Contains("alike"));
}

TEST_CASE("The background is in the JSON and on the table's device lines") {
  Report r = testing::FixedReport();
  r.pairs[0].aligned.background = DevicePerOp{0, 0, 0.5, 2, std::nullopt};
  const nlohmann::json j = ToJson(r);
  const nlohmann::json& aligned = j.at("pairs")[0].at("aligned");
  CHECK(aligned.at("device_background_per_write").at("writes") == 0.5);
  CHECK_FALSE(aligned.at("device_background_per_write").contains("flushes"));
  CHECK_FALSE(
      j.at("pairs")[0].at("unaligned").contains("device_background_per_write"));
  const Result<Report> back = FromJson(j, "test");
  REQUIRE(back);
  REQUIRE(back.value().pairs[0].aligned.background);
  CHECK(back.value().pairs[0].aligned.background->kib_written == 2);

  std::ostringstream table;
  Render(table, r, Format::kTable);
  CHECK_THAT(table.str(),
             Catch::Contains("1.0 fl   idle:  0.0 r  0.5 w    2.0 KiB"));
  CHECK_THAT(table.str(),
             Catch::Contains("idle: the same counters over the idle windows"));
  CHECK_THAT(table.str(), !Catch::Contains("% cpu"));

  // The CPU share others used in the same windows, where it was read.
  r.pairs[0].others_cpu_share = 0.5;
  std::ostringstream busy;
  Render(busy, r, Format::kTable);
  CHECK_THAT(busy.str(),
             Catch::Contains("idle:  0.0 r  0.5 w    2.0 KiB  50 % cpu"));
  std::string legend = busy.str();  // wrapped at 80 columns
  std::replace(legend.begin(), legend.end(), '\n', ' ');
  CHECK_THAT(legend, Catch::Contains("cpu: the share of the CPUs' time other "
                                     "processes used in those windows."));
}

TEST_CASE(
    "A why-line for each direction: an aligned side that writes more, "
    "and more flushes") {
  // A replay of small appends: the aligned variant is the stream in whole
  // blocks, 8192 B per commit by design against 4120 B, and flushes twice.
  PairResult pair = Measured(2);
  pair.verdict = Verdict::kUnalignedFaster;
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, 0.0};
  pair.unaligned.device = DevicePerOp{0, 0, 2.0, 4.4, 1.0};
  pair.aligned.device = DevicePerOp{0, 0, 3.0, 16.0, 2.0};
  pair.unaligned.per_commit = CommitBytes{4120, 4120};
  pair.aligned.per_commit = CommitBytes{4120, 8192};
  CHECK(MechanismsOf(pair) ==
        std::vector<Mechanism>{Mechanism::kAlignedWritesMore,
                               Mechanism::kMoreFlushes});
  const std::string text = Explain(pair, 512);
  CHECK_THAT(text, Catch::StartsWith(
                       "aligned: +11.6 KiB written per operation (16.0 "
                       "against 4.4): by design it writes 8192 B per commit "
                       "against 4120 B"));
  CHECK_THAT(text, Catch::Contains("aligned: +1.0 device flushes per "
                                   "operation (2.0 against 1.0)"));
  CHECK_THAT(text, !Catch::Contains("alike"));
  // More KiB on the aligned side with no layout that writes more by design
  // (Derby's sweep) is no layout's doing: not said so.
  pair.unaligned.per_commit.reset();
  pair.aligned.per_commit.reset();
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kMoreFlushes});
}

TEST_CASE(
    "A why-line for extent conversions, only in a preallocated file and where "
    "the device writes go the same way") {
  // etcd's small appends into its preallocated segment, padded: every padded
  // commit reaches a block never written, one in 40 recorded ones does.
  PairResult pair = Measured(2);
  pair.verdict = Verdict::kUnalignedFaster;
  for (VariantWrites* w :
       {&pair.spec.unaligned_writes, &pair.spec.aligned_writes}) {
    w->layout = Layout::kPrealloc;
  }
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, 0.0};
  pair.unaligned.device = DevicePerOp{0, 0, 2.0, 4.4, 1.0};
  pair.aligned.device = DevicePerOp{0, 0, 3.0, 4.8, 1.0};
  pair.unaligned.per_commit = CommitBytes{100, 100, 0.03};
  pair.aligned.per_commit = CommitBytes{100, 100, 1.0};
  CHECK(MechanismsOf(pair) ==
        std::vector<Mechanism>{Mechanism::kExtentConversions});
  CHECK_THAT(Explain(pair, 512),
             Catch::StartsWith("aligned: 100 % of commits write a block of "
                               "the preallocated file for the first time, "
                               "against 3 %: each converts an unwritten "
                               "extent, which its sync commits to the "
                               "filesystem's journal (+1.0 device writes per "
                               "operation, 3.0 against 2.0)."));
  // The other way round: the unaligned side converts more, and writes more.
  std::swap(pair.unaligned.device, pair.aligned.device);
  std::swap(pair.unaligned.per_commit, pair.aligned.per_commit);
  CHECK_THAT(Explain(pair, 512), Catch::StartsWith("unaligned: 100 % of"));
  // Device writes the other way from the conversions: not their doing.
  std::swap(pair.unaligned.device, pair.aligned.device);
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kOtherIo});
  // A new file grows with every commit: no unwritten extent to convert.
  std::swap(pair.unaligned.device, pair.aligned.device);
  pair.spec.aligned_writes.layout = Layout::kExtend;
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kOtherIo});
}

TEST_CASE("A read-on-write is said on the side that reads") {
  PairResult pair = Measured(2);
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, 0.0};
  pair.unaligned.device = DevicePerOp{0, 0, 1.0, 4.0, 1.0};
  pair.aligned.device = DevicePerOp{1.0, 4.0, 1.0, 4.0, 1.0};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kReadOnWrite});
  CHECK_THAT(Explain(pair, 512),
             Catch::StartsWith("aligned: +1.0 device reads (4.0 KiB) per "
                               "write: the partly overwritten block was read "
                               "first"));
}

TEST_CASE(
    "A why-line for size changes in a file that grows, and no shift's block "
    "where the aligned side writes more") {
  // Small appends to a new file as recorded, beside the stream in whole
  // blocks: every recorded commit changes the file's size, one in 40 whole-
  // block ones does; the recorded side makes the more device writes.
  PairResult pair = Measured(2);
  pair.unaligned.background = pair.aligned.background =
      DevicePerOp{0, 0, 0, 0, 0.0};
  pair.unaligned.device = DevicePerOp{0, 0, 3.0, 8.1, 1.0};
  pair.aligned.device = DevicePerOp{0, 0, 2.0, 4.2, 1.0};
  pair.unaligned.per_commit = CommitBytes{100, 100, 0.03, 1.0};
  pair.aligned.per_commit = CommitBytes{100, 4157, 0.03, 0.02};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kSizeChanges});
  CHECK_THAT(Explain(pair, 512),
             Catch::StartsWith("unaligned: 100 % of commits write past the "
                               "file's end, against 2 %: each changes its "
                               "size, which its sync commits to the "
                               "filesystem's journal (+1.0 device writes per "
                               "operation, 3.0 against 2.0)."));
  // The same bytes moved (a shift): the extra KiB is the shift's block.
  pair.aligned.per_commit = CommitBytes{100, 100, 0.03, 0.02};
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kExtraBlock,
                                                     Mechanism::kSizeChanges});
  // A prewritten file neither grows nor converts.
  pair.spec.unaligned_writes.layout = Layout::kPrewritten;
  pair.spec.aligned_writes.layout = Layout::kPrewritten;
  CHECK(MechanismsOf(pair) == std::vector<Mechanism>{Mechanism::kExtraBlock});
}

TEST_CASE("A log case on a busy disk keeps the why-line read net of others") {
  // The postgres-wal figures above, under a log case's rules: the log's own
  // sentences read the counters as counted, so Explain's net words stand.
  const Settings s =
      testing::FromCase(R"({"log": {"contrast": "fill", "aligned": "4K"}})");
  std::vector<PairResult> pairs = {Measured(2)};
  pairs[0].unaligned.device = DevicePerOp{1.2, 4.8, 2.0, 24.0, 1.0};
  pairs[0].aligned.device = DevicePerOp{0.1, 0.4, 2.0, 20.0, 1.0};
  pairs[0].unaligned.background = pairs[0].aligned.background =
      DevicePerOp{0.4, 1.6, 0.1, 0.4, 0.0};
  pairs[0].explanation = Explain(pairs[0], 24);
  CHECK(OthersCounted(pairs[0]));
  ExplainLogPairs(s, pairs);
  CHECK_THAT(pairs[0].explanation,
             Catch::Contains("(net of the disk's own 0.4 device reads"));
  // Quiet: the log's own words replace Explain's.
  pairs[0].unaligned.background = pairs[0].aligned.background = std::nullopt;
  pairs[0].explanation = Explain(pairs[0], 24);
  CHECK_FALSE(OthersCounted(pairs[0]));
  const std::string quiet = pairs[0].explanation;
  ExplainLogPairs(s, pairs);
  CHECK(pairs[0].explanation != quiet);
}
