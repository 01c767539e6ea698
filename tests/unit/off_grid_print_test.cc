// A stack off the grid, as a reader sees it: `env` prints every layer's unit
// and the off-grid sentence, "unknown" where a unit printed always is, and
// why where the probe could not read one; a run's notes repeat the sentence
// from what the result recorded.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "lib/render/environment.h"
#include "lib/render/report_parts.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

Report OffGridReport() {
  Report r = testing::FixedReport();
  r.target.host.page_bytes = 4096;
  r.target.fs_block_bytes = 4096;
  r.target.off_grid =
      "loop offset 512 B: not a multiple of the 4096-byte blocks below";
  r.target.units_unknown =
      "ext4 cluster: open /dev/loop0: Permission denied (EACCES); reading "
      "the superblock needs root";
  if (!r.target.device) r.target.device.emplace();
  r.target.device->loop_offset_bytes = 512;
  r.target.device->alignment_offset_bytes.reset();
  return r;
}

}  // namespace

TEST_CASE("env prints every layer's unit, what is off grid, and why unknown") {
  std::ostringstream out;
  RenderEnvironment(out, OffGridReport().target);
  const std::string text = out.str();
  CHECK_THAT(text, Catch::Contains("  page bytes: 4096\n"));
  CHECK_THAT(
      text, Catch::Contains("  filesystem block bytes (statfs f_bsize): 4096"));
  CHECK_THAT(text, Catch::Contains("  OFF GRID: loop offset 512 B: not a "
                                   "multiple of the 4096-byte blocks below\n"));
  CHECK_THAT(text, Catch::Contains("  units unknown, and why: ext4 cluster: "
                                   "open /dev/loop0: Permission denied"));
  CHECK_THAT(text, Catch::Contains("  loop offset bytes: 512\n"));
  // Printed always, so said unknown rather than left out or made 0.
  CHECK_THAT(text, Catch::Contains("  alignment offset bytes: unknown\n"));
  // A unit of another filesystem, or of a layer that is not there, is left
  // out.
  CHECK_THAT(text, !Catch::Contains("xfs stripe"));
  CHECK_THAT(text, !Catch::Contains("md chunk"));
}

TEST_CASE("A run's notes say where its stack is off the grid") {
  bool said = false;
  for (const auto& [label, text] : Notes(OffGridReport())) {
    if (label != "off grid") continue;
    said = true;
    CHECK(text ==
          "loop offset 512 B: not a multiple of the 4096-byte blocks below");
  }
  CHECK(said);
  for (const auto& note : Notes(testing::FixedReport())) {
    CHECK(note.first != "off grid");
  }
}

TEST_CASE("The detailed title names the filesystem block where known") {
  CHECK_THAT(TargetLine(OffGridReport().target),
             Catch::EndsWith(", fs block 4096 B"));
  CHECK_THAT(TargetLine(testing::FixedReport().target),
             !Catch::Contains("fs block"));
}
