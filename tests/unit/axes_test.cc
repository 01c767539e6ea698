// lib/config/axes.h: every axis table names each value of its enum once, names
// are unique, and each value has help text.
#include "lib/config/axes.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace alignbench;

namespace {

// Each name parses back to its own value, names and values are distinct,
// and every entry has help.
template <typename Table>
void CheckTable(const Table& table, std::size_t values) {
  std::set<std::string> names;
  std::set<int> seen;
  for (const auto& entry : table) {
    CAPTURE(entry.name);
    CHECK_FALSE(entry.name.empty());
    CHECK_FALSE(entry.help.empty());
    CHECK(names.insert(std::string(entry.name)).second);
    CHECK(seen.insert(static_cast<int>(entry.value)).second);
    CHECK(FromName(table, entry.name) == entry.value);
    CHECK(NameOf(table, entry.value) == entry.name);
  }
  CHECK(seen.size() == values);
}

}  // namespace

TEST_CASE("axes: every table covers its enum with unique names") {
  CheckTable(kVariants, 2);
  CheckTable(kSyncMethods, 5);
  CheckTable(kIoModes, 2);
  CheckTable(kLayouts, 3);
  CheckTable(kCacheStates, 2);
  CheckTable(kDirectUnaligned, 2);
}

TEST_CASE("axes: the CLI names are the documented ones") {
  // The unaligned variant is headed "unaligned", as Derby's column was.
  CHECK(FromName(kVariants, "unaligned") == Variant::kUnaligned);
  CHECK(FromName(kVariants, "aligned") == Variant::kAligned);
  CHECK_FALSE(FromName(kVariants, "shifted").has_value());
  CHECK(NameList(kSyncMethods) == "fsync, fdatasync, o_sync, o_dsync, none");
  CHECK(NameList(kIoModes) == "buffered, direct");
  CHECK(NameList(kLayouts) == "extend, prealloc, prewritten");
  CHECK(NameList(kCacheStates) == "warm, cold");
  CHECK(NameList(kDirectUnaligned) == "report, stage");
}
