// The cells of the printers' columns.
#include "lib/render/cells.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE("JavaDouble prints the shortest round-trip digits with a decimal") {
  CHECK(JavaDouble(10.0) == "10.0");
  CHECK(JavaDouble(18.359375) == "18.359375");
  CHECK(JavaDouble(3.09423347398031) == "3.09423347398031");
  CHECK(JavaDouble(-0.8169219547775413) == "-0.8169219547775413");
  CHECK(JavaDouble(0.5) == "0.5");
}

TEST_CASE("Sizes print as Derby did, and cells pad to their column") {
  CHECK(SizeColumn(4096) == "4");
  CHECK(SizeColumn(65536) == "64");
  // Not whole KiB: bytes with their unit, never a bare number that reads as
  // KiB (--sizes 512,512K printed two rows "512").
  CHECK(SizeColumn(512) == "512B");
  CHECK(SizeColumn(524288) == "512");
  CHECK(SizeColumn(1536) == "1536B");
  CHECK(Pad("ab", 4) == "  ab");
  CHECK(Pad("abcdef", 4) == "abcdef");
}

namespace {

// A pair whose interval of the typical gain is [+16.8, +63.7] around +40, as a
// cold read-modify-write pair was, with each variant's write+sync times.
PairResult ApartPair(double means_gain, std::vector<double> unaligned_ns,
                     std::vector<double> aligned_ns) {
  PairResult p;
  p.spec.size = 131072;
  p.means_gain_pct = means_gain;
  p.inference.test = GainTest{TestMethod::kSignedRankLogMedian,
                              40.0,
                              {16.8, 63.7},
                              0.03,
                              std::nullopt,
                              6};
  p.unaligned.repetitions = p.aligned.repetitions = 6;
  p.unaligned.total_ns = Summarize(std::move(unaligned_ns));
  p.aligned.total_ns = Summarize(std::move(aligned_ns));
  return p;
}

}  // namespace

TEST_CASE("cells: the gain shown is the interval's centre, Derby's apart") {
  const PairResult p = ApartPair(-3.49, {2e6, 2e6, 2e6}, {1e6, 1e6, 9e6});
  CHECK(TypicalGainCell(p) == "+40.00");
  CHECK(GainOrMeansCell(p) == "+40.0");
  CHECK(MeansGainCell(p) == "-3.49");

  PairResult no_test = p;
  no_test.inference = {std::nullopt, "5 runs: a verdict needs 6"};
  CHECK(TypicalGainCell(no_test) == "n/a");
  CHECK(GainOrMeansCell(no_test) == "-3.5");
}

TEST_CASE("cells: means outside the interval name the slow tail, with p99s") {
  // Below the interval: the aligned mean is pulled up by its slow writes.
  const PairResult below = ApartPair(-3.49, {2e6, 2e6, 2e6}, {1e6, 1e6, 9e6});
  CHECK(MeansApartNote(below, "unaligned", "aligned") ==
        "means %gain -3.49 lies outside the interval: aligned's slow tail "
        "raises its mean (p99 8.840 ms against unaligned's 2.000 ms)");
  // Above it, the unaligned one, named as the report heads it.
  const PairResult above = ApartPair(80.0, {1e6, 1e6, 9e6}, {1e6, 1e6, 1e6});
  CHECK(MeansApartNote(above, "unpadded", "padded") ==
        "means %gain +80.00 lies outside the interval: unpadded's slow tail "
        "raises its mean (p99 8.840 ms against padded's 1.000 ms)");
  // No slower tail to name: the means and the runs' medians weigh apart.
  const PairResult no_tail = ApartPair(80.0, {1e6, 1e6, 1e6}, {1e6, 1e6, 1e6});
  CHECK(MeansApartNote(no_tail, "unaligned", "aligned") ==
        "means %gain +80.00 lies outside the interval: a mean weighs every "
        "write, the interval each run's median (unaligned: mean 1.000 ms, "
        "median 1.000 ms)");
  // Inside the interval, or with none, there is nothing to say.
  CHECK(MeansApartNote(ApartPair(40.0, {1e6}, {1e6}), "u", "a").empty());
  PairResult no_test = below;
  no_test.inference = {std::nullopt, "no test"};
  CHECK(MeansApartNote(no_test, "u", "a").empty());
}

TEST_CASE("cells: sizes next to each other in the plan are one range") {
  const std::vector<std::uint64_t> all = {1024, 2048, 4096, 8192, 65536};
  CHECK(SizeRanges({8192, 1024, 2048, 65536}, all) == "1K-2K, 8K-64K");
  CHECK(SizeRanges({4096}, all) == "4K");
  CHECK(SizeRanges({}, all).empty());
}

TEST_CASE("cells: one unit rule for a size, Derby's rows aside") {
  CHECK(SizeText(4096) == "4K");
  CHECK(SizeText(512 * 1024) == "512K");
  CHECK(SizeText(1 << 20) == "1M");
  CHECK(SizeText(256) == "256B");
  CHECK(SizeText(4201) == "4201B");  // a replay's bytes per commit
  CHECK(SizeColumn(4096) == "4");    // Derby's rows, as the list printed them
}

TEST_CASE("CSV fields: formulas stay text, numbers keep their sign") {
  CHECK(CsvField("plain") == "plain");
  CHECK(CsvField("a,b") == "\"a,b\"");
  CHECK(CsvField("=1+2") == "\"'=1+2\"");
  CHECK(CsvField("+1") == "\"'+1\"");
  CHECK(CsvField("-cmd|' /C calc'!A0") == "\"'-cmd|' /C calc'!A0\"");
  CHECK(CsvField("@SUM(A1)") == "\"'@SUM(A1)\"");
  CHECK(CsvField("a=b") == "a=b");
  CHECK(CsvField("\t=1") == "\\t=1");  // escaped: no longer a tab first
}

TEST_CASE("Markdown text: markup is shown, comparisons are kept") {
  CHECK(MarkdownText("</summary></details>") == "&lt;/summary>&lt;/details>");
  CHECK(MarkdownText("p < 0.01, 1<2") == "p < 0.01, 1<2");
  CHECK(MarkdownText("<!-- c --> <?x <a") == "&lt;!-- c --> &lt;?x &lt;a");
  CHECK(MarkdownText("&amp; & &#60;") == "&amp;amp; & &amp;#60;");
  CHECK(MarkdownCell("a|<b>") == "a\\|&lt;b>");
  CHECK(MarkdownCode("a`b") == "``a`b``");
  CHECK(MarkdownCode("`a") == "`` `a ``");
}
