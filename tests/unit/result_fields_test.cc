// lib/result/result_fields.h against the schema: each field table names
// exactly the properties of its object in the schema, and a field the file
// always has is exactly a required one. A key added to a table and not to the
// schema (or the other way round) fails here, naming both.
#include "lib/result/result_fields.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "lib/result/schema_check.h"

using namespace alignbench;
using nlohmann::json;

namespace {

template <typename Fields>
void HoldToSchema(const Fields& fields, const std::string& pointer) {
  INFO("the schema's " << pointer << " against its field table");
  const json& object = ResultSchema().at(json::json_pointer(pointer));
  std::set<std::string> table, always;
  ForEachField(fields, [&](const auto& field) {
    table.insert(field.key);
    if (field.presence == Presence::kAlways) always.insert(field.key);
  });
  std::set<std::string> properties, required;
  for (const auto& [key, value] : object.at("properties").items()) {
    properties.insert(key);
  }
  for (const json& key : object.value("required", json::array())) {
    required.insert(key.get<std::string>());
  }
  CHECK(table == properties);
  CHECK(always == required);
  CHECK(object.value("additionalProperties", true) == false);
}

}  // namespace

TEST_CASE("result fields: every table is its object in the schema") {
  HoldToSchema(SummaryFields(), "/$defs/summary");
  HoldToSchema(DevicePerOpFields(), "/$defs/device_per_write");
  HoldToSchema(ProcessPerOpFields(), "/$defs/process_per_write");
  HoldToSchema(CommitBytesFields(), "/$defs/commit_bytes");
  HoldToSchema(RunPointFields(), "/$defs/variant/properties/runs/items");
  HoldToSchema(PlacementFields(), "/$defs/variant/properties/file_placement");
  HoldToSchema(ReferenceFields(), "/$defs/alignbench/properties/reference");
  HoldToSchema(DeviceAccountFields(),
               "/$defs/alignbench/properties/device_account");
}
