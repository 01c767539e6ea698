// Name tables for enums: each entry gives a value its name in the CLI, case
// files and JSON, and one line of help. Parsing, printing and help text all
// read the same table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace alignbench {

template <typename E>
struct Named {
  std::string_view name;
  E value;
  std::string_view help;
};

template <typename E, std::size_t N>
std::optional<E> FromName(const Named<E> (&table)[N], std::string_view name) {
  for (const auto& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

template <typename E, std::size_t N>
std::string_view NameOf(const Named<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

template <typename E, std::size_t N>
std::string_view HelpOf(const Named<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.help;
  }
  return "";
}

// "fsync, fdatasync, o_sync, ..." for help texts and error messages.
template <typename E, std::size_t N>
std::string NameList(const Named<E> (&table)[N]) {
  std::string list;
  for (const auto& entry : table) {
    if (!list.empty()) list += ", ";
    list += entry.name;
  }
  return list;
}

}  // namespace alignbench
