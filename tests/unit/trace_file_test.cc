// lib/config/trace_file.h: a trace read, written and read again the same; every
// bound and key checked, bad and truncated traces refused with the key. And
// lib/config/op.h, the one op a trace, a replay and a run share.
#include "lib/config/trace_file.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "lib/config/op.h"

using namespace alignbench;
using nlohmann::json;

TEST_CASE("op: every kind has its trace file name; ops compare by field") {
  for (OpKind kind : {OpKind::kWrite, OpKind::kRead, OpKind::kStat,
                      OpKind::kSync, OpKind::kTruncate, OpKind::kAllocate,
                      OpKind::kUnlink, OpKind::kCreate, OpKind::kSyncDir}) {
    CHECK(FromName(kOpKinds, NameOf(kOpKinds, kind)) == kind);
  }
  // A run's calls have no name in a trace file: it records the five.
  CHECK(NameOf(kTraceSyncs, SyncCall::kRun) == "?");
  const Op write{OpKind::kWrite, 1, 4096, 512};
  CHECK(write.Bytes().offset == 4096);
  CHECK(write.Bytes().length == 512);
  Op reserve = write;
  reserve.kind = OpKind::kAllocate;
  CHECK_FALSE(reserve == write);
  reserve.kind = OpKind::kWrite;
  CHECK(reserve == write);
  reserve.keep_size = true;
  CHECK_FALSE(reserve == write);
}

namespace {

std::string Fixture() {
  std::ifstream in(ALIGNBENCH_SOURCE_DIR
                   "/tests/cli/fixtures/trace-sqlite-3.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The refusal of the fixture with `edit` applied, or "" if it is read.
template <typename Edit>
std::string Refusal(Edit edit) {
  json doc = json::parse(Fixture());
  edit(doc);
  Result<Trace> t = ParseTrace(doc.dump(), "t.json");
  return t ? "" : t.error().Message();
}

// The fixture's second commit (a frame's writes and their fdatasync) made
// `count` times, each appended after the one before.
Trace WithCommits(std::uint64_t count) {
  Trace trace = ParseTrace(Fixture(), "fixture").value();
  const TraceCommit one = trace.commits[1];
  trace.commits.assign(count, one);
  for (std::uint64_t i = 0; i < count; ++i) {
    for (Op& op : trace.commits[i].ops) op.offset += i * 8240;
  }
  return trace;
}

}  // namespace

TEST_CASE("trace: the fixture is read with its commits and files") {
  Result<Trace> t = ParseTrace(Fixture(), "fixture");
  REQUIRE(t);
  const Trace& trace = t.value();
  CHECK(trace.argv == std::vector<std::string>{"sqlite3", "t.db"});
  CHECK(trace.version == "3.40.1 2022-12-28");
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].state == FileState::kNew);
  CHECK(trace.files[0].HasFlag("O_CREAT"));
  CHECK_FALSE(trace.files[0].HasFlag("O_DIRECT"));
  REQUIRE(trace.header);
  CHECK(trace.header->bytes == 32);
  REQUIRE(trace.commits.size() == 3);
  CHECK(trace.commits[1].ops[1].offset == 4176);
  CHECK(trace.commits[2].ops.back().kind == OpKind::kSync);
  CHECK(trace.commits[2].ops.back().call == SyncCall::kFdatasync);
}

TEST_CASE("trace: written and read back, the same JSON") {
  Result<Trace> t = ParseTrace(Fixture(), "fixture");
  REQUIRE(t);
  const json once = TraceToJson(t.value());
  Result<Trace> again = ParseTrace(once.dump(), "again");
  REQUIRE(again);
  CHECK(TraceToJson(again.value()) == once);
  // The fixture is a version 1 trace, written again as the version now.
  json fixture = json::parse(Fixture());
  CHECK(fixture["version"] == 1);
  fixture["version"] = kTraceVersion;
  CHECK(once == fixture);
}

TEST_CASE("trace: its text is what --replay reads; past 64 MiB none",
          "[slow]") {
  Result<std::string> small = TraceText(WithCommits(1000), "t.json");
  REQUIRE(small);
  REQUIRE(ParseTrace(small.value(), "t.json"));
  // Commits enough for 10 % past the bound (fewer than kMaxTraceCommits:
  // it is the size that refuses them): no text, and the reason in MiB.
  const std::uint64_t per_commit = small.value().size() / 1000;
  const std::uint64_t count = kMaxTraceFileBytes / per_commit * 11 / 10;
  REQUIRE(count < kMaxTraceCommits);
  Result<std::string> big = TraceText(WithCommits(count), "t.json");
  REQUIRE_FALSE(big);
  CHECK_THAT(big.error().Message(),
             Catch::Contains("past the 64 MiB --replay reads"));
  // Nine tenths of the bound is saved, and read back whole.
  Result<std::string> under =
      TraceText(WithCommits(kMaxTraceFileBytes / per_commit * 9 / 10), "t");
  REQUIRE(under);
  CHECK(under.value().size() > kMaxTraceFileBytes / 2);
  CHECK(ParseTrace(under.value(), "t").value().commits.size() ==
        kMaxTraceFileBytes / per_commit * 9 / 10);
}

TEST_CASE("trace: a truncated trace is refused as cut short") {
  const std::string text = Fixture();
  Result<Trace> t = ParseTrace(text.substr(0, text.size() / 2), "half.json");
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error().Message(),
             Catch::Contains("half.json") && Catch::Contains("cut short"));
}

TEST_CASE("trace: bad keys are refused by name") {
  CHECK(Refusal([](json&) {}).empty());
  CHECK_THAT(Refusal([](json& d) { d["schema"] = "alignbench-result"; }),
             Catch::Contains("'schema'"));
  CHECK_THAT(Refusal([](json& d) { d["version"] = kTraceVersion + 1; }),
             Catch::Contains("'version'") && Catch::Contains("record"));
  CHECK_THAT(Refusal([](json& d) { d["version"] = 0; }),
             Catch::Contains("'version'"));
  CHECK_THAT(Refusal([](json& d) { d.erase("commits"); }),
             Catch::Contains("'commits': missing"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][1]["ops"][0]["file"] = 3; }),
             Catch::Contains("commits[1].ops[0].file") &&
                 Catch::Contains("names no file"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][0]["ops"][0]["length"] = -1; }),
             Catch::Contains("commits[0].ops[0].length"));
  CHECK_THAT(Refusal([](json& d) {
               d["commits"][0]["ops"][0]["length"] = 1ull << 31;
             }),
             Catch::Contains("at most"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][0]["ops"][0]["length"] = 0; }),
             Catch::Contains("0 bytes"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][0]["ops"].erase(2); }),
             Catch::Contains("ends in a sync"));
  CHECK_THAT(
      Refusal([](json& d) { d["commits"][0]["ops"][2]["call"] = "sync"; }),
      Catch::Contains("commits[0].ops[2].call"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][0]["ops"][2]["op"] = "mmap"; }),
             Catch::Contains("expected one of write, read, stat, sync, "
                             "truncate, allocate, unlink, create, sync_dir"));
  // A sync_dir carries its call but ends no commit; an unlink has no call.
  CHECK_THAT(
      Refusal([](json& d) { d["commits"][0]["ops"][2]["op"] = "sync_dir"; }),
      Catch::Contains("ends in a sync"));
  CHECK_THAT(
      Refusal([](json& d) { d["commits"][0]["ops"][2]["op"] = "unlink"; }),
      Catch::Contains("commits[0].ops[2].call"));
  CHECK_THAT(Refusal([](json& d) { d["files"][0]["state"] = "old"; }),
             Catch::Contains("files[0].state"));
  CHECK_THAT(Refusal([](json& d) { d["header"]["file"] = 1; }),
             Catch::Contains("header.file"));
  CHECK_THAT(Refusal([](json& d) { d["program"]["argv"] = "sqlite3"; }),
             Catch::Contains("program.argv"));
  CHECK_THAT(Refusal([](json& d) {
               d["limits"] = json::array({std::string(5000, 'x')});
             }),
             Catch::Contains("limits[0]") && Catch::Contains("longer than"));
  CHECK_THAT(Refusal([](json& d) {
               const json one = d["files"][0];
               d["files"] = json::array();
               for (int i = 0; i < 65; ++i) d["files"].push_back(one);
             }),
             Catch::Contains("'files'"));
}

TEST_CASE("trace: what the format forbids is refused, what it allows read") {
  // Unknown keys at every level: an edited trace is not read as if it said
  // nothing.
  CHECK_THAT(Refusal([](json& d) { d["comment"] = "x"; }),
             Catch::Contains("key 'comment': unknown key in a trace"));
  CHECK_THAT(Refusal([](json& d) { d["program"]["pid"] = 7; }),
             Catch::Contains("key 'program.pid': unknown key"));
  CHECK_THAT(Refusal([](json& d) { d["files"][0]["mode"] = "0644"; }),
             Catch::Contains("key 'files[0].mode': unknown key"));
  CHECK_THAT(Refusal([](json& d) { d["header"]["offset"] = 0; }),
             Catch::Contains("key 'header.offset': unknown key"));
  CHECK_THAT(Refusal([](json& d) { d["commits"][0]["at"] = 1; }),
             Catch::Contains("key 'commits[0].at': unknown key"));
  CHECK_THAT(
      Refusal([](json& d) { d["commits"][0]["ops"][0]["call"] = "fsync"; }),
      Catch::Contains("key 'commits[0].ops[0].call': unknown key"));
  // A header is 1 to 512 bytes.
  CHECK_THAT(Refusal([](json& d) { d["header"]["bytes"] = 0; }),
             Catch::Contains("header.bytes': a header of 0 bytes"));
  CHECK_THAT(Refusal([](json& d) { d["header"]["bytes"] = 513; }),
             Catch::Contains("header.bytes': at most 512"));
  CHECK(Refusal([](json& d) { d["header"]["bytes"] = 512; }).empty());
  CHECK(Refusal([](json& d) { d["header"] = nullptr; }).empty());
  // Open flags as strace names them, or the bits it could not name.
  CHECK_THAT(Refusal([](json& d) { d["files"][0]["flags"][1] = "O_BANANA"; }),
             Catch::Contains("files[0].flags[1]': 'O_BANANA' is no open flag"));
  CHECK(
      Refusal([](json& d) { d["files"][0]["flags"][1] = "0x80000"; }).empty());
  // No extent ends past 1 TiB.
  CHECK_THAT(Refusal([](json& d) {
               d["commits"][0]["ops"][0]["offset"] = (1ull << 40) - 10;
               d["commits"][0]["ops"][0]["length"] = 24;
             }),
             Catch::Contains("the extent ends past 1 TiB"));
}

TEST_CASE("trace: a duplicate key is refused") {
  std::string text = Fixture();
  text.insert(text.find('{') + 1, "\"recorder\": \"x\",");
  Result<Trace> t = ParseTrace(text, "dup.json");
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error().Message(), Catch::Contains("duplicate key"));
}

TEST_CASE("trace: a missing file is refused with the path") {
  Result<Trace> t = ReadTraceFile("/nonexistent/trace.json");
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error().Message(), Catch::Contains("/nonexistent/trace.json"));
}

TEST_CASE("trace: truncates and allocations are read, written and bounded") {
  auto with = [](const json& op) {
    return [op](json& d) {
      auto& ops = d["commits"][1]["ops"];
      ops.insert(ops.begin(), op);
    };
  };
  const json truncate = {{"op", "truncate"}, {"file", 0}, {"length", 0}};
  const json allocate = {{"op", "allocate"},
                         {"file", 0},
                         {"offset", 4096},
                         {"length", 65536},
                         {"keep_size", true}};
  for (const json& op : {truncate, allocate}) {
    json doc = json::parse(Fixture());
    with(op)(doc);
    Result<Trace> t = ParseTrace(doc.dump(), "t.json");
    REQUIRE(t);
    CHECK(t.value().commits[1].ops.front().kind != OpKind::kWrite);
    CHECK(TraceToJson(t.value())["commits"][1]["ops"][0] == op);
  }
  json bad = allocate;
  bad.erase("keep_size");
  CHECK_THAT(Refusal(with(bad)), Catch::Contains("keep_size': missing"));
  bad = allocate;
  bad["keep_size"] = 1;
  CHECK_THAT(Refusal(with(bad)), Catch::Contains("expected true or false"));
  bad = allocate;
  bad["length"] = 0;
  CHECK_THAT(Refusal(with(bad)), Catch::Contains("an extent of 0 bytes"));
  bad = truncate;
  bad["offset"] = 0;
  CHECK_THAT(Refusal(with(bad)), Catch::Contains("offset': unknown key"));
  bad = truncate;
  bad["length"] = (1ull << 40) + 1;
  CHECK_THAT(Refusal(with(bad)), Catch::Contains("at most"));
}

TEST_CASE("trace: what tracing changed is kept, and read bounded") {
  Result<Trace> t = ParseTrace(Fixture(), "fixture");
  REQUIRE(t);
  // A version 1 trace has none: absent, not unknown.
  CHECK_FALSE(t.value().tracing);
  Trace trace = t.value();
  trace.tracing = TracingEffect{CounterWindow{2000, 400, 81920, 100},
                                CounterWindow{9000, 900, 92160, 180}, ""};
  Result<Trace> back = ParseTrace(TraceToJson(trace).dump(), "back");
  REQUIRE(back);
  REQUIRE(back.value().tracing);
  REQUIRE(back.value().tracing->untraced);
  CHECK(back.value().tracing->untraced->write_bytes == 81920);
  CHECK(back.value().tracing->traced->device_flushes == 180);
  // Not known: both windows null, and why.
  trace.tracing = TracingEffect{std::nullopt, std::nullopt, "no block device"};
  back = ParseTrace(TraceToJson(trace).dump(), "back");
  REQUIRE(back);
  CHECK_FALSE(back.value().tracing->traced);
  CHECK(back.value().tracing->unknown == "no block device");
  const json with = TraceToJson(trace);
  auto refused = [&with](const std::function<void(json&)>& edit) {
    json d = with;
    edit(d);
    Result<Trace> r = ParseTrace(d.dump(), "t.json");
    return r ? std::string() : r.error().Message();
  };
  CHECK_THAT(refused([](json& d) { d["tracing"]["seen"] = 1; }),
             Catch::Contains("tracing.seen"));
  CHECK_THAT(refused([](json& d) {
               d["tracing"]["traced"] = {{"milliseconds", 1},
                                         {"write_calls", -1},
                                         {"write_bytes", 0},
                                         {"device_flushes", 0}};
             }),
             Catch::Contains("tracing.traced.write_calls"));
  CHECK_THAT(refused([](json& d) { d["tracing"].erase("unknown"); }),
             Catch::Contains("tracing.unknown"));
}
