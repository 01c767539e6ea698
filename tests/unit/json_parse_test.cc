// lib/base/json_parse.h: strict parsing refuses duplicate keys with the line of
// the second one, and WholeNumber reads JSON Schema's integers.
#include "lib/base/json_parse.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

using namespace alignbench;

TEST_CASE("json_parse: a valid document parses as nlohmann reads it") {
  const auto parsed = ParseJsonStrict(R"({"a": 1, "b": {"c": [1, 2]}})");
  REQUIRE(parsed);
  CHECK(parsed.value()["a"] == 1);
  CHECK(parsed.value()["b"]["c"].size() == 2);
  // The same key in two different objects is not a duplicate.
  CHECK(ParseJsonStrict(R"({"a": {"x": 1}, "b": {"x": 2}})"));
  CHECK(ParseJsonStrict(R"([{"x": 1}, {"x": 2}])"));
}

TEST_CASE("json_parse: invalid JSON is a usage error") {
  for (const char* text : {"", "{", "{\"a\": }", "[1, 2", "nul"}) {
    CAPTURE(text);
    const auto parsed = ParseJsonStrict(text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().kind == ErrorKind::kUsage);
    CHECK(parsed.error().detail == "not valid JSON");
  }
}

TEST_CASE("json_parse: a duplicate key is refused with the line it is on") {
  const std::string text =
      "{\n"
      "  \"writes\": 1,\n"
      "  \"sizes\": [4096],\n"
      "  \"writes\": 2\n"
      "}\n";
  const auto parsed = ParseJsonStrict(text);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().kind == ErrorKind::kUsage);
  CHECK(parsed.error().detail.find("duplicate key 'writes'") !=
        std::string::npos);
  CHECK(parsed.error().detail.find("(line 4)") != std::string::npos);

  const auto nested = ParseJsonStrict("{\"o\": {\"k\": 1,\n\"k\": 2}}");
  REQUIRE_FALSE(nested);
  CHECK(nested.error().detail.find("'k'") != std::string::npos);
  CHECK(nested.error().detail.find("(line 2)") != std::string::npos);
}

TEST_CASE("json_parse: WholeNumber takes whole non-negative numbers only") {
  using nlohmann::json;
  CHECK(WholeNumber(json(4096)) == std::uint64_t{4096});
  CHECK(WholeNumber(json(0)) == std::uint64_t{0});
  CHECK(WholeNumber(json::parse("4096.0")) == std::uint64_t{4096});
  CHECK(WholeNumber(json(std::numeric_limits<std::uint64_t>::max())) ==
        std::numeric_limits<std::uint64_t>::max());
  CHECK_FALSE(WholeNumber(json(4096.5)).has_value());
  CHECK_FALSE(WholeNumber(json(-1)).has_value());
  CHECK_FALSE(WholeNumber(json(-1.0)).has_value());
  CHECK_FALSE(WholeNumber(json::parse("18446744073709551616")).has_value());
  CHECK_FALSE(WholeNumber(json("4096")).has_value());
  CHECK_FALSE(WholeNumber(json(true)).has_value());
  CHECK_FALSE(WholeNumber(json(nullptr)).has_value());
  CHECK_FALSE(WholeNumber(json::array({1})).has_value());
}
