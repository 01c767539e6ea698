// lib/base/named.h: a name table read both ways, through the array itself and
// through a NameTable that points at it.
#include "lib/base/named.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace alignbench;

namespace {

enum class Colour { kRed, kGreen, kBlue, kUnnamed };
constexpr Named<Colour> kColours[] = {
    {"red", Colour::kRed, "the first"},
    {"green", Colour::kGreen, "the second"},
    {"blue", Colour::kBlue, "the third"},
};

}  // namespace

TEST_CASE("named: every entry round-trips through FromName and NameOf") {
  for (const auto& entry : kColours) {
    const auto value = FromName(kColours, entry.name);
    REQUIRE(value.has_value());
    CHECK(*value == entry.value);
    CHECK(NameOf(kColours, *value) == entry.name);
    CHECK(HelpOf(kColours, *value) == entry.help);
  }
}

TEST_CASE("named: unknown names and values fail") {
  CHECK_FALSE(FromName(kColours, "purple").has_value());
  CHECK_FALSE(FromName(kColours, "").has_value());
  CHECK_FALSE(FromName(kColours, "Red").has_value());  // case matters
  CHECK_FALSE(FromName(kColours, "red ").has_value());
  CHECK(NameOf(kColours, Colour::kUnnamed) == "?");
  CHECK(HelpOf(kColours, Colour::kUnnamed).empty());
}

TEST_CASE("named: NameTable sees the same entries as its array") {
  const NameTable<Colour> table = kColours;
  CHECK(table.size == 3);
  CHECK(table.end() - table.begin() == 3);
  CHECK(FromName(table, "green") == Colour::kGreen);
  CHECK(NameOf(table, Colour::kBlue) == "blue");
  CHECK(NameList(table) == NameList(kColours));
}

TEST_CASE("named: NameList joins names in table order") {
  CHECK(NameList(kColours) == "red, green, blue");
  constexpr Named<Colour> kOne[] = {{"only", Colour::kRed, ""}};
  CHECK(NameList(kOne) == "only");
}

TEST_CASE("named: FindNamed finds a row by its name, never by an empty one") {
  struct Row {
    std::string_view name;
    int value;
  };
  const std::vector<Row> rows = {{"", 0}, {"a", 1}, {"b", 2}};
  REQUIRE(FindNamed(rows, "b") != nullptr);
  CHECK(FindNamed(rows, "b")->value == 2);
  CHECK(FindNamed(rows, "c") == nullptr);
  CHECK(FindNamed(rows, "") == nullptr);
}
