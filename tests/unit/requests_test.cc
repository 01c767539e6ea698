// The block layer's requests told apart: tracefs's lines parsed, and each
// request given to the file, the filesystem or others by where it lands.
// The lines are as kernel 6.18 printed a pwrite+fsync shifted 24 bytes on
// ext4 on a 4096-byte loop device (record-tgid on).
#include "lib/measure/requests.h"

#include <catch2/catch.hpp>
#include <string>

using namespace alignbench;

namespace {

// Our process is 2267; the file's blocks are sectors 33112 to 33160.
const char* const kTrace =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 17/17   #P:2\n"
    "  python3-2267 (   2267) [001] ..... 100.000010: block_bio_queue: 7,0 R "
    "33112 + 8 [python3]\n"
    "  python3-2267 (   2267) [001] ..... 100.000020: block_rq_issue: 7,0 R "
    "4096 () 33112 + 8 be,0,4 [python3]\n"
    "  cc1plus-2067 (   2060) [001] ..s.. 100.000120: block_rq_complete: 7,0 R "
    "() 33112 + 8 be,0,4 [0]\n"
    "  python3-2267 (   2267) [001] ..... 100.000200: block_rq_issue: 7,0 WS "
    "8192 () 33112 + 16 be,0,4 [python3]\n"
    "  ksoftirqd/1-24 (     24) [001] ..s.. 100.000300: block_rq_complete: "
    "7,0 WS () 33112 + 16 be,0,4 [0]\n"
    "  jbd2/loop0-8-2240 (   2240) [000] ..... 100.000400: block_rq_issue: "
    "7,0 WSM 8192 () 262480 + 16 be,0,3 [jbd2/loop0-8]\n"
    "  ksoftirqd/1-24 (     24) [001] ..s.. 100.000500: block_rq_complete: "
    "7,0 WSM () 262480 + 16 be,0,3 [0]\n"
    "  jbd2/loop0-8-2240 (   2240) [000] ..... 100.000600: block_bio_queue: "
    "7,0 FWFSM 262496 + 8 [jbd2/loop0-8]\n"
    "  kworker/0:1H-56 (     56) [000] ..... 100.000610: block_rq_issue: 7,0 "
    "FF 0 () 0 + 0 none,0,0 [kworker/0:1H]\n"
    "  ksoftirqd/0-14 (     14) [000] ..s.. 100.000900: block_rq_complete: "
    "7,0 FF () 18446744073709551615 + 0 none,0,0 [0]\n"
    "  kworker/0:1H-56 (     56) [000] ..... 100.000910: block_rq_issue: 7,0 "
    "WSM 4096 () 262496 + 8 be,0,3 [kworker/0:1H]\n"
    "  ksoftirqd/1-24 (     24) [001] ..s.. 100.001000: block_rq_complete: "
    "7,0 WSM () 262496 + 8 be,0,3 [0]\n"
    "  ksoftirqd/0-14 (     14) [000] d.s1. 100.001010: block_rq_complete: "
    "7,0 WSM () 262496 + 0 be,0,3 [0]\n"
    // A neighbour's data on another file, and its empty flush bio.
    "  dd-3000 (   3000) [001] ..... 100.000050: block_rq_issue: 7,0 WS "
    "4096 () 40000 + 8 be,0,4 [dd]\n"
    "  dd-3000 (   3000) [001] ..... 100.000060: block_bio_queue: 7,0 FWS "
    "0 + 0 [dd]\n"
    "  kworker/1:1H-57 (     57) [001] ..... 100.000070: block_rq_issue: 7,0 "
    "FF 0 () 0 + 0 none,0,0 [kworker/1:1H]\n"
    "  ksoftirqd/0-14 (     14) [000] ..s.. 100.000090: block_rq_complete: "
    "7,0 FF () 18446744073709551615 + 0 none,0,0 [0]\n";

}  // namespace

TEST_CASE("A trace line: its event, process, time, letters and sectors") {
  const auto e = ParseBlockEvent(
      "  jbd2/loop0-8-2240 (   2240) [000] ..... 23934.124958: "
      "block_bio_queue: 7,0 WSM 262480 + 8 [jbd2/loop0-8]");
  REQUIRE(e);
  CHECK(e->kind == BlockEvent::Kind::kQueue);
  CHECK(e->tgid == 2240);
  CHECK(e->time_ns == 23934124958000);
  CHECK(e->rwbs == "WSM");
  CHECK(e->sector == 262480);
  CHECK(e->sectors == 8);
  CHECK(e->comm == "jbd2/loop0-8");
  // A task's name with spaces and brackets, and no tgid recorded.
  const auto odd = ParseBlockEvent(
      "  a [b] (c)-7 [001] ..... 1.5: block_rq_issue: 7,0 R 4096 () 8 + 8 "
      "be,0,4 [a [b] (c)]");
  REQUIRE(odd);
  CHECK(odd->tgid == -1);
  CHECK(odd->time_ns == 1500000000);
  CHECK(odd->sector == 8);
  CHECK_FALSE(ParseBlockEvent("# tracer: nop"));
  CHECK_FALSE(ParseBlockEvent("  x-1 [000] ..... 1.0: sched_switch: a b"));
  CHECK_FALSE(ParseBlockEvent(
      "  x-1 [000] ..... 1.0: block_rq_issue: 7,0 R 4096 () 8 + eight"));
}

TEST_CASE("A trace: every event, and whether the ring lost some") {
  const ParsedTrace trace = ParseTrace(kTrace);
  CHECK(trace.events.size() == 17);
  CHECK_FALSE(trace.lost);
  CHECK(ParseTrace("# entries-in-buffer/entries-written: 10/12   #P:2\n").lost);
}

TEST_CASE("Requests told apart: the file's, the journal's, the others'") {
  const ParsedTrace trace = ParseTrace(kTrace);
  const RequestAccount a =
      AccountRequests(trace.events, {{33112, 33160}}, 2267);
  // The read of the block partly overwritten, and the data written.
  CHECK(a.file.reads == 1);
  CHECK(a.file.read_sectors == 8);
  CHECK(a.file.writes == 1);
  CHECK(a.file.write_sectors == 16);
  CHECK(*a.file.flushes == 0);
  // The journal's blocks (M) and the commit's flush, asked by its bio.
  CHECK(a.filesystem.writes == 2);
  CHECK(a.filesystem.write_sectors == 24);
  CHECK(*a.filesystem.flushes == 1);
  CHECK(a.filesystem.reads == 0);
  // The neighbour's write, its empty flush bio (a write of no sectors, as
  // /sys/block/*/stat counts it) and the flush that bio asked for.
  CHECK(a.others.writes == 2);
  CHECK(a.others.write_sectors == 8);
  CHECK(*a.others.flushes == 1);
  const DeviceCounters total = TotalOf(a);
  CHECK(total.writes == 5);
  CHECK(*total.flushes == 2);
  // Ours at the device: 20-120, 200-300, 400-500, 610-900, 910-1000 us.
  CHECK(a.device_ns == (100 + 100 + 100 + 290 + 90) * 1000);
}

TEST_CASE("An empty flush bio of our own is the file's") {
  const ParsedTrace trace = ParseTrace(
      "  alignbench-9 (      9) [001] ..... 1.000001: block_bio_queue: 7,0 "
      "FWS 0 + 0 [alignbench]\n"
      "  kworker/1:1H-57 (     57) [001] ..... 1.000002: block_rq_issue: 7,0 "
      "FF 0 () 0 + 0 none,0,0 [kworker/1:1H]\n"
      "  kworker/1:1H-57 (     57) [001] ..... 1.000004: block_rq_complete: "
      "7,0 FF () 18446744073709551615 + 0 none,0,0 [0]\n");
  const RequestAccount a = AccountRequests(trace.events, {}, 9);
  CHECK(*a.file.flushes == 1);
  CHECK(a.file.writes == 1);
  CHECK(a.file.write_sectors == 0);
  CHECK(*a.others.flushes == 0);
  CHECK(a.device_ns == 2000);
}

TEST_CASE("Requests overlapping at the device are held once") {
  const ParsedTrace trace = ParseTrace(
      "  a-1 (      1) [000] ..... 1.000000: block_rq_issue: 7,0 W 4096 () 8 "
      "+ 8 be,0,4 [a]\n"
      "  a-1 (      1) [000] ..... 1.000002: block_rq_issue: 7,0 W 4096 () 16 "
      "+ 8 be,0,4 [a]\n"
      "  b-2 (      2) [000] ..s.. 1.000005: block_rq_complete: 7,0 W () 8 + "
      "8 be,0,4 [0]\n"
      "  b-2 (      2) [000] ..s.. 1.000006: block_rq_complete: 7,0 W () 16 "
      "+ 8 be,0,4 [0]\n"
      // Completed without an issue seen: not counted, not timed.
      "  b-2 (      2) [000] ..s.. 1.000009: block_rq_complete: 7,0 W () 64 "
      "+ 8 be,0,4 [0]\n");
  const RequestAccount a = AccountRequests(trace.events, {{0, 32}}, 1);
  CHECK(a.file.writes == 2);
  CHECK(a.device_ns == 6000);
}
