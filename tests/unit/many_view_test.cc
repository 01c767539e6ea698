// The N-way table on hand-made reports: labels from host, disk model and
// directory, kept apart by their origin when they agree; one row per pair
// spec of any result, "-" where a result has none; only the fields that
// differ, each with every result's value.
#include "lib/render/many_view.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "lib/render/comparison.h"
#include "lib/render/conditions.h"
#include "lib/render/differences.h"
#include "lib/render/writers.h"
#include "tests/unit/report_fixture.h"

namespace alignbench {
namespace {

using testing::FixedReport;

std::string Rendered(const std::vector<LabeledReport>& results, Format f) {
  std::ostringstream out;
  RenderMany(out, ManyViewOf(results), f);
  return out.str();
}

TEST_CASE("The fields that differ between results, and only those") {
  Report xfs = FixedReport();
  xfs.target.fs_type = "xfs";
  const Report ext4 = FixedReport();
  const std::vector<Difference> differences = Differences({&ext4, &xfs});
  REQUIRE(differences.size() == 1);
  CHECK(differences[0].texts == std::vector<std::string>{"ext4", "xfs"});
  std::ostringstream out;
  RenderDifferencesText(out, differences, 2);
  CHECK(out.str().find("\nfields that differ:\n") == 0);
  CHECK(out.str().find("| ext4 |") != std::string::npos);
  std::ostringstream none;
  RenderDifferencesText(none, Differences({&ext4, &ext4}), 2);
  CHECK(none.str() ==
        "\nno setting or environment field differs between them\n");
}

}  // namespace

TEST_CASE("A result's label is its host, disk model (or disk) and directory") {
  Report r = FixedReport();
  CHECK(ResultLabel(r) == "? / loop0 / /mnt");
  r.target.host.hostname = "db1";
  r.target.device->model = "WDC WD800JB";
  CHECK(ResultLabel(r) == "db1 / WDC WD800JB / /mnt");
  r.target.device.reset();
  CHECK(ResultLabel(r) == "db1 / ext4 / /mnt");
}

TEST_CASE("Equal labels get their origin; distinct ones do not") {
  Report other = FixedReport();
  other.target.dir = "/srv";
  const std::vector<LabeledReport> labeled =
      LabelResults({FixedReport(), FixedReport(), other},
                   {"a/x.json", "b/x.json", "c.json"});
  REQUIRE(labeled.size() == 3);
  CHECK(labeled[0].label == "? / loop0 / /mnt (a/x.json)");
  CHECK(labeled[1].label == "? / loop0 / /mnt (b/x.json)");
  CHECK(labeled[2].label == "? / loop0 / /srv");
}

TEST_CASE("The N-way table: a row per pair spec, a group per result") {
  Report ext4 = FixedReport();
  Report xfs = FixedReport();
  xfs.target.fs_type = "xfs";
  xfs.target.dir = "/srv";
  xfs.pairs.pop_back();  // xfs has no 4K pair
  const std::string text =
      Rendered(LabelResults({ext4, xfs}, {"1.json", "2.json"}), Format::kTable);
  CHECK_THAT(text, Catch::Contains("[1] ? / loop0 / /mnt\n"));
  CHECK_THAT(text, Catch::Contains("[2] ? / loop0 / /srv\n"));
  // Both pairs share every axis but size: rows are named by size alone.
  CHECK_THAT(text, Catch::Contains("\n64K "));
  CHECK_THAT(text, Catch::Contains("+83.2   [+70.2,+95.5]   aligned"));
  // The 4K row: the 2nd result has no such pair.
  CHECK_THAT(text, Catch::Contains("+4.2     [-1.5,+9.8]      n.s. |"));
  CHECK_THAT(text, Catch::Contains("-               -         -\n"));
  CHECK_THAT(text, Catch::Contains("filesystem | ext4 |  xfs"));
  CHECK_THAT(text, !Catch::Contains("kernel"));
}

TEST_CASE("The N-way view's cells are each result's own rows") {
  Report ext4 = FixedReport();
  Report xfs = FixedReport();
  xfs.target.fs_type = "xfs";
  xfs.pairs.pop_back();
  const std::vector<LabeledReport> labeled =
      LabelResults({ext4, xfs}, {"1.json", "2.json"});
  ManyView m = ManyViewOf(labeled);
  REQUIRE(m.rows.size() == 2);
  REQUIRE(m.views.size() == 2);
  // The cells point into the results' views, the same rows `show` prints.
  CHECK(m.rows[0].cells[0] == &m.views[0].groups[0].rows[0]);
  CHECK(m.rows[1].cells[1] == nullptr);
  const ReportView own = ViewOf(ext4);
  const RowView& alone = own.groups[0].rows[1];
  CHECK(m.rows[1].cells[0]->short_interval == alone.short_interval);
  CHECK(m.rows[1].cells[0]->verdict_words == alone.verdict_words);
  CHECK(m.rows[1].name == alone.size);
  CHECK(m.conditions.size() == 2);
  // A move keeps the cells pointing into the moved views.
  const ManyView moved = std::move(m);
  CHECK(moved.rows[0].cells[0] == &moved.views[0].groups[0].rows[0]);
}

TEST_CASE("Identical results: no field differs, and the table says so") {
  const std::string text = Rendered(
      LabelResults({FixedReport(), FixedReport()}, {"a", "b"}), Format::kTable);
  CHECK_THAT(text, Catch::Contains("no setting or environment field differs"));
}

TEST_CASE("N-way CSV: one row per result and pair, differing fields quoted") {
  Report a = FixedReport();
  Report b = FixedReport();
  b.target.mount_options = "rw,noatime";
  const std::string csv =
      Rendered(LabelResults({a, b}, {"a", "b"}), Format::kCsv);
  CHECK_THAT(csv, Catch::StartsWith("label,field_mount_options,size_bytes,"));
  CHECK_THAT(csv,
             Catch::Contains("\n? / loop0 / /mnt (b),\"rw,noatime\",4096,"));
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 1 + 2 * 2);
}

TEST_CASE("N-way table: outside strings are escaped for every printer") {
  // A directory name is whatever the user or a result file says it is.
  const std::string hostile =
      "/mnt/a\nb\x1b[31m|c,\"d\" \xc2\x9b"
      "2J\xe2\x80\xae"
      "evil\xe2\x81\xa6";
  Report a = FixedReport();
  Report b = FixedReport();
  a.target.dir = hostile;
  b.target.dir = hostile + "2";
  const std::vector<LabeledReport> labeled = LabelResults({a, b}, {"a", "b"});
  for (Format f : {Format::kTable, Format::kMarkdown, Format::kCsv}) {
    const std::string text = Rendered(labeled, f);
    CAPTURE(static_cast<int>(f), text);
    CHECK_THAT(text, !Catch::Contains("\x1b"));
    CHECK_THAT(text, !Catch::Contains("a\nb"));
    CHECK_THAT(text, !Catch::Contains("\xc2\x9b"));
    CHECK_THAT(text, !Catch::Contains("\xe2\x80\xae"));
    CHECK_THAT(text, !Catch::Contains("\xe2\x81\xa6"));
    CHECK_THAT(text, Catch::Contains("a\\nb\\x1b[31m"));
    CHECK_THAT(text, Catch::Contains("\\u202eevil\\u2066"));
  }
  const std::string markdown = Rendered(labeled, Format::kMarkdown);
  CHECK_THAT(markdown, Catch::Contains("\\|c,"));
  CHECK_THAT(markdown, !Catch::Contains("m|c"));
  const std::string csv = Rendered(labeled, Format::kCsv);
  // One header and two rows per result: no field split a line.
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 1 + 2 * 2);
  CHECK_THAT(csv, Catch::Contains("|c,\"\"d\"\" "));
}

// A host name is whatever its owner chose: in CSV it stays a text a
// spreadsheet shows, never a formula it runs.
TEST_CASE("compare --format csv: a host name that is a formula stays text") {
  Report a = FixedReport();
  Report b = FixedReport();
  a.target.host.hostname = "=HYPERLINK(\"http://x\",\"y\")";
  b.target.host.hostname = "@SUM(A1)";
  const std::string csv =
      Rendered(LabelResults({a, b}, {"a", "b"}), Format::kCsv);
  CHECK_THAT(csv, Catch::Contains("\n\"'=HYPERLINK(\"\"http://x\"\""));
  CHECK_THAT(csv, Catch::Contains("\n\"'@SUM(A1)"));
  CHECK_THAT(csv, !Catch::Contains("\n=HYPERLINK"));
  CHECK_THAT(csv, !Catch::Contains("\n\"=HYPERLINK"));
}

TEST_CASE("Two-way compare: the differing fields are escaped") {
  Report a = FixedReport();
  Report b = FixedReport();
  b.target.dir = "/mnt/b\n--- forged line\x1b[31m";
  std::ostringstream out;
  RenderComparison(out, a, b);
  CHECK_THAT(out.str(), !Catch::Contains("\n--- forged"));
  CHECK_THAT(out.str(), !Catch::Contains("\x1b"));
  CHECK_THAT(out.str(), Catch::Contains("/mnt/b\\n--- forged line\\x1b[31m"));
}

TEST_CASE("compare: every size says its unit, in every format") {
  Report a = FixedReport();
  Report b = FixedReport();
  a.settings.shifts = {512};
  b.settings.shifts = {24};
  b.settings.sizes = {65536, 64};
  const std::vector<Difference> differences = Differences({&a, &b});
  REQUIRE(differences.size() == 2);
  CHECK(differences[0].texts == std::vector<std::string>{"64K,4K", "64K,64B"});
  CHECK(differences[1].texts == std::vector<std::string>{"512B", "24B"});
  CHECK_THAT(DifferingFields(a, b),
             Catch::VectorContains(std::string("shift: 512B -> 24B")));
  // Several shifts: each row names its shift with its unit.
  Report shifted = FixedReport();
  shifted.settings.shifts = {24, 512};
  shifted.pairs[1].spec.shift = 512;
  const std::vector<LabeledReport> labeled =
      LabelResults({shifted, shifted}, {"a", "b"});
  for (Format f : {Format::kTable, Format::kMarkdown}) {
    CHECK_THAT(Rendered(labeled, f), Catch::Contains("4K +512B"));
  }
}

TEST_CASE("compare: run conditions in every format, busy ones warned of") {
  Report quiet = FixedReport();
  Report busy = FixedReport();
  for (PairResult& pair : busy.pairs) pair.others_cpu_share = 0.5;
  const std::vector<LabeledReport> labeled =
      LabelResults({quiet, busy}, {"a", "b"});
  const std::string text = Rendered(labeled, Format::kTable);
  CHECK_THAT(text, Catch::Contains(std::string(kConditionsHeading) +
                                   "\n  [1] others' writes "));
  CHECK_THAT(text, Catch::Contains("\n  [2] others' writes not sampled, "
                                   "others' CPU 50 % (busy)\n"));
  CHECK_THAT(text, Catch::Contains("warning: only [2] was measured beside "
                                   "others' traffic: its times include it"));
  const std::string markdown = Rendered(labeled, Format::kMarkdown);
  CHECK_THAT(markdown, Catch::Contains("\n- [2] others' writes not sampled"));
  CHECK_THAT(markdown, Catch::Contains("**warning:** only [2] was measured"));
  const std::string csv = Rendered(labeled, Format::kCsv);
  CHECK_THAT(csv, Catch::Contains(",verdict,run_conditions\n"));
  CHECK_THAT(csv, Catch::Contains(",\"others' writes not sampled, others' "
                                  "CPU 50 % (busy)\"\n"));
  // All alike: no warning.
  CHECK_THAT(Rendered(LabelResults({busy, busy}, {"a", "b"}), Format::kTable),
             !Catch::Contains("warning: only"));
}

}  // namespace alignbench
