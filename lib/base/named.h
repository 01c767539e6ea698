// Name tables for enums: each entry gives a value its name in the CLI, case
// files and JSON, and one line of help. Parsing, printing and help text all
// read the same table. The functions take the table itself (an array) or a
// NameTable that points at one.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace alignbench {

template <typename E>
struct Named {
  std::string_view name;
  E value;
  std::string_view help;
};

// A name table seen through a pointer, so that one type serves tables of any
// length.
template <typename E>
struct NameTable {
  const Named<E>* entries;
  std::size_t size;
  template <std::size_t N>
  constexpr NameTable(
      const Named<E> (&table)[N])  // NOLINT: implicit on purpose
      : entries(table), size(N) {}
  const Named<E>* begin() const { return entries; }
  const Named<E>* end() const { return entries + size; }
};

// The enum a table names.
template <typename Table>
using NamedEnum =
    std::decay_t<decltype(std::begin(std::declval<Table&>())->value)>;

template <typename Table>
std::optional<NamedEnum<Table>> FromName(const Table& table,
                                         std::string_view name) {
  for (const auto& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

template <typename Table>
std::string_view NameOf(const Table& table, NamedEnum<Table> value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

template <typename Table>
std::string_view HelpOf(const Table& table, NamedEnum<Table> value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.help;
  }
  return "";
}

// The row of `rows` (options, commands) whose `name` is `name`, or nullptr;
// an empty name finds nothing, as a row without a name has none to find.
template <typename Rows>
auto FindNamed(const Rows& rows, std::string_view name)
    -> decltype(&*std::begin(rows)) {
  for (const auto& row : rows) {
    if (!name.empty() && row.name == name) return &row;
  }
  return nullptr;
}

// "fsync, fdatasync, o_sync, ..." for help texts and error messages.
template <typename Table>
std::string NameList(const Table& table) {
  std::string list;
  for (const auto& entry : table) {
    if (!list.empty()) list += ", ";
    list += entry.name;
  }
  return list;
}

}  // namespace alignbench
