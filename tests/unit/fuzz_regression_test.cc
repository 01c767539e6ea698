// Every input the fuzzer (fuzz/fuzz_parsers.cc) ever crashed on is kept in
// fuzz/regressions/ and must now be refused with an error, not a crash. The
// first byte chose the parser: '0', case text.
#include <dirent.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "lib/config/case_file.h"
#include "lib/config/settings.h"

using namespace alignbench;

TEST_CASE("Fuzzer regressions are refused cleanly") {
  const std::string dir = ALIGNBENCH_SOURCE_DIR "/fuzz/regressions";
  DIR* listing = ::opendir(dir.c_str());
  REQUIRE(listing != nullptr);
  int checked = 0;
  while (const dirent* entry = ::readdir(listing)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream in(dir + "/" + entry->d_name, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string input = bytes.str();
    REQUIRE_FALSE(input.empty());
    REQUIRE(input[0] == '0');  // case text
    INFO(entry->d_name);
    Settings settings;
    const Status applied =
        ApplyCaseText(input.substr(1), entry->d_name, settings);
    CHECK_FALSE((applied.ok() && Validate(settings).ok()));
    ++checked;
  }
  ::closedir(listing);
  CHECK(checked >= 3);
}
