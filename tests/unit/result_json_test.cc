#include "lib/result/result_json.h"

#include <catch2/catch.hpp>
#include <functional>

#include "lib/render/table.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("A report survives the JSON round trip") {
  const Report original = testing::FixedReport();
  const nlohmann::json j = ToJson(original);
  CHECK(j.at("schema_version") == kSchemaVersion);
  CHECK(j.at("pairs").size() == 2);
  CHECK(j.at("pairs")[0].at("unaligned").at("write_sync").at("mean_ns") ==
        Approx(18.359375e6));
  // Through text, as a file would be.
  const Result<Report> back =
      FromJson(nlohmann::json::parse(j.dump()), "round trip");
  if (!back) FAIL(back.error().Message());
  CHECK(ToJson(back.value()) == j);
  // And what people read is the same.
  for (Format f :
       {Format::kTable, Format::kDerby, Format::kMarkdown, Format::kCsv}) {
    std::ostringstream a, b;
    Render(a, original, f);
    Render(b, back.value(), f);
    CHECK(a.str() == b.str());
  }
}

TEST_CASE("Unknown facts are absent, not zero") {
  Report r = testing::FixedReport();
  r.target.device.reset();
  r.target.no_device_reason = "no block device under this directory (tmpfs)";
  r.pairs[0].unaligned.device.reset();
  const nlohmann::json j = ToJson(r);
  CHECK(j.at("environment").at("target").at("device").is_null());
  CHECK(j.at("environment").at("target").at("device_unavailable_reason") ==
        r.target.no_device_reason);
  CHECK_FALSE(j.at("pairs")[0].at("unaligned").contains("device_per_write"));
  CHECK_FALSE(j.at("environment").at("host").contains("hostname"));
}

TEST_CASE("FromJson refuses what is not ours or too new") {
  nlohmann::json j = ToJson(testing::FixedReport());
  j["schema_version"] = kSchemaVersion + 1;
  auto newer = FromJson(j, "new.json");
  REQUIRE_FALSE(newer.ok());
  CHECK_THAT(newer.error().Message(),
             Catch::Contains("newer than this alignbench"));

  auto broken = FromJson(nlohmann::json{{"schema_version", 1}}, "x.json");
  REQUIRE_FALSE(broken.ok());
  CHECK_THAT(broken.error().Message(),
             Catch::Contains("x.json: not an alignbench result"));

  nlohmann::json bad_value = ToJson(testing::FixedReport());
  bad_value["pairs"][0]["sync"] = "fsink";
  CHECK_FALSE(FromJson(bad_value, "y.json").ok());
  CHECK_FALSE(FromJson(nlohmann::json::array(), "z.json").ok());
}

TEST_CASE("A version 2 result is read as its schema reads it") {
  const nlohmann::json good = ToJson(testing::FixedReport());
  REQUIRE(FromJson(good, "r.json"));
  auto refused = [&good](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j);
    const Result<Report> r = FromJson(j, "r.json");
    return r.ok() ? std::string() : r.error().Message();
  };
  using nlohmann::json;
  CHECK_THAT(refused([](json& j) { j["pairs"][0]["colour"] = "blue"; }),
             Catch::Contains("pairs[0].colour': unknown key"));
  CHECK_THAT(refused([](json& j) { j["pairs"][0]["gain_pct"] = nullptr; }),
             Catch::Contains("pairs[0].gain_pct': null"));
  CHECK_THAT(refused([](json& j) {
               j["pairs"][0]["unaligned"]["repetitions"] = 0;
               j["pairs"][0]["unaligned"].erase("runs");
             }),
             Catch::Contains("0 repetitions was not measured"));
  CHECK_THAT(refused([](json& j) {
               j["complete"] = false;
               j["errors"] = json::array();
             }),
             Catch::Contains("an incomplete run says why"));
  CHECK_THAT(refused([](json& j) { j["schema_version"] = 0; }),
             Catch::Contains("0 is no version"));
  CHECK(refused([](json& j) { j["schema_version"] = 2.0; }).empty());
  // A version 1 file was written before the schema: read as it always was.
  CHECK(refused([](json& j) {
          j["schema_version"] = 1;
          j["pairs"][0]["colour"] = "blue";
        }).empty());
}

TEST_CASE(
    "The result says how alignbench itself was built, beside the library's "
    "claim") {
  Report r = testing::FixedReport();
  r.build_type = "Release";
  const nlohmann::json j = ToJson(r);
  CHECK(j.at("tool").at("build_type") == "Release");
  const Result<Report> back = FromJson(j, "test");
  REQUIRE(back);
  CHECK(back.value().build_type == "Release");
  std::ostringstream markdown;
  Render(markdown, r, Format::kMarkdown);
  CHECK_THAT(
      markdown.str(),
      Catch::StartsWith("**alignbench 0.1.0** (abcdef123456, Release build)"));
  // A file from before it was recorded reads without it.
  nlohmann::json old = j;
  old["tool"].erase("build_type");
  REQUIRE(FromJson(old, "test"));
  CHECK_FALSE(FromJson(old, "test").value().build_type);
}
