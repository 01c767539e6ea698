// A document held to a JSON Schema: the keywords of draft 2020-12 that the
// result schema (results/schema/alignbench-result.schema.json, compiled in)
// uses, walked over the schema itself, so that show and compare accept exactly
// what the schema accepts and a new field is one change, in the schema.
// Keywords: type, enum, const, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, minLength, maxLength, pattern, properties, required,
// additionalProperties, dependentRequired, items, prefixItems, minItems,
// maxItems, uniqueItems, $ref (#/$defs/...), allOf, anyOf, oneOf, not, if,
// then, else. Annotations (description, title, $id, ...) are ignored; any
// other keyword is refused when the schema is loaded, not skipped.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace alignbench {

// The result schema, parsed once.
const nlohmann::json& ResultSchema();

// Where a document breaks a schema, and how: path "alignbench.pairs[0].
// verdict", what "'maybe' is not one of ...".
struct SchemaBreak {
  std::string path;
  std::string what;
};

// The first place where `document` breaks the part of `schema` at the JSON
// pointer `part` ("" the whole, "/$defs/alignbench" one definition), or
// nothing where it keeps it; `root_path` starts every path.
std::optional<SchemaBreak> SchemaViolation(const nlohmann::json& schema,
                                           const nlohmann::json& document,
                                           const std::string& root_path = "",
                                           const std::string& part = "");

// The longest text a pattern is matched on (std::regex recurses once per
// character); every pattern of a schema comes with a maxLength within it.
inline constexpr std::size_t kMaxPatternInput = 1024;

// A keyword of `schema` that SchemaViolation does not know, or a pattern
// without its maxLength, or nothing: the schema may not say what the reader
// would not hold a file to.
std::optional<std::string> UnknownKeyword(const nlohmann::json& schema);

}  // namespace alignbench
