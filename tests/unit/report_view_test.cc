// lib/render/report_view.h: the view is built once from the result, with
// every outside text escaped, the pairs grouped by their axes in plan order,
// and the run's why and sizes; the writers print what the view holds.
#include "lib/render/report_view.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "lib/render/text_compact.h"
#include "lib/render/text_detailed.h"
#include "lib/render/writers.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("report view: groups follow the axes, rows keep their pairs' axes") {
  Report r = testing::FixedReport();
  r.pairs.push_back(r.pairs[0]);
  r.pairs.back().spec.sync = SyncMethod::kFsync;
  const ReportView v = ViewOf(r);
  REQUIRE(v.groups.size() == 2);
  CHECK(v.groups[0].rows.size() == 2);
  CHECK(v.groups[1].rows.size() == 1);
  CHECK(v.groups[0].label != v.groups[1].label);
  CHECK(v.groups[1].rows[0].sync == "fsync");
  CHECK(v.groups[0].rows[0].sync != "fsync");
  CHECK(v.groups[0].rows[0].size == "64K");
  CHECK(v.groups[0].rows[1].size == "4K");
  // The run's sizes: sorted, each once, whatever the groups.
  CHECK(v.sizes == std::vector<std::uint64_t>{4096, 65536});
  CHECK(v.unaligned == "unaligned");
  CHECK(v.unaligned_shift == " (shift 24 B)");
  CHECK_FALSE(v.no_device.has_value());
}

TEST_CASE("report view: a row holds the figures the writers print") {
  Report r = testing::FixedReport();
  r.pairs[0].unaligned.error = "write failed\x1b[2J";
  r.pairs[0].others_cpu_share = 0.25;
  const ReportView v = ViewOf(r);
  const RowView& row = v.groups[0].rows[0];
  const PairResult& p = r.pairs[0];
  CHECK(row.size_bytes == p.spec.size);
  CHECK(row.measured == p.Measured());
  CHECK(row.unaligned.ran == (p.unaligned.repetitions > 0));
  CHECK(row.unaligned.total_ns.mean == p.unaligned.total_ns.mean);
  CHECK(row.aligned.total_ns.p99 == p.aligned.total_ns.p99);
  CHECK(row.means_gain_pct == p.means_gain_pct);
  CHECK(row.shown_gain_pct == p.ShownGainPct());
  REQUIRE(row.test.has_value() == p.inference.test.has_value());
  if (row.test) CHECK(row.test->p_value == p.inference.test->p_value);
  CHECK(&row.Of(Variant::kAligned) == &row.aligned);
  CHECK(row.others_cpu_share == std::optional<double>(0.25));
  // An error is text from outside: escaped here, like every other.
  CHECK(row.unaligned.error.rfind("write failed", 0) == 0);
  CHECK(row.unaligned.error.find('\x1b') == std::string::npos);
  CHECK(row.tail_verdict ==
        (p.tail_verdict ? std::string(NameOf(kVerdicts, *p.tail_verdict))
                        : "undecided"));
}

TEST_CASE("report view: every text from outside is escaped once, here") {
  Report r = testing::FixedReport();
  r.target.dir = "/mnt/a\x1b[2Jb";
  r.warnings = {"disk \x07 rang"};
  r.pairs[1].run_notes = {"run 5\nforged line"};
  r.target.device.reset();
  r.target.no_device_reason = "tmpfs";
  const ReportView v = ViewOf(r);
  for (const std::string& text :
       {v.title, v.compact_title, v.subject, v.summary, v.environment,
        v.notes.at(1).second, v.groups.at(0).far_runs.at(0).second}) {
    INFO(text);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\x07') == std::string::npos);
    CHECK(text.find('\n') == std::string::npos);
  }
  CHECK(v.groups[0].far_runs[0].first == "4K");
  // Without a device the detailed table says why there are no device rows.
  REQUIRE(v.no_device.has_value());
  std::ostringstream out;
  RenderDetailed(out, v);
  CHECK_THAT(out.str(),
             Catch::Contains("device I/O per write: " + *v.no_device));
}

TEST_CASE("report view: the text writers print the view's words") {
  const Report r = testing::FixedReport();
  ReportView v = ViewOf(r);
  v.groups[0].rows[0].verdict = "a verdict only the view holds";
  v.compact_settings = "settings only the view holds";
  std::ostringstream compact, detailed;
  RenderCompact(compact, v);
  RenderDetailed(detailed, v);
  CHECK_THAT(compact.str(),
             Catch::Contains("a verdict only the view holds") &&
                 Catch::Contains("settings only the view holds"));
  CHECK_THAT(detailed.str(), Catch::Contains("a verdict only the view holds"));
}

namespace {

std::string Printed(const Report& r, Format format,
                    Detail detail = Detail::kFull) {
  std::ostringstream out;
  Render(out, r, format, detail);
  std::string text = out.str();
  // The compact text wraps its lines at 80 columns: read as one line.
  for (std::size_t at; (at = text.find("\n  ")) != std::string::npos;) {
    text.replace(at, 3, " ");
  }
  return text;
}

}  // namespace

TEST_CASE("report view: every format that says the settings names --atomic") {
  Report r = testing::FixedReport();
  r.settings.ios = {IoMode::kDirect};
  CHECK(ViewOf(r).atomic.empty());
  CHECK_THAT(Printed(r, Format::kDerby), Catch::StartsWith("64 | "));
  CHECK_THAT(Printed(r, Format::kCsv),
             Catch::Contains(",atomic_writes,gain_pct\n") &&
                 Catch::EndsWith(",off,4.25\n"));
  r.settings.atomic = AtomicWrites::kOn;
  const std::string atomic = "atomic writes (RWF_ATOMIC)";
  CHECK(ViewOf(r).atomic == atomic);
  CHECK_THAT(ViewOf(r).compact_settings,
             Catch::Contains("synced writes per run, " + atomic + ", shift"));
  CHECK_THAT(Printed(r, Format::kTable, Detail::kCompact),
             Catch::Contains(atomic));
  CHECK_THAT(Printed(r, Format::kTable), Catch::Contains(atomic));
  CHECK_THAT(Printed(r, Format::kMarkdown), Catch::Contains(atomic));
  CHECK_THAT(Printed(r, Format::kDerby), Catch::StartsWith(atomic + "\n64 | "));
  CHECK_THAT(Printed(r, Format::kCsv),
             Catch::Contains(",atomic_writes,gain_pct\n") &&
                 Catch::EndsWith(",on,4.25\n"));
  CHECK_THAT(
      Printed(r, Format::kIoping),
      Catch::Contains("cold, " + atomic + ", unaligned (shift 24 B) ---"));
}

TEST_CASE("report view: the settings line counts the threads that wrote") {
  Report r = testing::FixedReport();
  r.settings.writers = 2;  // a file's claim of 4 commits a group (refused)
  r.settings.commits_per_sync = 4;
  CHECK_THAT(ViewOf(r).settings,
             Catch::Contains("2 writer threads per group") &&
                 !Catch::Contains("4 writer threads"));
  r.settings.writers = 1;
  r.settings.queue_depth = 8;
  r.settings.commits_per_sync = 1;
  CHECK_THAT(ViewOf(r).settings,
             Catch::Contains("8 writes in flight per batch (io_uring)"));
}

TEST_CASE("report view: a flush shared by 1024 commits never prints as none") {
  Report r = testing::FixedReport();
  REQUIRE(r.pairs.size() == 2);
  r.pairs[0].unaligned.device->flushes = 1.0 / 1024;
  r.pairs[0].aligned.device->flushes = 0.004;
  r.pairs[1].unaligned.device->flushes = 0;
  r.pairs[1].aligned.device->flushes = 0.25;
  const std::string text = Printed(r, Format::kTable);
  CHECK_THAT(text, Catch::Contains("KiB  1e-3 fl"));
  CHECK_THAT(text, Catch::Contains("KiB  4e-3 fl"));
  CHECK_THAT(text, Catch::Contains("KiB  0.25 fl"));
  // Only the flush that is none reads 0.0.
  CHECK(text.find("KiB   0.0 fl") == text.rfind("KiB   0.0 fl"));
  CHECK(text.find("KiB   0.0 fl") != std::string::npos);
  CHECK_THAT(text, !Catch::Contains("0.00 fl"));
}
