// lib/base/memory.h: the out-of-memory hint names the limits to raise and ends
// with what the caller says to make smaller.
#include "lib/base/memory.h"

#include <catch2/catch.hpp>
#include <string>

using namespace alignbench;

TEST_CASE("memory: OutOfMemoryHint names the limits and ends with the advice") {
  const std::string advice = "ask for fewer --writes";
  const std::string hint = OutOfMemoryHint(advice);
  CHECK(hint.rfind("out of memory", 0) == 0);
  CHECK(hint.find("ulimit -v") != std::string::npos);
  CHECK(hint.find("memory.max") != std::string::npos);
  REQUIRE(hint.size() > advice.size());
  CHECK(hint.compare(hint.size() - advice.size(), advice.size(), advice) == 0);
  CHECK(hint.substr(0, hint.size() - advice.size()).find(advice) ==
        std::string::npos);
  CHECK(OutOfMemoryHint("x") != OutOfMemoryHint("y"));
}
