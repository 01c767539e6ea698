// The one table of the settings a plan is made of. Each row gives
// an option its command-line name, case-file key, key in a result's
// "settings", help text, and the field of Settings it sets, typed: the type
// brings the parser, the bounds, the JSON record and the printed form. The
// command line, case files, --help, Validate, the result writer and reader and
// `compare` all read this table, so adding an option is one row.
//
// One parser per type serves every source: a command-line word arrives as a
// JSON string, so a count may be 128 in a case file and "128" on the command
// line, and a list may be ["fsync", "none"] or "fsync,none".
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lib/config/settings.h"

namespace alignbench {

// The types of option values. Each names its field and its bounds.
namespace field {
// A whole number within [min, max].
struct Count {
  std::uint64_t Settings::*member;
  std::uint64_t min;
  std::uint64_t max;
};
// A whole number within [0, max], or unset.
struct OptionalCount {
  std::optional<std::uint64_t> Settings::*member;
  std::uint64_t max;
};
// A real number within [min, max], in `unit` ("points").
struct Number {
  double Settings::*member;
  double min;
  double max;
  std::string_view unit;
};
// A real number above 0 and at most max, in `unit`, or unset.
struct OptionalNumber {
  std::optional<double> Settings::*member;
  double max;
  std::string_view unit;
};
// A byte size ("4K" or 4096) within [0, max].
struct Bytes {
  std::uint64_t Settings::*member;
  std::uint64_t max;
};
// A list of distinct byte sizes, each within [min, max], at most max_count,
// each a `noun` in errors. With one_as_number a list of one is recorded as a
// plain number, and a plain number is read as a list of one: a setting that
// took one value before it took several reads and writes as it did.
struct SizeList {
  std::vector<std::uint64_t> Settings::*member;
  std::uint64_t max;
  std::size_t max_count;
  std::uint64_t min = 1;
  bool one_as_number = false;
  std::string_view noun = "size";
};
// A string of at most max_bytes bytes; `why_max` says why, if not obvious.
struct Text {
  std::string Settings::*member;
  std::size_t max_bytes;
  std::string_view why_max = "";
};
// One or more distinct names from a table; `may_be_empty` allows [].
template <typename E>
struct Names {
  std::vector<E> Settings::*member;
  NameTable<E> table;
  bool may_be_empty = false;
};
// Exactly one name from a table.
template <typename E>
struct Name {
  E Settings::*member;
  NameTable<E> table;
};
// A key that documents the case and sets nothing.
struct Note {};
}  // namespace field

using OptionField =
    std::variant<field::Count, field::OptionalCount, field::Number,
                 field::OptionalNumber, field::Bytes, field::SizeList,
                 field::Text, field::Names<SyncMethod>, field::Names<IoMode>,
                 field::Names<Layout>, field::Names<CacheState>,
                 field::Names<Requirement>, field::Name<DirectUnaligned>,
                 field::Name<AtomicWrites>, field::Note>;

// Whether and how a result records an option in its "settings".
enum class Recorded {
  kNo,
  // Always written; a result without it is refused.
  kAlways,
  // Written when set or added after schema 1: a result may lack it.
  kOptional,
};

struct Option {
  // --name on the command line; empty: case files only.
  std::string_view name;
  // The key in case files; empty: command line only.
  std::string_view case_key;
  // The key in a result's "settings".
  std::string_view result_key;
  Recorded recorded;
  // The value's name in --help ("N", "LIST").
  std::string_view value_name;
  // One line of help; name tables add a line per value, and the default is
  // appended from a default Settings unless `show_default` is false.
  std::string help;
  OptionField field;
  bool show_default = true;
  // Whether `compare` lists a difference (never for the seed: it differs by
  // design).
  bool compared = true;
  // Whether the command line takes it more than once (--dir: each directory
  // is measured, in one interleaved schedule).
  bool repeatable = false;
};

// Every option, in --help order.
const std::vector<Option>& SettingOptions();
// The row for --name or nullptr.
const Option* FindOption(std::string_view name);

// Where a value came from, for errors: "option --writes" or "case file X" with
// "key 'writes': ".
struct ValueOrigin {
  std::string operation;
  std::string prefix;
};
ValueOrigin FromCommandLine(const Option& option);
ValueOrigin FromCaseFile(const std::string& path, std::string_view key);

// Parses `value` into the option's field of `settings` and checks its bounds;
// on error `settings` is unchanged and the error says where.
Status ApplyOption(const Option& option, const nlohmann::json& value,
                   const ValueOrigin& origin, Settings& settings);
// The same without the bounds, for a result's recorded settings: a file
// written under other bounds still reads.
Status ReadRecordedOption(const Option& option, const nlohmann::json& value,
                          const ValueOrigin& origin, Settings& settings);
// The option's bounds on `settings` (Validate runs this for every row).
Status CheckOption(const Option& option, const Settings& settings);
// The value as a result records it (null when unset).
nlohmann::json RecordOption(const Option& option, const Settings& settings);
// The value as a person reads it: "128", "4K,64K", "fsync,none", "unset".
std::string ShowOption(const Option& option, const Settings& settings);
// --help for one row: the help line, its default, and the name table.
std::string HelpOfOption(const Option& option);

// A number in the grammar every option's value is read in ("5", "0.5",
// "1e3"; no hex, "+5", " 5" or "inf"), for an option outside this table;
// why not where it is none.
std::optional<std::string> ParseNumberWord(const std::string& word,
                                           double& out);

}  // namespace alignbench
