#include "lib/result/result_json.h"

#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <string>

#include "lib/pairs/explain.h"
#include "lib/render/writers.h"
#include "lib/result/schema_check.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("A report survives the JSON round trip") {
  const Report original = testing::FixedReport();
  const nlohmann::json j = ToJson(original);
  CHECK(j.at("schema_version") == kSchemaVersion);
  CHECK(j.at("pairs").size() == 2);
  CHECK(j.at("pairs")[0].at("unaligned").at("write_sync").at("mean_ns") ==
        Approx(18.359375e6));
  // Through text, as a file would be.
  const Result<Report> back =
      FromJson(nlohmann::json::parse(j.dump()), "round trip");
  if (!back) FAIL(back.error().Message());
  CHECK(ToJson(back.value()) == j);
  // And what people read is the same.
  for (Format f :
       {Format::kTable, Format::kDerby, Format::kMarkdown, Format::kCsv}) {
    std::ostringstream a, b;
    Render(a, original, f);
    Render(b, back.value(), f);
    CHECK(a.str() == b.str());
  }
}

TEST_CASE("Where a variant's files landed survives the round trip") {
  Report r = testing::FixedReport();
  r.pairs[0].unaligned.placement = MeanPlacement{4.5, 1.0};
  r.pairs[0].aligned.placement = MeanPlacement{3.0, 0.0};
  const nlohmann::json j = ToJson(r);
  CHECK(j.at("pairs")[0].at("unaligned").at("file_placement") ==
        nlohmann::json{{"extents", 4.5}, {"tree_blocks", 1.0}});
  CHECK_FALSE(j.at("pairs")[1].at("unaligned").contains("file_placement"));
  const Result<Report> back = FromJson(j, "round trip");
  if (!back) FAIL(back.error().Message());
  CHECK(back.value().pairs[0].unaligned.placement->tree_blocks == 1.0);
  CHECK(back.value().pairs[0].aligned.placement->extents == 3.0);
  CHECK_FALSE(back.value().pairs[1].aligned.placement);
}

TEST_CASE("Unknown facts are absent, not zero") {
  Report r = testing::FixedReport();
  r.target.device.reset();
  r.target.no_device_reason = "no block device under this directory (tmpfs)";
  r.pairs[0].unaligned.device.reset();
  const nlohmann::json j = ToJson(r);
  CHECK(j.at("environment").at("target").at("device").is_null());
  CHECK(j.at("environment").at("target").at("device_unavailable_reason") ==
        r.target.no_device_reason);
  CHECK_FALSE(j.at("pairs")[0].at("unaligned").contains("device_per_write"));
  CHECK_FALSE(j.at("environment").at("host").contains("hostname"));
}

TEST_CASE("FromJson refuses what is not ours or too new") {
  nlohmann::json j = ToJson(testing::FixedReport());
  j["schema_version"] = kSchemaVersion + 1;
  auto newer = FromJson(j, "new.json");
  REQUIRE_FALSE(newer.ok());
  CHECK_THAT(newer.error().Message(),
             Catch::Contains("newer than this alignbench"));

  auto broken = FromJson(nlohmann::json{{"schema_version", 1}}, "x.json");
  REQUIRE_FALSE(broken.ok());
  CHECK_THAT(broken.error().Message(),
             Catch::Contains("x.json: not an alignbench result"));

  nlohmann::json bad_value = ToJson(testing::FixedReport());
  bad_value["pairs"][0]["sync"] = "fsink";
  CHECK_FALSE(FromJson(bad_value, "y.json").ok());
  CHECK_FALSE(FromJson(nlohmann::json::array(), "z.json").ok());
}

TEST_CASE("A result of the schema's version is read as its schema reads it") {
  const nlohmann::json good = ToJson(testing::FixedReport());
  REQUIRE(FromJson(good, "r.json"));
  auto refused = [&good](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j);
    const Result<Report> r = FromJson(j, "r.json");
    return r.ok() ? std::string() : r.error().Message();
  };
  using nlohmann::json;
  CHECK_THAT(refused([](json& j) { j["pairs"][0]["colour"] = "blue"; }),
             Catch::Contains("pairs[0].colour': unknown key"));
  CHECK_THAT(refused([](json& j) { j["pairs"][0]["gain_pct"] = nullptr; }),
             Catch::Contains("pairs[0].gain_pct': null"));
  CHECK_THAT(
      refused([](json& j) {
        j["pairs"][0]["unaligned"]["repetitions"] = 0;
        j["pairs"][0]["unaligned"].erase("runs");
      }),
      Catch::Contains("unaligned.write_sync': not allowed here (Not measured"));
  CHECK_THAT(refused([](json& j) {
               j["complete"] = false;
               j["errors"] = json::array();
             }),
             Catch::Contains("errors': 0 item(s), expected at least 1 (An "
                             "incomplete run says why.)"));
  CHECK_THAT(refused([](json& j) { j["schema_version"] = 0; }),
             Catch::Contains("0 is no version"));
  CHECK(refused([](json& j) { j["schema_version"] = 3.0; }).empty());
  // A version 1 file was written before the schema: read as it always was.
  CHECK(refused([](json& j) {
          j["schema_version"] = 1;
          j["pairs"][0]["colour"] = "blue";
        }).empty());
}

TEST_CASE(
    "The result says how alignbench itself was built, beside the library's "
    "claim") {
  Report r = testing::FixedReport();
  r.build_type = "Release";
  const nlohmann::json j = ToJson(r);
  CHECK(j.at("tool").at("build_type") == "Release");
  const Result<Report> back = FromJson(j, "test");
  REQUIRE(back);
  CHECK(back.value().build_type == "Release");
  std::ostringstream markdown;
  Render(markdown, r, Format::kMarkdown);
  CHECK_THAT(
      markdown.str(),
      Catch::StartsWith("**alignbench 0.1.0** (abcdef123456, Release build)"));
  // A file from before it was recorded reads without it.
  nlohmann::json old = j;
  old["tool"].erase("build_type");
  REQUIRE(FromJson(old, "test"));
  CHECK_FALSE(FromJson(old, "test").value().build_type);
}

TEST_CASE(
    "A version 2 result is held to the schema: the path, what was found and "
    "what is allowed") {
  using nlohmann::json;
  json good = ToJson(testing::FixedReport());
  good["started_at"] = "2026-12-01T10:00:00Z";
  good["finished_at"] = "2026-12-01T10:05:00Z";
  REQUIRE(FromJson(good, "r.json"));
  auto refused = [&good](const std::function<void(json&)>& edit) {
    json j = good;
    edit(j);
    const Result<Report> r = FromJson(j, "r.json");
    return r.ok() ? std::string() : r.error().Message();
  };
  CHECK_THAT(
      refused([](json& j) {
        j["environment"]["target"]["device"]["write_cache"] = "write sideways";
      }),
      Catch::Contains("r.json: not an alignbench result: key "
                      "'alignbench.environment.target.device.write_cache': "
                      "'write sideways' is not one of 'write back', 'write "
                      "through'"));
  CHECK_THAT(refused([](json& j) { j["started_at"] = "2026-13-01T10:00:00Z"; }),
             Catch::Contains("key 'alignbench.started_at': "
                             "'2026-13-01T10:00:00Z' does not match ^[0-9]{4}-"
                             "(0[1-9]|1[0-2])-"));
  CHECK_THAT(refused([](json& j) { j["tool"]["version"] = "0.1"; }),
             Catch::Contains("key 'alignbench.tool.version': '0.1' does "
                             "not match ^[0-9]+\\.[0-9]+\\.[0-9]+$"));
  CHECK_THAT(refused([](json& j) { j.erase("finished_at"); }),
             Catch::Contains("key 'alignbench.finished_at': missing, which "
                             "alignbench.started_at needs beside it"));
  CHECK_THAT(refused([](json& j) {
               j["settings"]["sizes_bytes"] = {4096, 4096};
             }),
             Catch::Contains("key 'alignbench.settings.sizes_bytes[1]': 4096 "
                             "twice"));
  CHECK_THAT(refused([](json& j) {
               j["pairs"][0]["unaligned"]["write_sync"]["count"] = 0;
             }),
             Catch::Contains("pairs[0].unaligned.write_sync.count': 0, "
                             "expected at least 1"));
  CHECK_THAT(refused([](json& j) { j["settings"]["writes"] = "16"; }),
             Catch::Contains("key 'alignbench.settings.writes': '16', "
                             "expected integer"));
  CHECK_THAT(refused([](json& j) { j["environment"]["host"]["cpus"] = 2.5; }),
             Catch::Contains("host.cpus': 2.5, expected integer"));
  CHECK_THAT(refused([](json& j) { j["pairs"][0]["gain_pct"] = -100; }),
             Catch::Contains("pairs[0].gain_pct': -100, expected more than "
                             "-100"));
  // std::regex recurses once per character: the schema bounds the text of
  // every pattern, and a long string is refused by length, not by a crash.
  CHECK_THAT(refused([](json& j) {
               j["tool"]["version"] = std::string(200000, '1') + ".x";
             }),
             Catch::Contains("tool.version': '111"));
  // What the schema accepts is read: a long directory, 2^64 - 1 of a count.
  CHECK(refused([](json& j) {
          j["settings"]["dir"] = std::string(5000, 'd');
          j["environment"]["host"]["memory_bytes"] =
              std::numeric_limits<std::uint64_t>::max();
        }).empty());
  // A version 1 file was written before the schema: read as it always was.
  CHECK(refused([](json& j) {
          j["schema_version"] = 1;
          j["environment"]["target"]["device"]["write_cache"] = "sideways";
          j["started_at"] = "yesterday";
        }).empty());
}

TEST_CASE("A log case's rules are held to the schema's rules across them") {
  using nlohmann::json;
  Report r = testing::FixedReport();
  r.settings.log =
      testing::FromCase(R"({"log": {"contrast": "pad", "aligned": "4K"}})").log;
  const json good = ToJson(r);
  REQUIRE(FromJson(good, "log.json"));
  auto refused = [&good](const std::function<void(json&)>& edit) {
    json j = good;
    edit(j["settings"]["log"]);
    const Result<Report> read = FromJson(j, "log.json");
    return read.ok() ? std::string() : read.error().Message();
  };
  CHECK_THAT(refused([](json& log) { log["aligned_bytes"] = 3000; }),
             Catch::Contains("key 'alignbench.settings.log.aligned_bytes': "
                             "3000 is not one of 1, 2, 4, 8, ..., 1073741824 "
                             "(31 values) (A pad or fill contrast"));
  CHECK_THAT(refused([](json& log) { log["block_bytes"] = 1000; }),
             Catch::Contains("key 'alignbench.settings.log.block_bytes': 1000, "
                             "expected 0; or 1000 is not one of 1, 2, 4"));
  CHECK_THAT(refused([](json& log) { log["unaligned_file"] = "new"; }),
             Catch::Contains("log.unaligned_file': not allowed here (A pad or "
                             "fill contrast"));
  CHECK_THAT(refused([](json& log) {
               log["chunk_bytes"] = 8;
               log["record_header_bytes"] = 8;
             }),
             Catch::Contains("log.chunk_bytes': must be larger than "
                             "record_header_bytes"));
}

TEST_CASE("A result's settings keep the rules every run keeps") {
  using nlohmann::json;
  const json good = ToJson(testing::FixedReport());
  REQUIRE(FromJson(good, "r.json"));
  auto refused = [&good](const std::function<void(json&)>& edit) {
    json j = good;
    edit(j["settings"]);
    const Result<Report> read = FromJson(j, "r.json");
    return read.ok() ? std::string() : read.error().Message();
  };
  const std::string prefix = "read r.json: not an alignbench result: key ";
  // "8 writes per run (no sync), 4 commits per sync"
  CHECK(refused([](json& s) {
          s["writes"] = 8;
          s["sync"] = {"none"};
          s["commits_per_sync"] = 4;
        }) == prefix +
                  "'alignbench.settings.commits_per_sync' (4) and key "
                  "'alignbench.settings.sync' ([\"none\"]): no run has them "
                  "(the rule of option --commits-per-sync: needs a sync call "
                  "to share: --sync none makes none (use fsync or "
                  "fdatasync))");
  // "4 writer threads per group" where 2 wrote
  CHECK_THAT(
      refused([](json& s) {
        s["writes"] = 4;
        s["writers"] = 2;
        s["commits_per_sync"] = 4;
      }),
      Catch::StartsWith(prefix + "'alignbench.settings.writers' (2) and key "
                                 "'alignbench.settings.commits_per_"
                                 "sync' (4): no run has them"));
  CHECK_THAT(refused([](json& s) {
               s["io"] = {"direct"};
               s["writers"] = 2;
               s["queue_depth"] = 2;
             }),
             Catch::Contains("threads or writes in flight, not both"));
  CHECK_THAT(
      refused([](json& s) {
        s["writes"] = 4;
        s["queue_depth"] = 2;
      }),
      Catch::Contains("key 'alignbench.settings.queue_depth' (2) and key "
                      "'alignbench.settings.io' ([\"buffered\"]): no "
                      "run has them (the rule of option --queue-depth: "
                      "keeps direct-I/O writes in flight"));
  // Writes counted in whole groups (the fixture's 3 are no groups of 2).
  CHECK_THAT(refused([](json& s) { s["commits_per_sync"] = 2; }),
             Catch::Contains("--writes (3) and --warmup (0) count commits"));
  CHECK_THAT(
      refused([](json& s) { s["atomic_writes"] = "on"; }),
      Catch::Contains("'alignbench.settings.atomic_writes' (\"on\") "
                      "and key 'alignbench.settings.io' ([\"buffered\"]): "
                      "no run has them (the rule of option --atomic "
                      "on: RWF_ATOMIC needs direct I/O"));
  CHECK(refused([](json& s) {
          s["io"] = {"direct"};
          s["atomic_writes"] = "on";
          s["writes"] = 4;
          s["queue_depth"] = 2;
          s["commits_per_sync"] = 2;
        }).empty());
}

TEST_CASE("A result's atomic write units are statx's: none, or min <= max") {
  using nlohmann::json;
  const json good = ToJson(testing::FixedReport());
  auto refused = [&good](const std::function<void(json&)>& edit) {
    json j = good;
    edit(j["environment"]["target"]);
    const Result<Report> read = FromJson(j, "r.json");
    return read.ok() ? std::string() : read.error().Message();
  };
  const auto units = [](std::uint64_t min, std::uint64_t max) {
    return [min, max](json& t) {
      t["atomic_write_unit_min_bytes"] = min;
      t["atomic_write_unit_max_bytes"] = max;
    };
  };
  // "atomic writes of 1M to 4K"
  CHECK(refused(units(1 << 20, 4096)) ==
        "read r.json: not an alignbench result: key "
        "'alignbench.environment.target.atomic_write_unit_min_bytes' "
        "(1048576) and key "
        "'alignbench.environment.target.atomic_write_unit_max_bytes' (4096): "
        "the smallest atomic write is at most the largest");
  CHECK_THAT(refused(units(0, 4096)),
             Catch::EndsWith("0 (none offered) in both or neither"));
  CHECK_THAT(refused(units(4096, 12288)),
             Catch::EndsWith("each a power of two, as statx gives them"));
  CHECK(refused(units(0, 0)).empty());  // ext4: none offered
  CHECK(refused(units(4096, 1 << 20)).empty());
  CHECK_THAT(refused([](json& t) {
               t["device"]["atomic_write_unit_min_bytes"] = 65536;
               t["device"]["atomic_write_unit_max_bytes"] = 4096;
             }),
             Catch::Contains("key 'alignbench.environment.target.device."
                             "atomic_write_unit_min_bytes' (65536)"));
}

// Each pair says its shift; a file from before says it once, in its settings,
// and a pair whose shift is none of the settings' describes no run.
TEST_CASE("A pair's shift: its own, the settings' one, never another") {
  using nlohmann::json;
  Report several = testing::FixedReport();
  several.settings.shifts = {24, 8192};
  several.pairs[1].spec.shift = 8192;
  const json j = ToJson(several);
  CHECK(j.at("settings").at("shift_bytes") == json::array({24, 8192}));
  CHECK(j.at("pairs")[1].at("shift_bytes") == 8192);
  const Result<Report> back = FromJson(json::parse(j.dump()), "r.json");
  if (!back) FAIL(back.error().Message());
  CHECK(back.value().pairs[1].spec.shift == 8192);
  CHECK(KeyOf(back.value().pairs[0].spec) != KeyOf(back.value().pairs[1].spec));

  json old = ToJson(testing::FixedReport());
  for (json& pair : old["pairs"]) pair.erase("shift_bytes");
  old["settings"]["shift_bytes"] = 512;
  const Result<Report> read = FromJson(old, "old.json");
  if (!read) FAIL(read.error().Message());
  CHECK(read.value().pairs[0].spec.shift == 512);

  json stray = j;
  stray["pairs"][0]["shift_bytes"] = 100;
  const Result<Report> refused = FromJson(stray, "r.json");
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().Message(),
             Catch::Contains("pairs[0].shift_bytes': is not one of "
                             "settings.shift_bytes"));
  json unsaid = j;
  unsaid["pairs"][0].erase("shift_bytes");
  CHECK_FALSE(FromJson(unsaid, "r.json"));
}

namespace {

// A side of the fixture with its requests told apart: `reads` of the file's
// 4 KiB blocks per write, the journal's two writes and flush, a neighbour's
// 64 KiB written.
DeviceRequests Told(double reads) {
  return DeviceRequests{DevicePerOp{reads, reads * 4, 1.0, 4.0, 0.0},
                        DevicePerOp{0.0, 0.0, 2.0, 8.0, 1.0},
                        DevicePerOp{0.0, 0.0, 16.0, 64.0, 4.0}, 190000};
}

}  // namespace

TEST_CASE("The device's requests told apart, and their source, round trip") {
  Report r = testing::FixedReport();
  r.pairs[0].unaligned.device_requests = Told(1.0);
  r.pairs[0].aligned.device_requests = Told(0.0);
  r.device_account = DeviceAccountSource{kSourceBlockTrace, std::nullopt};
  const nlohmann::json j = ToJson(r);
  const nlohmann::json& told =
      j.at("pairs")[0].at("unaligned").at("device_requests");
  CHECK(told.at("file").at("reads") == 1.0);
  CHECK(told.at("filesystem").at("flushes") == 1.0);
  CHECK(told.at("others").at("written_kib") == 64.0);
  CHECK(told.at("device_ns") == 190000.0);
  CHECK(j.at("device_account") == nlohmann::json{{"source", "block trace"}});
  CHECK_FALSE(j.at("pairs")[1].at("unaligned").contains("device_requests"));
  CHECK_FALSE(SchemaViolation(ResultSchema(), {{"alignbench", j}}));
  const Result<Report> back = FromJson(j, "round trip");
  if (!back) FAIL(back.error().Message());
  CHECK(ToJson(back.value()) == j);
  // Without a trace: the counters, and why.
  r.device_account = DeviceAccountSource{kSourceCounters, "tracing needs root"};
  const nlohmann::json counters = ToJson(r);
  CHECK(counters.at("device_account").at("why_not_traced") ==
        "tracing needs root");
  CHECK_FALSE(SchemaViolation(ResultSchema(), {{"alignbench", counters}}));
  nlohmann::json odd = counters;
  odd["device_account"]["source"] = "guessed";
  CHECK(SchemaViolation(ResultSchema(), {{"alignbench", odd}}));
}

TEST_CASE("Told apart, the why names the block read and leaves others out") {
  Report r = testing::FixedReport();
  PairResult& p = r.pairs[0];
  // Device-wide, the neighbour's traffic swamps both sides' counters.
  p.unaligned.background = DevicePerOp{0.0, 0.0, 16.0, 64.0, 4.0};
  p.aligned.background = p.unaligned.background;
  p.unaligned.device_requests = Told(1.0);
  p.aligned.device_requests = Told(0.0);
  const std::string why = Explain(p, 24);
  CHECK_THAT(why, Catch::Contains("unaligned: each write read the block of "
                                  "the file it partly overwrote: 1.0 reads "
                                  "of 4.0 KiB per write, against 0.0"));
  CHECK_THAT(why, Catch::Contains("journal and metadata per write: unaligned "
                                  "2.0 writes (8.0 KiB) and 1.0 flushes"));
  CHECK_THAT(why, Catch::Contains("the device held its requests 0.19 ms"));
  CHECK_THAT(why, Catch::Contains("Other processes and files wrote "));
  CHECK_THAT(why, !Catch::Contains("busy"));
  CHECK(MechanismsOf(p).front() == Mechanism::kReadOnWrite);
  CHECK_FALSE(OthersCounted(p));
}

// The reader's own faults, where the schema is not asked (a version 1 file)
// or cannot say them: one broken key of each kind, and its message whole.
TEST_CASE(
    "Each kind of fault the reader finds names its key and what is "
    "wrong") {
  using nlohmann::json;
  json old = ToJson(testing::FixedReport());
  old["schema_version"] = 1;
  REQUIRE(FromJson(old, "r.json"));
  const auto fault = [&old](const std::function<void(json&)>& edit) {
    json j = old;
    edit(j);
    const Result<Report> r = FromJson(j, "r.json");
    if (r) return std::string("read");
    CHECK(r.error().kind == ErrorKind::kUsage);
    return r.error().Message();
  };
  const std::string is =
      "read r.json: not an alignbench result: key "
      "'alignbench.";
  const std::string pair = is + "pairs[0].";
  CHECK(fault([](json& j) { j["pairs"][0].erase("size_bytes"); }) ==
        pair + "size_bytes' is missing");
  CHECK(fault([](json& j) { j["pairs"][0]["unaligned"] = 3; }) ==
        pair + "unaligned': expected an object, got 3");
  CHECK(fault([](json& j) { j["pairs"] = json::object(); }) ==
        is + "pairs': expected a list, got object");
  CHECK(fault([](json& j) { j["tool"]["version"] = 1; }) ==
        is + "tool.version': expected a string, got 1");
  CHECK(fault([](json& j) { j["complete"] = "yes"; }) ==
        is + "complete': expected true or false, got string");
  CHECK(fault([](json& j) {
          j["pairs"][0]["unaligned"]["write_sync"]["mean_ns"] = "fast";
        }) == pair +
                  "unaligned.write_sync.mean_ns': expected a number, got "
                  "string");
  CHECK(fault([](json& j) { j["pairs"][0]["aligned"]["repetitions"] = -1; }) ==
        pair +
            "aligned.repetitions': expected a non-negative whole number, "
            "got -1");
  CHECK(fault([](json& j) {
          j["command_line"] = {"alignbench", 2};
        }) == is + "command_line[1]': expected a string, got 2");
  CHECK(fault([](json& j) { j["pairs"][0]["sync"] = "fsink"; }) ==
        pair + "sync': unknown value 'fsink' (expected " +
            NameList(kSyncMethods) + ")");
  CHECK(fault([](json& j) { j["pairs"][0]["mechanisms"] = {"teleport"}; }) ==
        pair + "mechanisms': unknown value 'teleport'");
  CHECK(fault([](json& j) { j["pairs"][0]["size_bytes"] = 0; }) ==
        pair + "size_bytes': must be between 1 and 1073741824");
  CHECK(fault([](json& j) { j["pairs"][0]["p_value"] = 2; }) ==
        pair + "p_value': a p-value is between 0 and 1");
  CHECK(fault([](json& j) { j["pairs"][0]["gain_pct"] = -150; }) ==
        pair + "gain_pct': a gain in percent is finite and more than -100");
  CHECK(fault([](json& j) {
          j["pairs"][0]["gain_interval_pct"]["low"] = -100;
        }) == pair +
                  "gain_interval_pct.low': a gain in percent is more "
                  "than -100");
  CHECK(fault([](json& j) { j["pairs"][0]["unaligned"]["runs"].erase(0); }) ==
        pair +
            "unaligned.runs': 5 runs, but "
            "alignbench.pairs[0].unaligned.repetitions says 6");
  CHECK(fault([](json& j) { j["pairs"] = json::array(); }) ==
        is + "pairs': a result has at least one pair");
  CHECK(fault([](json& j) { j["settings"].erase("writes"); }) ==
        is + "settings.writes' is missing");
  // The settings' and the histograms' own parsers name the key themselves.
  CHECK_THAT(fault([](json& j) { j["settings"]["writes"] = true; }),
             Catch::StartsWith(is + "settings.writes': "));
  CHECK_THAT(fault([](json& j) { j["settings"]["writes"] = 0; }),
             Catch::StartsWith(is + "settings.writes': "));
  // The first fault is the one said, though reading goes on past it.
  CHECK(fault([](json& j) {
          j["pairs"][0].erase("size_bytes");
          j["pairs"][1]["sync"] = "fsink";
          j["pairs"][1]["unaligned"]["staged"] = 3;
        }) == pair + "size_bytes' is missing");
}
