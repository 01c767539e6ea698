// Where --case NAME is looked for: a path only as given; a bare name also
// beside an installed binary, and in the source tree only for a binary of this
// build tree; the lookup finds a shipped case by name from the build tree.
#include "lib/config/case_search.h"

#include <catch2/catch.hpp>

namespace alignbench {

TEST_CASE("A path is looked for only as given") {
  CHECK(CaseCandidates("cases/quick.json", "/usr/bin/alignbench") ==
        std::vector<std::string>{"cases/quick.json"});
}

TEST_CASE("An installed binary looks beside itself, not in a source tree") {
  // The working directory last: a file left there (/tmp) cannot shadow a
  // shipped case.
  CHECK(CaseCandidates("quick", "/usr/bin/alignbench") ==
        std::vector<std::string>{
            "/usr/bin/../share/alignbench/cases/quick.json", "quick"});
  CHECK(CaseCandidates("quick.json", "/opt/x/bin/alignbench").front() ==
        "/opt/x/bin/../share/alignbench/cases/quick.json");
}

TEST_CASE("A binary of this build tree also looks in the source tree") {
  const std::vector<std::string> candidates = CaseCandidates(
      "quick", std::string(ALIGNBENCH_BUILD_DIR) + "/bench/alignbench");
  REQUIRE(candidates.size() == 3);
  CHECK(candidates[1] ==
        std::string(ALIGNBENCH_SOURCE_DIR) + "/cases/quick.json");
}

TEST_CASE("A name found nowhere is a usage error that lists where it looked") {
  Result<std::string> found = FindCaseFile("no-such-case-anywhere");
  REQUIRE_FALSE(found);
  CHECK(found.error().kind == ErrorKind::kUsage);
  CHECK_THAT(
      found.error().Message(),
      Catch::Contains("share/alignbench/cases/no-such-case-anywhere.json"));
}

}  // namespace alignbench
