// Result files written before the printers' words were recorded in them
// print as they did then: the reader derives what such a file lacks (a log
// case's labels, rules and bytes per commit, the statistic's words, each
// pair's mechanisms) the way the code did. tests/fixtures/golden/old-*.txt
// hold what these files printed before that change; regenerate them only for
// an intended change of the output, with ALIGNBENCH_UPDATE_GOLDEN=1
// build/tests/unit_tests "[golden]", and review the diff.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "lib/render/answer.h"
#include "lib/render/comparison.h"
#include "lib/render/many_view.h"
#include "lib/render/report_parts.h"
#include "lib/render/writers.h"
#include "lib/result/result_json.h"

using namespace alignbench;

namespace {

std::string Source(const std::string& path) {
  return std::string(ALIGNBENCH_SOURCE_DIR "/") + path;
}

Report Load(const std::string& path) {
  Result<Report> report = LoadResultFile(Source(path));
  INFO(path << ": " << (report ? "" : report.error().detail));
  REQUIRE(report);
  return report.value();
}

// Every format, then the run's summary and answer lines.
std::string Printed(const Report& report) {
  std::ostringstream out;
  for (Format format :
       {Format::kTable, Format::kDerby, Format::kMarkdown, Format::kCsv}) {
    Render(out, report, format);
    out << "\n";
  }
  out << SummaryLine(report) << "\n" << AnswerLine(report) << "\n";
  return out.str();
}

void CheckGolden(const std::string& printed, const std::string& name) {
  const std::string path = Source("tests/fixtures/golden/old-" + name + ".txt");
  if (std::getenv("ALIGNBENCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << printed;
  }
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(printed == golden.str());
}

}  // namespace

TEST_CASE("An old log case's result prints as it did", "[golden]") {
  CheckGolden(Printed(Load("tests/fixtures/log-case-schema-2.json")),
              "log-case");
}

TEST_CASE(
    "An old log case's result without labels or bytes per commit "
    "prints the same") {
  // The reader derives them from settings.log, as the printers once did.
  std::ifstream in(Source("tests/fixtures/log-case-schema-2.json"));
  nlohmann::json doc = nlohmann::json::parse(in);
  nlohmann::json& ab = doc["alignbench"];
  ab["settings"]["log"].erase("labels");
  for (nlohmann::json& pair : ab["pairs"]) pair.erase("per_commit");
  Result<Report> stripped = FromJson(ab, "stripped.json");
  REQUIRE(stripped);
  CheckGolden(Printed(stripped.value()), "log-case");
}

TEST_CASE("Curated old results print as they did", "[golden]") {
  CheckGolden(Printed(Load("results/vm-loop/cold-rmw-ext4-4k.json")),
              "cold-rmw");
  CheckGolden(
      Printed(Load("results/reference/derby-2004-suresh-windows2000.json")),
      "reference");
}

TEST_CASE("Old results compare and tabulate as they did", "[golden]") {
  const Report base = Load("results/vm-loop/derby-ext4-4k-write-back.json");
  const Report next = Load("results/vm-loop/derby-ext4-4k-write-through.json");
  std::ostringstream out;
  RenderComparison(out, base, next);
  out << "\n";
  RenderMany(out,
             ManyViewOf(LabelResults({base, next}, {"base.json", "next.json"})),
             Format::kTable);
  CheckGolden(out.str(), "compare");
}

TEST_CASE(
    "A version 2 file's gains read as its version named them, and write back "
    "under version 3's names") {
  // Version 2: gain_pct was Derby's gain of means, median_gain_pct the gain
  // of medians. Version 3: gain_pct is the gain the table prints.
  std::ifstream in(Source("tests/fixtures/log-case-schema-2.json"));
  const nlohmann::json doc = nlohmann::json::parse(in);
  const nlohmann::json& old_pair = doc.at("alignbench").at("pairs").at(0);
  REQUIRE(doc.at("alignbench").at("schema_version") == 2);
  const Report report = Load("tests/fixtures/log-case-schema-2.json");
  const PairResult& pair = report.pairs.at(0);
  CHECK(pair.means_gain_pct == old_pair.at("gain_pct").get<double>());
  CHECK(pair.medians_gain_pct == old_pair.at("median_gain_pct").get<double>());
  const double estimate =
      old_pair.at("gain_interval_pct").at("estimate_pct").get<double>();
  REQUIRE(pair.ShownGainPct() == estimate);
  // The fixture's gain of means and estimate differ: the mapping is seen.
  REQUIRE(estimate != old_pair.at("gain_pct").get<double>());
  const nlohmann::json again = ToJson(report);
  CHECK(again.at("schema_version") == 3);
  const nlohmann::json& new_pair = again.at("pairs").at(0);
  CHECK(new_pair.at("gain_pct") == estimate);
  CHECK(new_pair.at("means_gain_pct") == old_pair.at("gain_pct"));
  CHECK(new_pair.at("medians_gain_pct") == old_pair.at("median_gain_pct"));
  CHECK_FALSE(new_pair.contains("median_gain_pct"));
  // And version 3 reads its own names back.
  const Result<Report> back = FromJson(again, "again.json");
  REQUIRE(back);
  CHECK(back.value().pairs.at(0).means_gain_pct == pair.means_gain_pct);
  CHECK(back.value().pairs.at(0).medians_gain_pct == pair.medians_gain_pct);
  // A version 2 file that used version 3's names is refused by the schema.
  nlohmann::json mixed = doc.at("alignbench");
  mixed["pairs"][0]["means_gain_pct"] = 1.0;
  CHECK_FALSE(FromJson(mixed, "mixed.json"));
}
