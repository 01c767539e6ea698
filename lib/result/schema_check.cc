#include "lib/result/schema_check.h"

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <vector>

namespace alignbench {

extern const char kResultSchemaText[];  // generated: cmake/embed_schema.cmake

namespace {

using nlohmann::json;
using Violation = std::optional<SchemaBreak>;

// A value as an error shows it: a number or a string itself (cut short), else
// its JSON type.
std::string Found(const json& value) {
  if (value.is_number() || value.is_boolean() || value.is_null()) {
    return value.dump();
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    return "'" + (text.size() > 60 ? text.substr(0, 57) + "..." : text) + "'";
  }
  return std::string("an ") + (value.is_object() ? "object" : "array");
}

std::string Key(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

long double Number(const json& v) {
  if (v.is_number_unsigned())
    return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer())
    return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

bool IsInteger(const json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool HasType(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "number") return v.is_number();
  if (type == "integer") return IsInteger(v);
  return false;
}

std::size_t CodePoints(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

// An enum's values, the first few and the last of a long one.
std::string Listed(const json& values) {
  const std::size_t n = values.size();
  std::string list;
  for (std::size_t i = 0; i < n; ++i) {
    if (n > 10 && i == 4) {
      list += ", ...";
      i = n - 2;
      continue;
    }
    list += (list.empty() ? "" : ", ") + Found(values[i]);
  }
  return n > 10 ? list + " (" + std::to_string(n) + " values)" : list;
}

class Checker {
 public:
  explicit Checker(const json& root) : root_(root) {}
  Violation Check(const json& s, const json& v, const std::string& path);

 private:
  Violation Type(const json& s, const json& v, const std::string& path);
  Violation Values(const json& s, const json& v, const std::string& path);
  Violation Bounds(const json& s, const json& v, const std::string& path);
  Violation Text(const json& s, const json& v, const std::string& path);
  Violation Object(const json& s, const json& v, const std::string& path);
  Violation Members(const json& s, const json& v, const std::string& path);
  Violation Array(const json& s, const json& v, const std::string& path);
  Violation Logic(const json& s, const json& v, const std::string& path);
  Violation Alternatives(const json& s, const json& v, const std::string& path);
  static SchemaBreak Forbidden(const json& n, const json& v,
                               const std::string& path);
  static SchemaBreak NoneFits(const std::vector<SchemaBreak>& errors,
                              const std::string& path);
  const std::regex& Pattern(const std::string& pattern);

  const json& root_;
  std::map<std::string, std::regex> patterns_;
};

Violation Checker::Check(const json& s, const json& v,
                         const std::string& path) {
  if (s.is_boolean()) {
    if (s.get<bool>()) return std::nullopt;
    return SchemaBreak{path, "not allowed here"};
  }
  if (s.contains("$ref")) {
    const std::string ref = s.at("$ref").get<std::string>();
    const json& target = root_.at(json::json_pointer(ref.substr(1)));
    if (Violation bad = Check(target, v, path)) return bad;
  }
  using Step =
      Violation (Checker::*)(const json&, const json&, const std::string&);
  for (Step step : {&Checker::Type, &Checker::Values, &Checker::Bounds,
                    &Checker::Text, &Checker::Object, &Checker::Array,
                    &Checker::Logic, &Checker::Alternatives}) {
    if (Violation bad = (this->*step)(s, v, path)) return bad;
  }
  return std::nullopt;
}

Violation Checker::Type(const json& s, const json& v, const std::string& path) {
  if (!s.contains("type")) return std::nullopt;
  const json& type = s.at("type");
  const json types = type.is_array() ? type : json::array({type});
  for (const json& t : types) {
    if (HasType(v, t.get<std::string>())) return std::nullopt;
  }
  std::string wanted;
  for (const json& t : types) {
    wanted += (wanted.empty() ? "" : " or ") + t.get<std::string>();
  }
  return SchemaBreak{path, Found(v) + ", expected " + wanted};
}

Violation Checker::Values(const json& s, const json& v,
                          const std::string& path) {
  if (s.contains("const") && v != s.at("const")) {
    return SchemaBreak{path, Found(v) + ", expected " + Found(s.at("const"))};
  }
  if (s.contains("enum")) {
    for (const json& allowed : s.at("enum")) {
      if (v == allowed) return std::nullopt;
    }
    return SchemaBreak{path,
                       Found(v) + " is not one of " + Listed(s.at("enum"))};
  }
  return std::nullopt;
}

Violation Checker::Bounds(const json& s, const json& v,
                          const std::string& path) {
  if (!v.is_number()) return std::nullopt;
  const long double x = Number(v);
  const struct {
    const char* keyword;
    bool (*fails)(long double, long double);
    const char* words;
  } kBounds[] = {
      {"minimum", [](long double a, long double b) { return a < b; },
       "at least"},
      {"maximum", [](long double a, long double b) { return a > b; },
       "at most"},
      {"exclusiveMinimum", [](long double a, long double b) { return a <= b; },
       "more than"},
      {"exclusiveMaximum", [](long double a, long double b) { return a >= b; },
       "less than"},
  };
  for (const auto& bound : kBounds) {
    if (s.contains(bound.keyword) &&
        bound.fails(x, Number(s.at(bound.keyword)))) {
      return SchemaBreak{path, Found(v) + ", expected " + bound.words + " " +
                                   s.at(bound.keyword).dump()};
    }
  }
  return std::nullopt;
}

Violation Checker::Text(const json& s, const json& v, const std::string& path) {
  if (!v.is_string()) return std::nullopt;
  const std::string& text = v.get_ref<const std::string&>();
  const std::size_t length = CodePoints(text);
  if (s.contains("minLength") &&
      length < s.at("minLength").get<std::size_t>()) {
    return SchemaBreak{path, Found(v) + ", expected at least " +
                                 s.at("minLength").dump() + " character(s)"};
  }
  if (s.contains("maxLength") &&
      length > s.at("maxLength").get<std::size_t>()) {
    return SchemaBreak{path, Found(v) + ", expected at most " +
                                 s.at("maxLength").dump() + " characters"};
  }
  if (!s.contains("pattern")) return std::nullopt;
  if (length > kMaxPatternInput) {  // std::regex recurses once per character
    return SchemaBreak{path, Found(v) + ", expected at most " +
                                 std::to_string(kMaxPatternInput) +
                                 " characters to match a pattern"};
  }
  if (!std::regex_search(text, Pattern(s.at("pattern").get<std::string>()))) {
    // A pattern is hard to read: the field's own words come with it.
    const std::string words = s.value("description", std::string());
    return SchemaBreak{path, Found(v) + " does not match " +
                                 s.at("pattern").get<std::string>() +
                                 (words.empty() ? "" : " (" + words + ")")};
  }
  return std::nullopt;
}

const std::regex& Checker::Pattern(const std::string& pattern) {
  auto it = patterns_.find(pattern);
  if (it == patterns_.end()) {
    it = patterns_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript))
             .first;
  }
  return it->second;
}

Violation Checker::Object(const json& s, const json& v,
                          const std::string& path) {
  if (!v.is_object()) return std::nullopt;
  for (const json& key : s.value("required", json::array())) {
    if (!v.contains(key.get<std::string>())) {
      return SchemaBreak{Key(path, key.get<std::string>()), "missing"};
    }
  }
  if (s.contains("dependentRequired")) {
    for (const auto& [key, needed] : s.at("dependentRequired").items()) {
      if (!v.contains(key)) continue;
      for (const json& other : needed) {
        if (!v.contains(other.get<std::string>())) {
          return SchemaBreak{
              Key(path, other.get<std::string>()),
              "missing, which " + Key(path, key) + " needs beside it"};
        }
      }
    }
  }
  return Members(s, v, path);
}

// Each member against its property's schema, or additionalProperties'.
Violation Checker::Members(const json& s, const json& v,
                           const std::string& path) {
  const json none = json::object();
  const json& properties = s.contains("properties") ? s.at("properties") : none;
  for (const auto& [key, value] : v.items()) {
    if (properties.contains(key)) {
      if (Violation bad = Check(properties.at(key), value, Key(path, key))) {
        return bad;
      }
    } else if (s.contains("additionalProperties")) {
      const json& extra = s.at("additionalProperties");
      if (extra.is_boolean() && !extra.get<bool>()) {
        return SchemaBreak{Key(path, key), "unknown key"};
      }
      if (Violation bad = Check(extra, value, Key(path, key))) return bad;
    }
  }
  return std::nullopt;
}

Violation Checker::Array(const json& s, const json& v,
                         const std::string& path) {
  if (!v.is_array()) return std::nullopt;
  const std::size_t n = v.size();
  if (s.contains("minItems") && n < s.at("minItems").get<std::size_t>()) {
    return SchemaBreak{path, std::to_string(n) +
                                 " item(s), expected at least " +
                                 s.at("minItems").dump()};
  }
  if (s.contains("maxItems") && n > s.at("maxItems").get<std::size_t>()) {
    return SchemaBreak{path, std::to_string(n) + " items, expected at most " +
                                 s.at("maxItems").dump()};
  }
  const json prefix = s.value("prefixItems", json::array());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const json* item = i < prefix.size()     ? &prefix[i]
                       : s.contains("items") ? &s.at("items")
                                             : nullptr;
    if (item != nullptr) {
      if (Violation bad = Check(*item, v[i], at)) return bad;
    }
    for (std::size_t j = 0; s.value("uniqueItems", false) && j < i; ++j) {
      if (v[j] == v[i]) return SchemaBreak{at, Found(v[i]) + " twice"};
    }
  }
  return std::nullopt;
}

// allOf, not, and if/then/else.
Violation Checker::Logic(const json& s, const json& v,
                         const std::string& path) {
  for (const json& each : s.value("allOf", json::array())) {
    if (Violation bad = Check(each, v, path)) return bad;
  }
  if (s.contains("not") && !Check(s.at("not"), v, path)) {
    return Forbidden(s.at("not"), v, path);
  }
  if (!s.contains("if")) return std::nullopt;
  const char* branch = Check(s.at("if"), v, path) ? "else" : "then";
  if (!s.contains(branch)) return std::nullopt;
  const json& rule = s.at(branch);
  Violation bad = Check(rule, v, path);
  // The rule's own words say why: the branch's, else those of a node that is
  // only the rule (one with properties describes its object instead).
  const json& words = rule.is_object() && rule.contains("description") ? rule
                      : s.contains("properties") ? json::object()
                                                 : s;
  if (bad && words.contains("description")) {
    bad->what += " (" + words.at("description").get<std::string>() + ")";
  }
  return bad;
}

// What a `not` forbids: the key present where it forbids keys ({"required":
// [key]}, or anyOf such), else what it says of itself.
SchemaBreak Checker::Forbidden(const json& n, const json& v,
                               const std::string& path) {
  const json forms = n.contains("anyOf") ? n.at("anyOf") : json::array({n});
  for (const json& form : forms) {
    const json keys =
        form.is_object() ? form.value("required", json()) : json();
    if (keys.is_array() && keys.size() == 1 && form.size() == 1 &&
        v.is_object() && v.contains(keys[0].get<std::string>())) {
      return {Key(path, keys[0].get<std::string>()), "not allowed here"};
    }
  }
  const std::string what = n.contains("description")
                               ? n.at("description").get<std::string>()
                               : n.dump().substr(0, 120);
  return {path, "holds what the schema forbids here (" + what + ")"};
}

// anyOf and oneOf. Where none fits, the error that reached deepest says why;
// where all stop at the value itself, each form's is said.
Violation Checker::Alternatives(const json& s, const json& v,
                                const std::string& path) {
  for (const char* keyword : {"anyOf", "oneOf"}) {
    if (!s.contains(keyword)) continue;
    int fits = 0;
    std::vector<SchemaBreak> errors;
    for (const json& each : s.at(keyword)) {
      Violation bad = Check(each, v, path);
      fits += !bad;
      if (bad) errors.push_back(*bad);
    }
    if (fits == 0) return NoneFits(errors, path);
    if (fits > 1 && std::string(keyword) == "oneOf") {
      return SchemaBreak{path, Found(v) + " fits more than one of its forms"};
    }
  }
  return std::nullopt;
}

SchemaBreak Checker::NoneFits(const std::vector<SchemaBreak>& errors,
                              const std::string& path) {
  for (const SchemaBreak& e : errors) {
    if (e.path != path) return e;
  }
  SchemaBreak all{path, ""};
  for (const SchemaBreak& e : errors) {
    all.what += (all.what.empty() ? "" : "; or ") + e.what;
  }
  return all;
}

void CollectUnknown(const json& s, std::optional<std::string>& unknown) {
  static const std::set<std::string> kKnown = {"type",
                                               "enum",
                                               "const",
                                               "minimum",
                                               "maximum",
                                               "exclusiveMinimum",
                                               "exclusiveMaximum",
                                               "minLength",
                                               "maxLength",
                                               "pattern",
                                               "properties",
                                               "required",
                                               "additionalProperties",
                                               "dependentRequired",
                                               "items",
                                               "prefixItems",
                                               "minItems",
                                               "maxItems",
                                               "uniqueItems",
                                               "$ref",
                                               "allOf",
                                               "anyOf",
                                               "oneOf",
                                               "not",
                                               "if",
                                               "then",
                                               "else",
                                               "description",
                                               "title",
                                               "$schema",
                                               "$id",
                                               "$defs",
                                               "$comment",
                                               "examples",
                                               "default"};
  if (!s.is_object() || unknown) return;
  if (s.contains("pattern") &&
      s.value("maxLength", kMaxPatternInput + 1) > kMaxPatternInput) {
    unknown = "pattern without a maxLength of at most " +
              std::to_string(kMaxPatternInput);
    return;
  }
  for (const auto& [key, value] : s.items()) {
    if (kKnown.count(key) == 0) unknown = key;
    if (key == "properties" || key == "$defs") {
      for (const auto& [name, sub] : value.items())
        CollectUnknown(sub, unknown);
    } else if (key == "prefixItems" || key == "allOf" || key == "anyOf" ||
               key == "oneOf") {
      for (const json& sub : value) CollectUnknown(sub, unknown);
    } else if (key == "items" || key == "not" || key == "if" || key == "then" ||
               key == "else" || key == "additionalProperties") {
      CollectUnknown(value, unknown);
    }
  }
}

}  // namespace

const json& ResultSchema() {
  static const json schema = json::parse(kResultSchemaText);
  return schema;
}

std::optional<SchemaBreak> SchemaViolation(const json& schema,
                                           const json& document,
                                           const std::string& root_path,
                                           const std::string& part) {
  Checker checker(schema);
  return checker.Check(schema.at(json::json_pointer(part)), document,
                       root_path);
}

std::optional<std::string> UnknownKeyword(const json& schema) {
  std::optional<std::string> unknown;
  CollectUnknown(schema, unknown);
  return unknown;
}

}  // namespace alignbench
