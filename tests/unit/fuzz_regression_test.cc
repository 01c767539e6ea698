// Every input the fuzzer (fuzz/fuzz_parsers.cc) ever crashed on is kept in
// fuzz/regressions/ and must now be refused with an error, not a crash. The
// first byte chose the parser: '0', case text; '4', strace output (the trace
// record would save from it must be written, whatever bytes its paths hold).
#include <dirent.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/config/case_file.h"
#include "lib/config/settings.h"
#include "lib/config/trace_file.h"
#include "lib/trace/strace_reader.h"

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
    INFO(entry->d_name);
    if (input[0] == '4') {
      Result<Trace> trace = ParseStrace(input.substr(1), {});
      if (trace) {
        CHECK_NOTHROW(
            TraceToJson(trace.value())
                .dump(1, ' ', false, nlohmann::json::error_handler_t::replace));
      }
      ++checked;
      continue;
    }
    REQUIRE(input[0] == '0');  // case text
    Settings settings;
    const Status applied =
        ApplyCaseText(input.substr(1), entry->d_name, settings);
    CHECK_FALSE((applied.ok() && Validate(settings).ok()));
    ++checked;
  }
  ::closedir(listing);
  CHECK(checked >= 3);
}
