// lib/io/cleanup.h: the signal-cleanup registry hands out a limited number of
// slots, refuses a path too long, and gives a slot back on Unregister. No
// signal is raised here: Catch2 handles signals itself.
#include "lib/io/cleanup.h"

#include <limits.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "lib/io/test_file.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

TEST_CASE("cleanup: slots are limited and given back") {
  std::vector<int> slots;
  for (int i = 0; i < 1000; ++i) {
    const int slot =
        RegisterForCleanup("/nonexistent/alignbench-" + std::to_string(i));
    if (slot < 0) break;
    slots.push_back(slot);
  }
  // A fixed, small registry: full before 1000, and each slot distinct.
  REQUIRE_FALSE(slots.empty());
  CHECK(slots.size() < 1000);
  CHECK(std::set<int>(slots.begin(), slots.end()).size() == slots.size());
  // Full: another registration fails until a slot is given back.
  CHECK(RegisterForCleanup("/nonexistent/one-more") == -1);
  {
    // A file that could not be registered is not created.
    TempDir dir;
    const auto file = TestFile::Create(dir.path());
    CHECK_FALSE(file);
    CHECK(dir.Names().empty());
  }
  const int freed = slots.back();
  slots.pop_back();
  UnregisterCleanup(freed);
  const int again = RegisterForCleanup("/nonexistent/again");
  CHECK(again == freed);
  slots.push_back(again);
  for (int slot : slots) UnregisterCleanup(slot);
  // All free again: as many registrations succeed as before.
  std::vector<int> second;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    second.push_back(RegisterForCleanup("/nonexistent/x"));
    CHECK(second.back() >= 0);
  }
  for (int slot : second) UnregisterCleanup(slot);
}

TEST_CASE("cleanup: a path too long is refused; bad slots are ignored") {
  CHECK(RegisterForCleanup(std::string(PATH_MAX, 'a')) == -1);
  const int fits = RegisterForCleanup("/" + std::string(PATH_MAX - 2, 'a'));
  CHECK(fits >= 0);
  UnregisterCleanup(fits);
  UnregisterCleanup(-1);
  UnregisterCleanup(1 << 20);
  const int slot = RegisterForCleanup("/nonexistent/y");
  CHECK(slot >= 0);
  UnregisterCleanup(slot);
}

TEST_CASE("cleanup: the graceful-interrupt flag starts clear") {
  AllowGracefulInterrupt(true);
  CHECK_FALSE(InterruptRequested());
  AllowGracefulInterrupt(false);
  CHECK_FALSE(InterruptRequested());
}
