// The one table of environment facts (host, target directory, device): each
// field's JSON key, how `env` prints it, its name in a comparison, and how to
// get and set it on a TargetInfo. The writer, the reader, `env`'s printer and
// `compare` all walk this table; tests/unit/env_fields_test.cc holds the JSON
// Schema to it. A new probed fact is one line here (and one in the schema).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "lib/env/probe.h"

namespace alignbench {

// The object of the result file's "environment" a field lives in: host,
// target, or target.device.
enum class EnvSection { kHost, kTarget, kDevice };

// The JSON type of a field: a string, true/false, or a non-negative integer.
enum class FieldKind { kText, kYesNo, kCount };

// How `env` prints a field: always ("unknown" when it is), only when known
// (absent means "does not apply", e.g. a loop device's backing file), or never
// (the directory as given is in the title line already).
enum class Printed { kAlways, kIfKnown, kNever };

// Whether `compare` lists a difference in this field. Facts that differ
// between any two directories (paths, mount points) would drown the ones
// that explain a different result.
enum class Compared { kYes, kNo };

// An unknown fact is monostate, never a made-up value.
using FieldValue =
    std::variant<std::monostate, std::string, bool, std::uint64_t>;

struct EnvField {
  EnvSection section;
  // Key in the section's JSON object.
  const char* key;
  // Printed by `env` under its section's heading.
  const char* label;
  // Stands alone in compare's list of differing fields.
  const char* name;
  FieldKind kind;
  // Required keys (dir, disk) are plain strings, always present.
  bool required;
  Printed printed;
  Compared compared;
  // Monostate when unknown, or when the section (a device) is absent.
  FieldValue (*get)(const TargetInfo&);
  // Creates the device when the field is a device's. False when the value
  // does not fit the field (a count beyond the member's range, another kind).
  bool (*set)(TargetInfo&, const FieldValue&);
};

// Every field, in the order `env` prints them.
const std::vector<EnvField>& EnvFields();

// "host", "target", "device".
const char* SectionKey(EnvSection section);

// "unknown", "yes"/"no", the number, or the text (not escaped).
std::string FieldText(const FieldValue& value);

}  // namespace alignbench
