#include "lib/config/schedule.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace alignbench;

TEST_CASE("A schedule is blocks of one run of each variant of one pair") {
  Scheduler scheduler(42);
  const std::vector<ScheduledRun> runs = scheduler.Next({3, 5, 1}, 1);
  REQUIRE(runs.size() == 2 * (3 + 5 + 1));
  std::map<std::size_t, int> per_pair;
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    const ScheduledRun& first = runs[i];
    const ScheduledRun& second = runs[i + 1];
    CHECK(first.block == i / 2 + 1);
    CHECK(second.block == first.block);
    CHECK(first.pair == second.pair);
    CHECK(first.variant != second.variant);
    ++per_pair[first.pair];
  }
  CHECK(per_pair == std::map<std::size_t, int>{{0, 3}, {1, 5}, {2, 1}});
}

TEST_CASE("The same seed gives the same order; another seed another") {
  auto order = [](std::uint64_t seed) {
    Scheduler scheduler(seed);
    std::vector<std::pair<std::size_t, int>> out;
    for (const ScheduledRun& r : scheduler.Next({5, 5, 5, 5}, 1)) {
      out.emplace_back(r.pair, static_cast<int>(r.variant));
    }
    return out;
  };
  CHECK(order(7) == order(7));
  CHECK(order(7) != order(8));
  // Pinned: the generator and the shuffle are fixed by this code and the
  // standard, so this order is the same on every machine and compiler.
  Scheduler pinned(1);
  std::vector<std::size_t> pairs;
  for (const ScheduledRun& r : pinned.Next({2, 2, 2}, 1))
    pairs.push_back(r.pair);
  CHECK(pairs == std::vector<std::size_t>{0, 0, 1, 1, 0, 0, 2, 2, 2, 2, 1, 1});
}

TEST_CASE("Both variants go first about equally often, pairs mix") {
  Scheduler scheduler(11);
  const std::vector<ScheduledRun> runs =
      scheduler.Next(std::vector<std::uint64_t>(10, 100), 1);
  int aligned_first = 0;
  std::set<std::size_t> first_ten;
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    aligned_first += runs[i].variant == Variant::kAligned;
    if (i < 20) first_ten.insert(runs[i].pair);
  }
  CHECK(aligned_first > 430);  // of 1000 blocks; binomial sd ~16
  CHECK(aligned_first < 570);
  CHECK(first_ten.size() > 3);
}

TEST_CASE("A later stage continues the block numbers and the stream") {
  Scheduler scheduler(5);
  const auto first = scheduler.Next({2, 2}, 1);
  const auto second = scheduler.Next({0, 3}, 5);
  REQUIRE(second.size() == 6);
  for (const ScheduledRun& r : second) {
    CHECK(r.pair == 1);
    CHECK(r.block >= 5);
    CHECK(r.block <= 7);
  }
}
