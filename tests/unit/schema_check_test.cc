// Result files held to the schema the tree ships, compiled in.
#include "lib/result/schema_check.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "lib/stats/compare.h"

using namespace alignbench;
using nlohmann::json;

namespace {

json Load(const std::string& relative) {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR + ("/" + relative));
  REQUIRE(in);
  return json::parse(in);
}

}  // namespace

TEST_CASE(
    "The compiled-in schema is the shipped one, and knows every keyword") {
  CHECK(ResultSchema() == Load("results/schema/alignbench-result.schema.json"));
  CHECK(UnknownKeyword(ResultSchema()) == std::nullopt);
  CHECK(UnknownKeyword(json::parse(
            R"({"properties": {"a": {"format": "date"}}})")) == "format");
}

TEST_CASE("Each keyword refuses what it should, with the path") {
  const json schema = json::parse(R"({
    "$defs": {"size": {"type": "integer", "minimum": 512}},
    "type": "object", "required": ["size"], "additionalProperties": false,
    "properties": {
      "size": {"$ref": "#/$defs/size"},
      "day": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
              "maxLength": 10},
      "cache": {"enum": ["write back", "write through"]},
      "list": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0},
               "minItems": 1, "uniqueItems": true},
      "why": {"type": "string", "minLength": 1}},
    "dependentRequired": {"day": ["cache"]},
    "if": {"required": ["list"]}, "then": {"not": {"required": ["why"],
      "description": "a list and a why together"}}})");
  auto bad = [&](const char* text) {
    const auto broken = SchemaViolation(schema, json::parse(text), "doc");
    return broken ? broken->path + ": " + broken->what : std::string("ok");
  };
  CHECK(bad(R"({"size": 4096})") == "ok");
  CHECK(bad(R"({"size": 4096.0})") == "ok");  // JSON Schema's integer
  CHECK(bad(R"({})") == "doc.size: missing");
  CHECK(bad(R"({"size": 511})") == "doc.size: 511, expected at least 512");
  CHECK(bad(R"({"size": 1.5})") == "doc.size: 1.5, expected integer");
  CHECK(bad(R"({"size": 4096, "x": 1})") == "doc.x: unknown key");
  CHECK(bad(R"({"size": 4096, "day": "2026-1-4", "cache": "write back"})") ==
        "doc.day: '2026-1-4' does not match ^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
  CHECK(bad(R"({"size": 4096, "day": "2026-01-04"})") ==
        "doc.cache: missing, which doc.day needs beside it");
  CHECK(bad(R"({"size": 4096, "cache": "on"})") ==
        "doc.cache: 'on' is not one of 'write back', 'write through'");
  CHECK(bad(R"({"size": 4096, "list": [1, 0]})") ==
        "doc.list[1]: 0, expected more than 0");
  CHECK(bad(R"({"size": 4096, "list": [2, 2]})") == "doc.list[1]: 2 twice");
  CHECK(bad(R"({"size": 4096, "list": []})") ==
        "doc.list: 0 item(s), expected at least 1");
  CHECK(bad(R"({"size": 4096, "why": ""})") ==
        "doc.why: '', expected at least 1 character(s)");
  CHECK(bad(R"({"size": 4096, "list": [1], "why": "x"})") ==
        "doc: holds what the schema forbids here (a list and a why together)");
}

TEST_CASE("A pattern is matched only on text its maxLength allows") {
  // std::regex recurses once per character: a megabyte of text against a
  // pattern ends the process, so the schema must bound every pattern's text.
  CHECK(UnknownKeyword(json::parse(R"({"pattern": "^[^/]+$"})")) ==
        "pattern without a maxLength of at most 1024");
  CHECK(UnknownKeyword(
            json::parse(R"({"pattern": "^[^/]+$", "maxLength": 5000})")) ==
        "pattern without a maxLength of at most 1024");
  CHECK(UnknownKeyword(json::parse(
            R"({"pattern": "^[^/]+$", "maxLength": 255})")) == std::nullopt);
  const json schema = json::parse(R"({"pattern": "^[^/]+$"})");
  const auto broken =
      SchemaViolation(schema, json(std::string(1 << 20, 'a')), "name");
  REQUIRE(broken);
  CHECK(broken->what.find("expected at most 1024 characters to match a "
                          "pattern") != std::string::npos);
}

TEST_CASE("One definition of a schema, by its JSON pointer") {
  const json schema = json::parse(R"({
    "$defs": {"size": {"type": "integer", "minimum": 512},
              "pair": {"type": "object",
                       "properties": {"size": {"$ref": "#/$defs/size"}}}},
    "type": "array"})");
  const auto broken = SchemaViolation(schema, json::parse(R"({"size": 1})"),
                                      "pairs[0]", "/$defs/pair");
  REQUIRE(broken);
  CHECK(broken->path == "pairs[0].size");
  CHECK(broken->what == "1, expected at least 512");
  CHECK(SchemaViolation(schema, json::parse(R"({"size": 4096})"), "",
                        "/$defs/pair") == std::nullopt);
}

TEST_CASE("Every shipped result of the schema's version keeps it") {
  int checked = 0;
  for (const char* file :
       {"results/vm-loop/cold-rmw-ext4-4k.json",
        "results/reference/derby-2004-suresh-windows2000.json",
        "results/reference/derby-2005-jan-linux-raid1-cache-off.json"}) {
    INFO(file);
    const json doc = Load(file);
    if (doc.at("alignbench").value("schema_version", 0) != 2) continue;
    ++checked;
    const auto broken = SchemaViolation(ResultSchema(), doc);
    CHECK((broken ? broken->path + ": " + broken->what : "") == "");
  }
  CHECK(checked >= 2);
}

// The verdict's rules are said once for a reader, in the schema: show and
// compare hold a file to it and check them nowhere else. Their numbers are
// the measurement's, so that a change to kMinRunsForVerdict or the level
// fails here, naming the schema as the other place to change.
TEST_CASE("schema: a decided verdict's runs and p are the measurement's") {
  int rules = 0;
  for (const json& rule : ResultSchema()["$defs"]["pair"]["allOf"]) {
    const json& then = rule.value("then", json::object());
    if (!then.contains("properties") || !then["properties"].contains("p_value"))
      continue;
    ++rules;
    const json& p = then["properties"];
    for (const char* variant : {"unaligned", "aligned"}) {
      CHECK(p[variant]["properties"]["repetitions"]["minimum"].get<double>() ==
            kMinRunsForVerdict);
    }
    const json& p_value = p["p_value"];
    const double level =
        p_value.value("exclusiveMaximum", p_value.value("minimum", -1.0));
    CHECK(level == Approx(kSignificanceLevel).margin(1e-12));
  }
  CHECK(rules == 3);  // aligned, unaligned, no significant difference
}
