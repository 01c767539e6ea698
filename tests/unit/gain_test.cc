// Derby's gain column, reproduced from its own two time columns (fixture: Jan's
// 2005 rerun, tests/fixtures/derby-2005-jan.json, copied from the derby-dev
// thread).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lib/stats/summary.h"

using alignbench::GainPct;

TEST_CASE("GainPct reproduces every gain_pct of Jan's 2005 table exactly") {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR "/tests/fixtures/derby-2005-jan.json");
  REQUIRE(in);
  const nlohmann::json table = nlohmann::json::parse(in);
  REQUIRE(table.at("columns") == nlohmann::json({"size_kib", "aligned_ms",
                                                 "unaligned_ms", "gain_pct"}));
  const auto& rows = table.at("rows");
  REQUIRE(rows.size() == 13);
  for (const auto& row : rows) {
    const double aligned = row[1], unaligned = row[2], printed = row[3];
    INFO("size " << row[0].get<int>() << " KiB");
    CHECK(GainPct(unaligned, aligned) ==
          printed);  // bit for bit, as Java printed it
  }
}

TEST_CASE("GainPct sign: positive when aligning helps") {
  CHECK(GainPct(2.0, 1.0) == 100.0);
  CHECK(GainPct(1.0, 2.0) == -50.0);
  CHECK(GainPct(1.0, 1.0) == 0.0);
}
