#include "lib/result/json_histogram.h"

#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "lib/result/result_json.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

namespace {

// A report whose first pair's aligned variant carries histograms of 5000
// writes, as a real run's would.
Report WithHistograms() {
  Report r = testing::FixedReport();
  std::mt19937_64 rng(5);
  std::lognormal_distribution<double> dist(std::log(2e6), 0.4);
  std::vector<double> write, total;
  for (int k = 0; k < 5000; ++k) {
    write.push_back(std::round(dist(rng) / 100));
    total.push_back(write.back() + std::round(dist(rng)));
  }
  VariantResult& v = r.pairs[0].aligned;
  v.histograms.total_ns = HistogramOf(total);
  v.histograms.write_ns = HistogramOf(write);
  v.histograms.sync_ns = HistogramOf({});
  v.total_ns = v.histograms.total_ns.ToSummary();
  return r;
}

}  // namespace

TEST_CASE("Histograms survive the JSON round trip") {
  const Report original = WithHistograms();
  const nlohmann::json j = ToJson(original);
  const nlohmann::json& aligned = j.at("pairs")[0].at("aligned");
  CHECK(aligned.at("histograms").at("buckets_per_octave") == 128);
  CHECK(aligned.at("write_sync").at("percentile_relative_error") ==
        kPercentileRelativeError);
  CHECK(aligned.at("write_sync").contains("p99_9_ns"));
  CHECK_FALSE(aligned.at("write_sync").contains("p99_99_ns"));  // < 10000
  CHECK_FALSE(j.at("pairs")[0].at("unaligned").contains("histograms"));

  const Result<Report> back =
      FromJson(nlohmann::json::parse(j.dump()), "round trip");
  if (!back) FAIL(back.error().Message());
  CHECK(ToJson(back.value()) == j);
  const Histogram& before = original.pairs[0].aligned.histograms.total_ns;
  const Histogram& after = back.value().pairs[0].aligned.histograms.total_ns;
  CHECK(after.count == 5000);
  CHECK(after.sum_ns == before.sum_ns);
  CHECK(after.Percentile(0.999) == before.Percentile(0.999));
  CHECK(back.value().pairs[0].aligned.total_ns.p999 ==
        original.pairs[0].aligned.total_ns.p999);
}

TEST_CASE("Broken histograms are refused with the key that is wrong") {
  const nlohmann::json good = ToJson(WithHistograms());
  auto refused = [&good](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j.at("pairs")[0].at("aligned").at("histograms"));
    const Result<Report> r = FromJson(j, "h.json");
    return r.ok() ? std::string() : r.error().Message();
  };
  CHECK_THAT(refused([](auto& h) { h["write"]["buckets"][0][0] = 12345678; }),
             Catch::Contains("pairs[0].aligned.histograms.write.buckets[0]"));
  CHECK_THAT(refused([](auto& h) { h["write_sync"]["count"] = 1; }),
             Catch::Contains("do not add up"));
  CHECK_THAT(refused([](auto& h) { h["buckets_per_octave"] = 64; }),
             Catch::Contains("buckets_per_octave"));
  CHECK_THAT(refused([](auto& h) {
               h["sync"]["buckets"] = {{5, 1}, {3, 1}};
             }),
             Catch::Contains("out of order"));
  CHECK_THAT(refused([](auto& h) { h.erase("sync"); }),
             Catch::Contains("histograms.sync"));
  // Counts that add up to 2^64 + count wrap round to count in 64 bits.
  CHECK_THAT(refused([](auto& h) {
               auto& b = h["write_sync"]["buckets"];
               const std::uint64_t first = b[0][1];
               const std::uint64_t second = b[1][1];
               b[0][1] = std::numeric_limits<std::uint64_t>::max();
               b[1][1] = first + second + 1;
             }),
             Catch::Contains("do not add up"));
}

TEST_CASE("Number arrays on one line: the same document, smaller") {
  Report r = WithHistograms();
  r.command_line = {"alignbench", "--dir", "/tmp/[1,\n 2]", "say \"[3, 4]\""};
  const nlohmann::json j = ToJson(r);
  const std::string pretty = j.dump(1);
  const std::string compact = OneLineNumberArrays(pretty);
  CHECK(nlohmann::json::parse(compact) == j);
  CHECK(compact.size() * 3 < pretty.size() * 2);
  CHECK_THAT(compact, Catch::Contains("\"sizes_bytes\": [65536, 4096]"));
  // A histogram's buckets, an array of [lower, count], take one line.
  const std::size_t buckets = compact.find("\"buckets\": [[");
  REQUIRE(buckets != std::string::npos);
  CHECK(compact.find("]]", buckets) < compact.find('\n', buckets));
  CHECK(OneLineNumberArrays("[]") == "[]");
  CHECK(OneLineNumberArrays("[\n [\n  1,\n  2\n ],\n \"a\"\n]") ==
        "[\n [1, 2],\n \"a\"\n]");
  CHECK(OneLineNumberArrays("[\n [\n  1,\n  2\n ],\n [\n  3\n ]\n]") ==
        "[[1, 2], [3]]");
  // Arrays of empty arrays or of strings are left as they are.
  CHECK(OneLineNumberArrays("[\n []\n]") == "[\n []\n]");
  CHECK(OneLineNumberArrays("{\"a\": [\n \"[1]\"\n]}") ==
        "{\"a\": [\n \"[1]\"\n]}");
}
