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
#include "lib/render/n_way_table.h"
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
  RenderMany(out, LabelResults({base, next}, {"base.json", "next.json"}),
             Format::kTable);
  CheckGolden(out.str(), "compare");
}
