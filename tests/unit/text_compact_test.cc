// lib/render/text_compact.h: the default report fits a screen and 80 columns
// for every shipped case; --details prints what the table printed before.
#include "lib/render/text_compact.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "lib/config/case_file.h"
#include "lib/config/settings.h"
#include "lib/render/answer.h"
#include "lib/render/report_parts.h"
#include "lib/render/run_output.h"
#include "tests/unit/case_names.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// What a run of the shipped case `name` could print: its plan's pairs, each
// undecided with a wide interval and a why-line whose figures differ by size,
// in /var/tmp, with one warning.
Report CaseReport(const std::string& name) {
  Report r = testing::FixedReport();
  Settings settings;
  REQUIRE(ApplyCaseFile(ALIGNBENCH_SOURCE_DIR "/cases/" + name + ".json",
                        settings));
  settings.dir = r.target.dir = "/var/tmp";
  r.settings = settings;
  const PairResult model = r.pairs[1];
  r.pairs.clear();
  for (const PairSpec& spec : ExpandPlan(settings)) {
    PairResult pair = model;
    pair.spec = spec;
    pair.inference.test->interval_pct = {-57.75, 124.75};
    pair.explanation =
        "shifted: +" + std::to_string(spec.size % 7) +
        ".5 KiB written per write: a 512-byte shift spreads each write over "
        "one more block. both: about 3.0 device writes per operation "
        "(metadata commits: journal, growing file size).";
    r.pairs.push_back(pair);
  }
  r.warnings = {
      "the disk was busy: 41 writes/s from others in the idle windows, "
      "which the device rows count too; rerun on a quiet disk"};
  RecordForPrinters(r);
  return r;
}

std::string Run(const Report& r, Detail detail) {
  std::ostringstream out;
  RenderRun(out, {r}, Format::kTable, detail);
  return out.str();
}

}  // namespace

TEST_CASE("The compact report of every shipped case fits 80 columns") {
  const std::vector<std::string> names = ShippedCaseNames();
  CHECK(names.size() >= 12);  // the directory was found, not an empty list
  for (const std::string& name : names) {
    INFO(name);
    const Report r = CaseReport(name);
    const std::string text = Run(r, Detail::kCompact);
    std::istringstream lines(text);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
      INFO(line);
      CHECK(line.size() <= 80);
    }
    // A screen (30 lines) up to Derby's 13 sizes; a plan of more pairs adds
    // its rows and a label a group of axes.
    INFO(text);
    std::size_t groups = 0;
    ForEachGroup(
        r, [&](const std::string&, std::size_t, std::size_t) { ++groups; });
    const std::size_t more = r.pairs.size() > 13 ? r.pairs.size() - 13 : 0;
    CHECK(count <= 30 + more + (groups > 1 ? groups : 0));
    if (r.pairs.size() <= 13) CHECK(count <= 30);
    CHECK(text.find(kDetailsPointer) != std::string::npos);
    CHECK(text.find("answer: ") != std::string::npos);
  }
}

TEST_CASE("--details prints what the table printed before, the answer last") {
  const Report r = CaseReport("derby-2004");
  std::ostringstream before;
  Render(before, r, Format::kTable);
  before << "\n" << SummaryLine(r) << "\n" << AnswerLine(r) << "\n";
  CHECK(Run(r, Detail::kFull) == before.str());
}

TEST_CASE("The compact report says the why once, its figures as ranges") {
  const std::string text = Run(CaseReport("derby-2004"), Detail::kCompact);
  // 13 sizes, the figure (bytes % 7) + 0.5: 1K gives 2.5, 10K 6.5, 4K 1.5.
  CHECK(text.find("why: shifted: +1.5 to 6.5 KiB written per write") !=
        std::string::npos);
  CHECK(text.find("more why at") == std::string::npos);
  // The subject is the title's: the summary starts at the pairs.
  CHECK(text.find("\n13 pairs: 13 no significant difference; mean") !=
        std::string::npos);
}

TEST_CASE("The compact lines: title, settings and summary in fewer words") {
  const Report r = testing::FixedReport();
  CHECK(CompactTitleLine(r) ==
        "--- /mnt (ext4 /dev/loop0) --- sectors 4096/4096 B, write cache: "
        "write back");
  CHECK(SettingsLine(r).find("seed 12345") != std::string::npos);
  CHECK(SettingsLine(r, true).find("seed") == std::string::npos);
  // No subject, no verdict that no pair has, no mechanism (the why says it).
  CHECK(SummaryLine(r, true).rfind(
            "2 pairs: 1 aligned faster, 1 no significant difference; mean",
            0) == 0);
  CHECK(SummaryLine(r, true).find("mostly") == std::string::npos);
  CHECK(SummaryLine(r).find("0 unaligned faster") != std::string::npos);
}

TEST_CASE("A size says its unit alike in the table and the answer") {
  Report r = testing::FixedReport();
  r.pairs[1].spec.size = 4201;  // a replay's bytes per recorded commit
  const std::string text = Run(r, Detail::kCompact);
  CHECK(text.find("\n4201B |") != std::string::npos);
  CHECK(text.find("at 4201B") != std::string::npos);
  CHECK(text.find("\n  64K |") != std::string::npos);
}

TEST_CASE("A long title keeps the directory whole, a reference's is broken") {
  Report r = testing::FixedReport();
  r.target.dir = r.settings.dir =
      "/a/directory/name/long/enough/to/fill/more/than/half/of/a/line";
  std::string text = Run(r, Detail::kCompact);
  CHECK(text.rfind("--- " + r.target.dir + " (ext4 /dev/loop0) ---\n  sectors",
                   0) == 0);
  r.reference = ReferenceSource{};
  r.reference->platform = "Windows 2000, 756 MB RAM, 1200 MHz CPU";
  r.reference->disk = "4200 rpm, write cache disabled";
  text = Run(r, Detail::kCompact);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 80);
}
