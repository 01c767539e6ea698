// One libFuzzer target for the parsers that take untrusted input. The first
// byte chooses the parser: an ASCII digit '0'..'4' (as the seed corpus has
// them) that parser, any other byte its value modulo 5; the rest of the input
// is handed to it:
//   0  a case file:   ApplyCaseText, then Validate and ExpandPlan
//   1  a result file: json::parse, FromJson (on the "alignbench" member when
//                     there is one), then Render in every format and ToJson
//   2  a size list:   ParseSizeList, then FormatSize/ParseByteSize round trip
//   3  a trace:       ParseTrace, then TraceToJson read back the same
//   4  strace output: ParseStrace, then its trace read back as a trace file
// Everything goes to memory: nothing here opens, writes or removes a file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>

#include "lib/config/case_file.h"
#include "lib/config/settings.h"
#include "lib/config/size.h"
#include "lib/config/trace_file.h"
#include "lib/render/writers.h"
#include "lib/result/result_json.h"
#include "lib/trace/strace_reader.h"

namespace {

using alignbench::Format;

// Crashes on a broken invariant so that libFuzzer keeps the input.
void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_parsers: invariant broken: %s\n", what);
    std::abort();
  }
}

void FuzzCaseText(const std::string& text) {
  alignbench::Settings settings;
  alignbench::Status applied =
      alignbench::ApplyCaseText(text, "fuzz-case.json", settings);
  if (!applied) {
    (void)applied.error().Message();
    return;
  }
  alignbench::Status valid = alignbench::Validate(settings);
  if (!valid) {
    (void)valid.error().Message();
    return;
  }
  const std::vector<alignbench::PairSpec> plan =
      alignbench::ExpandPlan(settings);
  Require(!plan.empty(), "a valid plan has at least one pair");
}

void FuzzResultJson(const std::string& text) {
  const nlohmann::json doc =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return;
  const nlohmann::json& object = doc.is_object() && doc.contains("alignbench")
                                     ? doc.at("alignbench")
                                     : doc;
  alignbench::Result<alignbench::Report> report =
      alignbench::FromJson(object, "fuzz-result.json");
  if (!report) {
    (void)report.error().Message();
    return;
  }
  for (const auto& format : alignbench::kFormats) {
    std::ostringstream out;
    alignbench::Render(out, report.value(), format.value);
  }
  // Serialized as `alignbench run --out` would; dump() throws on strings that
  // are not UTF-8, which libFuzzer then reports as an uncaught exception.
  const nlohmann::json again = alignbench::ToJson(report.value());
  (void)again.dump(1);
}

void FuzzSizeList(std::string_view text) {
  alignbench::Result<std::vector<std::uint64_t>> sizes =
      alignbench::ParseSizeList(text);
  if (!sizes) {
    (void)sizes.error().Message();
    return;
  }
  // size.h promises that FormatSize is an exact form ParseByteSize reads back.
  for (const std::uint64_t size : sizes.value()) {
    alignbench::Result<std::uint64_t> back =
        alignbench::ParseByteSize(alignbench::FormatSize(size));
    Require(back && back.value() == size,
            "ParseByteSize(FormatSize(size)) == size");
  }
}

void FuzzTrace(const std::string& text) {
  alignbench::Result<alignbench::Trace> trace =
      alignbench::ParseTrace(text, "fuzz-trace.json");
  if (!trace) {
    (void)trace.error().Message();
    return;
  }
  // What was read is written so that it reads back the same.
  const nlohmann::json once = alignbench::TraceToJson(trace.value());
  alignbench::Result<alignbench::Trace> again =
      alignbench::ParseTrace(once.dump(), "again");  // JSON read is UTF-8
  Require(again.ok(), "a trace written by TraceToJson is read back");
  Require(alignbench::TraceToJson(again.value()) == once,
          "TraceToJson(ParseTrace(TraceToJson(t))) == TraceToJson(t)");
}

void FuzzStrace(const std::string& text) {
  alignbench::Result<alignbench::Trace> trace =
      alignbench::ParseStrace(text, {});
  if (!trace) {
    (void)trace.error().Message();
    return;
  }
  // What the recorder would save; past the trace file's bounds it is refused
  // when read, never crashed on.
  // A path that is not UTF-8 is replaced, as record saves it.
  (void)alignbench::ParseTrace(
      alignbench::TraceToJson(trace.value())
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
      "recorded");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const int selector =
      data[0] >= '0' && data[0] <= '4' ? data[0] - '0' : data[0] % 5;
  switch (selector) {
    case 0:
      FuzzCaseText(rest);
      break;
    case 1:
      FuzzResultJson(rest);
      break;
    case 2:
      FuzzSizeList(rest);
      break;
    case 3:
      FuzzTrace(rest);
      break;
    default:
      FuzzStrace(rest);
      break;
  }
  return 0;
}
