// lib/session/runner.h: PlainRunner calls `measure` once per slot, in order,
// with a loop that yields exactly the slot's writes, and stops yielding after
// Fail.
#include "lib/session/runner.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

using namespace alignbench;

TEST_CASE("runner: PlainRunner measures each slot once with its writes") {
  const std::vector<RunSlot> slots = {{"a", 3}, {"b", 0}, {"c", 1}, {"d", 7}};
  std::vector<std::size_t> called;
  std::vector<std::uint64_t> iterations;
  PlainRunner runner;
  const nlohmann::json document =
      runner.RunStage(slots, [&](std::size_t slot, TimedLoop& loop) {
        called.push_back(slot);
        std::uint64_t n = 0;
        while (loop.Next()) {
          loop.Record(0.001);
          ++n;
        }
        iterations.push_back(n);
        // Once done, it stays done.
        CHECK_FALSE(loop.Next());
      });
  CHECK(called == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(iterations == std::vector<std::uint64_t>{3, 0, 1, 7});
  CHECK(document.is_null());
  CHECK(runner.Warnings().empty());
}

TEST_CASE("runner: after Fail the loop yields nothing more") {
  const std::vector<RunSlot> slots = {{"a", 10}, {"b", 4}};
  std::vector<std::uint64_t> iterations;
  PlainRunner runner;
  runner.RunStage(slots, [&](std::size_t slot, TimedLoop& loop) {
    std::uint64_t n = 0;
    while (loop.Next()) {
      ++n;
      if (slot == 0 && n == 2) loop.Fail("broken");
    }
    iterations.push_back(n);
  });
  // The failure of one slot does not shorten the next.
  CHECK(iterations == std::vector<std::uint64_t>{2, 4});

  std::uint64_t before_any = 0;
  runner.RunStage({{"c", 5}}, [&](std::size_t, TimedLoop& loop) {
    loop.Fail("skipped");
    while (loop.Next()) ++before_any;
  });
  CHECK(before_any == 0);
}

TEST_CASE("runner: no slots, no calls") {
  PlainRunner runner;
  int calls = 0;
  runner.RunStage({}, [&](std::size_t, TimedLoop&) { ++calls; });
  CHECK(calls == 0);
}
