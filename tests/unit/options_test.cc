// The settings table (lib/config/options.h): one row serves the command line,
// case files, --help, Validate, the result's record and compare.
#include "lib/config/options.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

using namespace alignbench;
using nlohmann::json;

TEST_CASE("Names and keys in the table are unique") {
  std::set<std::string_view> names, case_keys, result_keys;
  for (const Option& option : SettingOptions()) {
    INFO(option.name << " / " << option.case_key);
    if (!option.name.empty()) CHECK(names.insert(option.name).second);
    if (!option.case_key.empty()) {
      CHECK(case_keys.insert(option.case_key).second);
    }
    if (option.recorded != Recorded::kNo) {
      CHECK_FALSE(option.result_key.empty());
      CHECK(result_keys.insert(option.result_key).second);
    }
    CHECK((option.name.empty() || !option.value_name.empty()));
  }
}

TEST_CASE("A command-line word and a case-file value set the same field") {
  // Each pair: the word as typed after --name, the value as a case file has
  // it; both must leave equal records.
  const std::pair<const char*, json> same[] = {
      {"writes", json(64)},
      {"warmup", json(3)},
      {"commits-per-sync", json(4)},
      {"group-commit", json(4.24)},
      {"writers", json(4)},
      {"queue-depth", json(8)},
      {"shift", json("512")},
      {"sizes", json::array({"4K", "1K"})},
      {"sync", json::array({"fdatasync", "none"})},
      {"layout", json("prewritten")},
      {"precision", json(2.5)},
      {"seed", json(42)},
      {"direct-unaligned", json("stage")},
  };
  const std::pair<const char*, const char*> words[] = {
      {"writes", "64"},
      {"warmup", "3"},
      {"commits-per-sync", "4"},
      {"group-commit", "4.24"},
      {"writers", "4"},
      {"queue-depth", "8"},
      {"shift", "512"},
      {"sizes", "4K,1K"},
      {"sync", "fdatasync,none"},
      {"layout", "prewritten"},
      {"precision", "2.5"},
      {"seed", "42"},
      {"direct-unaligned", "stage"},
  };
  for (std::size_t i = 0; i < std::size(same); ++i) {
    const Option* option = FindOption(same[i].first);
    REQUIRE(option != nullptr);
    INFO(option->name);
    Settings from_case, from_word;
    REQUIRE(ApplyOption(*option, same[i].second,
                        FromCaseFile("t.json", option->case_key), from_case)
                .ok());
    REQUIRE(ApplyOption(*option, json(words[i].second),
                        FromCommandLine(*option), from_word)
                .ok());
    CHECK(RecordOption(*option, from_case) == RecordOption(*option, from_word));
    CHECK(RecordOption(*option, from_case) !=
          RecordOption(*option, Settings{}));
  }
}

TEST_CASE("Errors name where the value came from, and change nothing") {
  const Option& writes = *FindOption("writes");
  Settings s;
  const Status word =
      ApplyOption(writes, json("12x"), FromCommandLine(writes), s);
  REQUIRE_FALSE(word.ok());
  CHECK(word.error().Message() ==
        "option --writes: expected a non-negative whole number, got '12x'");
  const Status bound =
      ApplyOption(writes, json(200'000'000), FromCommandLine(writes), s);
  REQUIRE_FALSE(bound.ok());
  CHECK_THAT(bound.error().Message(), Catch::Contains("must be at most"));
  CHECK(s.writes == Settings{}.writes);
  const Option& sync = *FindOption("sync");
  const Status empty_item =
      ApplyOption(sync, json("fsync,"), FromCommandLine(sync), s);
  REQUIRE_FALSE(empty_item.ok());
  CHECK_THAT(empty_item.error().Message(), Catch::Contains("unknown value ''"));
}

TEST_CASE("Help shows each default from a default Settings") {
  CHECK_THAT(HelpOfOption(*FindOption("writes")),
             Catch::EndsWith("(default 32)"));
  CHECK_THAT(
      HelpOfOption(*FindOption("sync")),
      Catch::Contains("(default fsync)") && Catch::Contains("\n  fdatasync: "));
  CHECK_THAT(HelpOfOption(*FindOption("precision")),
             Catch::Contains("(default 5)"));
}

TEST_CASE("Every recorded option reads back from its record") {
  Settings s;
  s.writes = 77;
  s.sizes = {8192, 512};
  s.seed = 9;
  s.budget_seconds = 30;
  s.group_commit = 4.24;
  s.syncs = {SyncMethod::kNone};
  s.direct_unaligned = DirectUnaligned::kStage;
  Settings back;
  for (const Option& option : SettingOptions()) {
    if (option.recorded == Recorded::kNo) continue;
    INFO(option.result_key);
    const json record = RecordOption(option, s);
    REQUIRE_FALSE(record.is_null());
    REQUIRE(ReadRecordedOption(option, record, {"", ""}, back).ok());
    CHECK(ShowOption(option, back) == ShowOption(option, s));
  }
}

TEST_CASE("Numbers and counts share one grammar: decimal digits only") {
  auto refused = [](const char* name, const char* word) {
    const Option* option = FindOption(name);
    REQUIRE(option != nullptr);
    Settings s;
    const Status applied =
        ApplyOption(*option, json(word), FromCommandLine(*option), s);
    return applied.ok() ? std::string() : applied.error().Message();
  };
  for (const char* name : {"precision", "budget", "writes"}) {
    for (const char* word :
         {"0x10", "+5", " 5", "5 ", "inf", "nan", "", "5e", "--5", "1,5"}) {
      INFO(name << " " << word);
      CHECK_THAT(refused(name, word), Catch::Contains("expected a"));
    }
  }
  CHECK(refused("precision", "2.5").empty());
  CHECK(refused("precision", ".5").empty());
  CHECK(refused("precision", "1e2").empty());
  CHECK(refused("budget", "30").empty());
  CHECK(refused("budget", "1.5E+2").empty());
}

// --shift takes a list: each shift a pair of its own. One shift is recorded as
// the number it always was, and a number read back as a list of one, so that
// files from before read as they did.
TEST_CASE("Shifts: a list, a range, one as a number; bad input refused") {
  const Option& shift = *FindOption("shift");
  const auto apply = [&](const json& value, Settings& s) {
    return ApplyOption(shift, value, FromCommandLine(shift), s);
  };
  Settings s;
  REQUIRE(apply(json("24,512,1K"), s).ok());
  CHECK(s.shifts == std::vector<std::uint64_t>{24, 512, 1024});
  CHECK(RecordOption(shift, s) == json::array({24, 512, 1024}));
  REQUIRE(apply(json("512..4K"), s).ok());
  CHECK(s.shifts == std::vector<std::uint64_t>{512, 1024, 2048, 4096});
  REQUIRE(apply(json("0"), s).ok());  // the A/A check's shift
  CHECK(RecordOption(shift, s) == json(0));
  Settings back;
  REQUIRE(ReadRecordedOption(shift, json(24), {"", ""}, back).ok());
  CHECK(back.shifts == std::vector<std::uint64_t>{24});
  REQUIRE(
      ReadRecordedOption(shift, json::array({0, 8192}), {"", ""}, back).ok());
  CHECK(back.shifts == std::vector<std::uint64_t>{0, 8192});
  for (const auto& [word, why] :
       std::vector<std::pair<const char*, const char*>>{
           {"24,512,24", "24 is listed twice"},
           {"24,-1", "must not be negative"},
           {"24,x", "size 'x'"},
           {"24,,512", "size ''"},
           {"2G", "2G is larger than 1G"}}) {
    Settings bad;
    const Status applied = apply(json(word), bad);
    INFO(word);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().Message(), Catch::Contains(why));
    CHECK(bad.shifts == Settings{}.shifts);
  }
}
