#include "lib/result/log_settings_json.h"

#include <catch2/catch.hpp>

#include "lib/pairs/log_case.h"
#include "lib/result/result_json.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("settings.log and per_commit survive the JSON round trip") {
  Report r = testing::FixedReport();
  r.settings.log =
      testing::FromCase(R"({"log": {"header": 24, "block": "8K"}})").log;
  const nlohmann::json j = ToJson(r);
  CHECK(j["settings"]["log"]["block_bytes"] == 8192);
  CHECK(j["settings"]["log"]["labels"]["aligned"] == "aligned");
  CHECK(j["pairs"][0]["per_commit"]["unaligned"]["written_bytes"] ==
        PerCommit(r.settings, r.pairs[0].spec, Variant::kUnaligned).written);
  Result<Report> back = FromJson(nlohmann::json::parse(j.dump()), "rt");
  REQUIRE(back.ok());
  REQUIRE(back.value().settings.log);
  CHECK(back.value().settings.log->rules.block == 8192);
  CHECK(ToJson(back.value()) == j);

  nlohmann::json nested = j;
  nested["settings"]["log"]["pad_bytes"] = nlohmann::json::array({1});
  CHECK_FALSE(FromJson(nested, "n").ok());
  nlohmann::json unknown = j;
  unknown["settings"]["log"]["tilt_bytes"] = 1;
  CHECK_FALSE(FromJson(unknown, "u").ok());
}

TEST_CASE("The printers' words of a log case are written and read back") {
  Report r = testing::FixedReport();
  r.settings.log =
      testing::FromCase(R"({"log": {"contrast": "pad", "aligned": "4K"}})").log;
  RecordForPrinters(r);
  nlohmann::json j = ToJson(r);
  const nlohmann::json& log = j["settings"]["log"];
  CHECK(log["labels"]["aligned"] == "padded");
  CHECK(log["rules_text"] == WordsOf(r.settings).rules);
  CHECK(log["contrast_meaning"] == WordsOf(r.settings).contrast_meaning);

  // What was recorded is what is read, even where today's rules would say
  // otherwise.
  j["settings"]["log"]["labels"]["aligned"] = "padded then";
  j["settings"]["log"]["rules_text"] = "log rules: as they were";
  Result<Report> back = FromJson(j, "words");
  REQUIRE(back.ok());
  REQUIRE(back.value().log_words);
  CHECK(back.value().log_words->aligned_label == "padded then");
  CHECK(back.value().log_words->rules == "log rules: as they were");

  j["settings"]["log"]["rules_text"] = 3;
  CHECK_FALSE(FromJson(j, "bad").ok());
}
