// The environment field table against the JSON Schema: every field is a
// property of its section with the JSON type its kind says, every property of
// a section is a field (or the device's null/reason pair), and a key is
// required in the schema exactly when the table says so. A field added to
// one and not the other fails here.
#include "lib/result/env_fields.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "lib/result/result_json.h"
#include "tests/unit/report_fixture.h"

namespace alignbench {
namespace {

using nlohmann::json;

json LoadSchema() {
  std::ifstream in(std::string(ALIGNBENCH_SOURCE_DIR) +
                   "/results/schema/alignbench-result.schema.json");
  REQUIRE(in.good());
  return json::parse(in);
}

// The schema object that describes one section's object.
const json& SectionSchema(const json& schema, EnvSection section) {
  const json& environment = schema.at("$defs").at("environment");
  switch (section) {
    case EnvSection::kHost:
      return environment.at("properties").at("host");
    case EnvSection::kTarget:
      return environment.at("properties").at("target");
    case EnvSection::kDevice:
      return schema.at("$defs").at("device");
  }
  FAIL("unknown section");
  return schema;
}

// An enum of strings is a string as well.
std::string JsonType(const json& property) {
  if (property.contains("type")) return property.at("type");
  if (property.contains("enum") && property.at("enum").at(0).is_string()) {
    return "string";
  }
  return "?";
}

const char* ExpectedType(FieldKind kind) {
  switch (kind) {
    case FieldKind::kText:
      return "string";
    case FieldKind::kYesNo:
      return "boolean";
    case FieldKind::kCount:
      return "integer";
  }
  return "?";
}

bool Required(const json& section, const std::string& key) {
  if (!section.contains("required")) return false;
  for (const json& name : section.at("required")) {
    if (name == key) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Every environment field is in the schema, with its type") {
  const json schema = LoadSchema();
  for (const EnvField& field : EnvFields()) {
    const json& section = SectionSchema(schema, field.section);
    INFO(SectionKey(field.section) << "." << field.key);
    REQUIRE(section.at("properties").contains(field.key));
    CHECK(JsonType(section.at("properties").at(field.key)) ==
          ExpectedType(field.kind));
    CHECK(Required(section, field.key) == field.required);
  }
}

TEST_CASE("Every property of the schema's environment is a field") {
  const json schema = LoadSchema();
  // The target's device object and the reason it is null are structure, not
  // probed facts.
  const std::set<std::string> structure = {"device",
                                           "device_unavailable_reason"};
  for (EnvSection section :
       {EnvSection::kHost, EnvSection::kTarget, EnvSection::kDevice}) {
    for (const auto& [key, property] :
         SectionSchema(schema, section).at("properties").items()) {
      INFO(SectionKey(section) << "." << key);
      if (section == EnvSection::kTarget && structure.count(key)) continue;
      bool found = false;
      for (const EnvField& field : EnvFields()) {
        found = found || (field.section == section && key == field.key);
      }
      CHECK(found);
    }
  }
}

TEST_CASE("Every environment field survives a JSON round trip") {
  const json schema = LoadSchema();
  TargetInfo t;
  std::uint64_t n = 1;
  for (const EnvField& field : EnvFields()) {
    // A word of the schema's enum where it has one (the write cache's).
    const json property = SectionSchema(schema, field.section)
                              .at("properties")
                              .value(field.key, json::object());
    FieldValue value;
    switch (field.kind) {
      case FieldKind::kText:
        value = property.contains("enum")
                    ? property.at("enum").at(0).get<std::string>()
                    : std::string(field.key) + "-value";
        break;
      case FieldKind::kYesNo:
        value = (n % 2 == 0);
        break;
      case FieldKind::kCount:
        value = n;
        break;
    }
    ++n;
    REQUIRE(field.set(t, value));
  }
  // statx's atomic write units are powers of two, the smallest first: the
  // reader refuses others.
  t.atomic_write_unit_min = 512;
  t.atomic_write_unit_max = 65536;
  Report report = testing::FixedReport();  // a valid result has pairs
  report.target = t;
  const json written = EnvironmentJson(t);
  json whole = ToJson(report);
  whole["environment"] = written;
  Result<Report> read = FromJson(whole, "test");
  if (!read) FAIL(read.error().Message());
  for (const EnvField& field : EnvFields()) {
    INFO(field.key);
    CHECK(field.get(read.value().target) == field.get(t));
  }
}

TEST_CASE("A count beyond its member's range is refused, not wrapped") {
  TargetInfo t;
  for (const EnvField& field : EnvFields()) {
    if (std::string(field.key) != "cpus") continue;
    CHECK_FALSE(field.set(t, FieldValue{std::uint64_t{1} << 40}));
    CHECK(field.set(t, FieldValue{std::uint64_t{8}}));
    CHECK(FieldText(field.get(t)) == "8");
  }
}

}  // namespace alignbench
