// lib/base/text.h: numbers as text, and text in lines of a width.
#include "lib/base/text.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("text: Wrapped breaks at spaces, indents what follows") {
  CHECK(Wrapped("one two three", 7, "  ") == "one two\n  three");
  // Runs of spaces are one; a word longer than the width stands alone.
  CHECK(Wrapped("a   verylongword b", 5) == "a\nverylongword\nb");
  CHECK(Wrapped("", 80).empty());
  // A unit sign stays with its figure, however the line falls.
  CHECK(Wrapped("helps by 3-10 % at 2K", 14) == "helps by\n3-10 % at 2K");
  CHECK(Wrapped("tested at 5 %.", 11) == "tested at\n5 %.");
}

TEST_CASE("text: Fixed and Printf never cut a number short") {
  CHECK(Fixed(3.14159) == "3.1");
  CHECK(Fixed(3.0, 0) == "3");
  CHECK(Printf("%.1f", 1e308).size() < 25);
}
