// lib/result/result_fields.h against the schema: each field table and the keys
// of its object that are written and read by hand (listed here) name exactly
// the properties of its object in the schema, and of the table's, a field the
// file always has is a required one and a field it may lack is not. A key
// added to a table and not to the schema (or the other way round) fails here,
// naming both.
#include "lib/result/result_fields.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <tuple>

#include "lib/result/schema_check.h"

using namespace alignbench;
using nlohmann::json;

namespace {

template <typename Fields>
void HoldToSchema(const Fields& fields, const std::string& pointer,
                  const std::set<std::string>& by_hand = {}) {
  INFO("the schema's " << pointer << " against its field table");
  const json& object = ResultSchema().at(json::json_pointer(pointer));
  std::set<std::string> table, always, maybe;
  ForEachField(fields, [&](const auto& field) {
    CHECK(table.insert(field.key).second);
    CHECK(by_hand.count(field.key) == 0);
    if (field.presence == Presence::kAlways) always.insert(field.key);
    if (field.presence == Presence::kDefaulted) maybe.insert(field.key);
  });
  std::set<std::string> properties, required;
  for (const auto& [key, value] : object.at("properties").items()) {
    properties.insert(key);
  }
  for (const json& key : object.value("required", json::array())) {
    if (table.count(key.get<std::string>())) {
      required.insert(key.get<std::string>());
    }
  }
  std::set<std::string> named = table;
  named.insert(by_hand.begin(), by_hand.end());
  CHECK(named == properties);
  for (const std::string& key : maybe) required.erase(key);
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
  HoldToSchema(RoundsFields(), "/$defs/pair/properties/rounds");
  HoldToSchema(ReplayVariantFields(), "/$defs/replay_variant");
  HoldToSchema(ReplayProgramFields(),
               "/$defs/settings/properties/replay/properties/program");
  HoldToSchema(CaseFields(), "/$defs/settings/properties/case");
}

// Objects that also hold objects or derived values: the table's keys and
// those written and read by hand are the schema's, each once.
TEST_CASE("result fields: a table and the keys beside it are the schema's") {
  HoldToSchema(ToolFields(), "/$defs/tool", {"name"});
  HoldToSchema(ReportFields(), "/$defs/alignbench",
               {"schema_version", "tool", "settings", "environment", "pairs",
                "statistics", "reference", "device_account", "unit"});
  HoldToSchema(StatisticsFields(), "/$defs/alignbench/properties/statistics",
               {"confidence_level", "rerun_significance_level", "interval",
                "test", "verdict"});
  // A pair's object: its spec's table and its own.
  HoldToSchema(
      std::tuple_cat(PairSpecFields(), PairFields()), "/$defs/pair",
      {"shift_bytes", "unaligned", "aligned", "mechanisms", "gain_pct",
       "means_gain_pct", "medians_gain_pct", "median_gain_pct",
       "gain_interval_pct", "p_value", "no_interval_reason", "cross_check",
       "tail_gain", "verdict", "verdict_reason", "per_commit", "rounds"});
  HoldToSchema(
      VariantFields(), "/$defs/variant",
      {"runs", "write_sync", "write", "sync", "histograms", "device_per_write",
       "device_background_per_write", "device_requests", "process_per_write",
       "file_placement", "error"});
  HoldToSchema(ReplayFields(), "/$defs/settings/properties/replay",
               {"program", "variants"});
}
