// lib/result/escape.h: every string value of a document, however deep, has its
// control characters escaped; keys and other values are left as they are.
#include "lib/result/escape.h"

#include <catch2/catch.hpp>
#include <string>

using namespace alignbench;

TEST_CASE("escape: control characters in every string value become escapes") {
  nlohmann::json doc = {
      {"model", "disk\nforged: line"},
      {"nested", {{"deep", {std::string("a\x1b[2Jb"), "del\x7f"}}}},
      {"number", 5},
      {"flag", true},
      {"plain", "nothing to do \\ here"},
  };
  EscapeControlStrings(doc);
  CHECK(doc["model"] == "disk\\nforged: line");
  CHECK(doc["nested"]["deep"][0] == "a\\x1b[2Jb");
  CHECK(doc["nested"]["deep"][1] == "del\\x7f");
  CHECK(doc["number"] == 5);
  CHECK(doc["flag"] == true);
  CHECK(doc["plain"] == "nothing to do \\ here");
  // Each value is what EscapeControl makes of it.
  CHECK(doc["model"] == EscapeControl("disk\nforged: line"));
}

TEST_CASE("escape: keys are not changed, a lone string is") {
  nlohmann::json doc = {{"k\ney", "v\t"}};
  EscapeControlStrings(doc);
  REQUIRE(doc.contains("k\ney"));
  CHECK(doc["k\ney"] == "v\\t");

  nlohmann::json lone = "\r";
  EscapeControlStrings(lone);
  CHECK(lone == "\\r");
}

TEST_CASE("escape: deep nesting is walked without recursion") {
  nlohmann::json doc = "\n";
  for (int i = 0; i < 2000; ++i) doc = nlohmann::json::array({doc});
  EscapeControlStrings(doc);
  const nlohmann::json* v = &doc;
  while (v->is_array()) v = &(*v)[0];
  CHECK(*v == "\\n");
}
