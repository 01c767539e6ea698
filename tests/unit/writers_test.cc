// The writers of lib/render/writers.h, one a format, and their golden output:
// tests/fixtures/golden/<format>.txt holds what a fixed report renders to
// (table.txt the detailed text, compact.txt the default). After an intended
// change of the output, regenerate them with ALIGNBENCH_UPDATE_GOLDEN=1
// build/tests/unit_tests "[golden]" and review the diff.
#include "lib/render/writers.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lib/base/text.h"
#include "lib/render/csv.h"
#include "lib/render/derby.h"
#include "lib/render/environment.h"
#include "lib/render/ioping.h"
#include "lib/render/markdown.h"
#include "lib/render/report_parts.h"
#include "lib/render/text_compact.h"
#include "lib/render/text_detailed.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

void CheckGolden(Format format, const std::string& name,
                 Detail detail = Detail::kFull) {
  std::ostringstream rendered;
  Render(rendered, testing::FixedReport(), format, detail);
  const std::string path =
      ALIGNBENCH_SOURCE_DIR "/tests/fixtures/golden/" + name + ".txt";
  if (std::getenv("ALIGNBENCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << rendered.str();
  }
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(rendered.str() == golden.str());
}

}  // namespace

TEST_CASE("Table golden output", "[golden]") {
  CheckGolden(Format::kTable, "table");
}
TEST_CASE("Compact golden output", "[golden]") {
  CheckGolden(Format::kTable, "compact", Detail::kCompact);
}
TEST_CASE("Derby golden output", "[golden]") {
  CheckGolden(Format::kDerby, "derby");
}
TEST_CASE("Markdown golden output", "[golden]") {
  CheckGolden(Format::kMarkdown, "markdown");
}
TEST_CASE("CSV golden output", "[golden]") { CheckGolden(Format::kCsv, "csv"); }
TEST_CASE("ioping golden output", "[golden]") {
  CheckGolden(Format::kIoping, "ioping");
}

TEST_CASE("Derby rows print as the mailing list did") {
  std::ostringstream out;
  Render(out, testing::FixedReport(), Format::kDerby);
  // Jan's 64K row, in this project's column order size | unaligned | aligned |
  // %gain.
  CHECK_THAT(out.str(),
             Catch::StartsWith("64 | 18.359375 | 10.0 | 83.59375%\n"));
}

TEST_CASE("The header names directory, filesystem and device, ioping style") {
  CHECK(TargetLine(testing::FixedReport().target) ==
        "--- /mnt (ext4 /dev/loop0) --- logical 4096 B, physical 4096 B, write "
        "cache: "
        "write back");
}

TEST_CASE("A huge number is printed short, never hundreds of digits") {
  CHECK(Printf("%+.1f", 1e308) == "+1e+308");
  CHECK(Printf("%.3f", -1e300) == "-1e+300");
  CHECK(Printf("%+.1f", 83.25) == "+83.2");
  CHECK(Printf("%.1f%%", 1e200) == "1e+200%");
  // A result file may say any finite gain; the table stays a table.
  Report r = testing::FixedReport();
  r.pairs[0].means_gain_pct = 1e308;
  for (Format f : {Format::kTable, Format::kMarkdown, Format::kDerby}) {
    std::ostringstream out;
    Render(out, r, f);
    std::istringstream lines(out.str());
    std::size_t longest = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.find("%gain") == std::string::npos) {
        longest = std::max(longest, line.size());
      }
    }
    CHECK(longest < 260);
    CHECK_THAT(out.str(), Catch::Contains("1e+308"));
  }
}

TEST_CASE(
    "Markdown: a directory cannot end its code span or reach the terminal") {
  Report r = testing::FixedReport();
  r.target.dir = "/mnt/a`b\x1b[2J\xe2\x80\xae";
  std::ostringstream out;
  Render(out, r, Format::kMarkdown);
  CHECK_THAT(out.str(), Catch::Contains("on ``/mnt/a`b\\x1b[2J\\u202e``:"));
  CHECK_THAT(out.str(), !Catch::Contains("\x1b"));
}

// A result file is anyone's: its case name and host reach a bug tracker that
// renders HTML, so none of their markup may act there.
TEST_CASE("Markdown: a case name's HTML is shown, never acted on") {
  Report r = testing::FixedReport();
  r.settings.case_name = "x</summary></details><img src=a onerror=b>";
  r.target.host.hostname = "<script>h</script>&amp;";
  std::ostringstream out;
  Render(out, r, Format::kMarkdown);
  CHECK_THAT(out.str(), !Catch::Contains("</summary></details><img"));
  CHECK_THAT(out.str(),
             Catch::Contains("case x&lt;/summary>&lt;/details>&lt;img"));
  CHECK_THAT(out.str(), !Catch::Contains("<script>"));
  // The details' own markup is still there, once.
  CHECK(out.str().find("</details>") == out.str().rfind("</details>"));
}

TEST_CASE("A row whose means point elsewhere shows the typical gain and why") {
  Report r = testing::FixedReport();
  PairResult& p = r.pairs[0];
  p.means_gain_pct = -3.49;
  p.inference.test->interval_pct = {16.8, 63.7};
  p.inference.test->estimate_pct = 40.0;
  p.aligned.total_ns = Summarize({10e6, 10e6, 90e6});
  // The row: Derby's gain of means, then the typical gain beside its
  // interval; markdown folds Derby's gain into the row's details.
  const std::pair<Format, std::string> rows[] = {
      {Format::kTable, " |       -3.49 |   +40.00 |   [+16.8, +63.7] | "},
      {Format::kMarkdown,
       "| 64K | 18.3594 | 36.6667 | +40.00 | [+16.8, +63.7] "
       "| aligned faster |\n"},
      {Format::kMarkdown, "| 64K | -3.49 | 0.000123 | "}};
  for (const auto& [format, row] : rows) {
    std::ostringstream out;
    Render(out, r, format);
    INFO(out.str());
    CHECK_THAT(out.str(), Catch::Contains(row));
    CHECK_THAT(out.str(),
               Catch::Contains("64") &&
                   Catch::Contains("means %gain -3.49 lies outside the "
                                   "interval: aligned's slow tail raises its "
                                   "mean (p99 88.400 ms against unaligned's"));
  }
  std::ostringstream table;
  Render(table, r, Format::kTable);
  CHECK_THAT(table.str(), Catch::Contains("where the means point elsewhere:\n"
                                          "   64K  means %gain -3.49"));
  // Derby's own format keeps Derby's gain, as the mailing list printed it.
  std::ostringstream derby;
  Render(derby, r, Format::kDerby);
  CHECK_THAT(derby.str(),
             Catch::Contains("64 | ") && Catch::Contains("| -3.49%"));
}

TEST_CASE(
    "Markdown, the bug-report format, carries the why-lines and warnings") {
  Report r = testing::FixedReport();
  r.complete = false;
  r.target.device.reset();
  r.target.no_device_reason = "no block device under this directory (tmpfs)";
  std::ostringstream out;
  Render(out, r, Format::kMarkdown);
  CHECK_THAT(out.str(),
             Catch::Contains("why, per size:\n\n- 64K: unaligned writes each "
                             "caused 1.0 extra device read(s).\n"));
  // Folded as a bug tracker shows them: the table of times and verdicts
  // open, the details, the why and the far runs inside <details>.
  const std::string text = out.str();
  const std::size_t open = text.find("\n<details><summary>details: ");
  const std::size_t close = text.find("\n</details>\n");
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  CHECK(text.find("| 4K | 8.8359 | 8.4375 | +4.25 |") < open);
  for (const char* inside :
       {"| reads/write (u/a) |", "why, per size:", "runs far off the others"}) {
    INFO(inside);
    CHECK(text.find(inside) > open);
    CHECK(text.find(inside) < close);
  }
  CHECK_THAT(out.str(), Catch::Contains("- 4K: run 5, aligned: 25.3 ms"));
  CHECK_THAT(out.str(), Catch::Contains("**note:** no block device under this "
                                        "directory (tmpfs)  \n"));
  CHECK_THAT(out.str(), Catch::Contains("**warning:** a warning  \n"));
  CHECK_THAT(out.str(), Catch::Contains("**INCOMPLETE:** the run was "
                                        "interrupted or stopped by an error"));
}

TEST_CASE("The summary line escapes the directory's name as the title does") {
  Report r = testing::FixedReport();
  r.target.dir = "/mnt/a\x1b[2J\nb";
  const std::string line = SummaryLine(r);
  CHECK_THAT(line, Catch::Contains("/mnt/a\\x1b[2J\\nb"));
  CHECK(line.find('\x1b') == std::string::npos);
  CHECK(line.find('\n') == std::string::npos);
}

// What Render prints for a format is its writer's, and nothing else.
template <typename Writer>
std::string Written(Writer writer) {
  std::ostringstream out;
  const Report report = testing::FixedReport();
  writer(out, ViewOf(report));
  return out.str();
}
std::string Rendered(Format format, Detail detail = Detail::kFull) {
  std::ostringstream out;
  Render(out, testing::FixedReport(), format, detail);
  return out.str();
}

TEST_CASE("Each format is one writer, found by its name") {
  CHECK(Rendered(Format::kTable) == Written(RenderDetailed));
  CHECK(Rendered(Format::kTable, Detail::kCompact) == Written(RenderCompact));
  CHECK(Rendered(Format::kDerby) == Written(RenderDerby));
  CHECK(Rendered(Format::kMarkdown) == Written(RenderMarkdown));
  CHECK(Rendered(Format::kCsv) == Written(RenderCsv));
  CHECK(Rendered(Format::kIoping) == Written(RenderIoping));
  // Only the text table has a compact form.
  for (Format f : {Format::kDerby, Format::kMarkdown, Format::kCsv}) {
    CHECK(Rendered(f, Detail::kCompact) == Rendered(f));
  }
}

TEST_CASE("The environment prints its title, then host, filesystem, device") {
  std::ostringstream out;
  RenderEnvironment(out, testing::FixedReport().target);
  const std::string text = out.str();
  CHECK(text.rfind(TargetLine(testing::FixedReport().target) + "\nhost\n", 0) ==
        0);
  CHECK(text.find("\nfilesystem\n") < text.find("\ndevice\n"));
}

TEST_CASE("The device rows print a group's shared flush as it is") {
  Report report = testing::FixedReport();
  REQUIRE(report.pairs.front().unaligned.device);
  report.pairs.front().unaligned.device->flushes = 0.25;  // one per 4 commits
  report.pairs.front().aligned.device->flushes = 1.0;
  std::ostringstream out;
  Render(out, report, Format::kTable, Detail::kFull);
  CHECK_THAT(out.str(), Catch::Contains("0.25 fl"));
  CHECK_THAT(out.str(), Catch::Contains(" 1.0 fl"));  // whole tenths as before
  CHECK_THAT(out.str(), !Catch::Contains(" 0.2 fl"));
}
