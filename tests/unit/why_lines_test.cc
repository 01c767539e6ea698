// The why-lines: a sentence every pair says is said once for the table.
#include "lib/render/why_lines.h"

#include <catch2/catch.hpp>

#include "lib/pairs/explain.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;
using namespace alignbench::testing;

namespace {

PairResult Measured(std::uint64_t size, const std::string& explanation) {
  PairResult p;
  p.spec = kFsync4K;
  p.spec.size = size;
  p.unaligned = FixedVariant(2.0, 1.0, 8.0);
  p.aligned = FixedVariant(1.0, 0.0, 4.0);
  p.means_gain_pct = 100.0;
  p.explanation = explanation;
  return p;
}

}  // namespace

TEST_CASE("An explanation is cut at its full stops, not inside a figure") {
  CHECK(Sentences("") == std::vector<std::string>{});
  CHECK(Sentences("about 12.4 writes. Metadata commits: x.") ==
        std::vector<std::string>{"about 12.4 writes.", "Metadata commits: x."});
  CHECK(Sentences("no stop at the end") ==
        std::vector<std::string>{"no stop at the end"});
}

TEST_CASE(
    "A sentence every measured pair says is said once, the rest per size") {
  const std::vector<PairResult> pairs = {
      Measured(
          4096,
          "both: about 3.0 writes. Gloss. No significant time difference."),
      Measured(8192, "both: about 3.5 writes. Gloss."),
      Measured(512, "unaligned: +1.0 reads. Gloss."),
  };
  const WhyLines why = WhyLinesOf(pairs, 0, pairs.size());
  CHECK(why.common == std::vector<std::string>{"Gloss."});
  REQUIRE(why.per_size.size() == 3);
  CHECK(why.per_size[0] ==
        std::pair<std::string, std::string>{
            "4K", "both: about 3.0 writes. No significant time difference."});
  CHECK(why.per_size[1].second == "both: about 3.5 writes.");
  CHECK(why.per_size[2] ==
        std::pair<std::string, std::string>{"512B", "unaligned: +1.0 reads."});
}

TEST_CASE("One pair, or a pair not measured, keeps its whole line") {
  const std::vector<PairResult> one = {Measured(4096, "A. B.")};
  const WhyLines alone = WhyLinesOf(one, 0, 1);
  CHECK(alone.common.empty());
  CHECK(alone.per_size.front().second == "A. B.");

  std::vector<PairResult> pairs = {
      Measured(4096, "A. B."), Measured(8192, "A. C."), Measured(512, "A. D.")};
  pairs[2].aligned.repetitions = 0;  // stopped by an error: its text is its own
  pairs[2].means_gain_pct.reset();
  pairs[2].explanation = "aligned writes were stopped by an error: EIO. A.";
  const WhyLines why = WhyLinesOf(pairs, 0, pairs.size());
  CHECK(why.common == std::vector<std::string>{"A."});
  CHECK(why.per_size[2].second == pairs[2].explanation);
  // Only the pairs in [from, to) are weighed.
  CHECK(WhyLinesOf(pairs, 1, 2).common.empty());
}

TEST_CASE("A metadata-commit pair's gloss is a sentence of its own") {
  PairResult p = Measured(4096, "");
  p.unaligned.device = DevicePerOp{0.0, 0.0, 3.0, 12.0, 1.0};
  p.aligned.device = DevicePerOp{0.0, 0.0, 3.0, 12.0, 1.0};
  const std::vector<std::string> sentences = Sentences(Explain(p, 24));
  CHECK(
      std::count(sentences.begin(), sentences.end(),
                 "Metadata commits: what the filesystem writes besides the "
                 "data at each sync (the inode and the block allocation), "
                 "through a journal (ext4, xfs) or as new copies of its trees "
                 "(btrfs).") == 1);
}

TEST_CASE("The shared why says each figure as a range, and who says more") {
  std::vector<PairResult> pairs = {
      Measured(4096, "shifted: +1.5 KiB written. both: 3.0 writes."),
      Measured(8192, "shifted: +4.0 KiB written. both: 3.0 writes. More."),
      Measured(16384, "shifted: +0.5 KiB written. both: 3.0 writes.")};
  SharedWhy why = SharedWhyOf(pairs, 0, pairs.size());
  // The smallest and largest by value, each as printed; a figure that is the
  // same everywhere once.
  CHECK(why.text == "shifted: +0.5 to 4.0 KiB written. both: 3.0 writes.");
  CHECK(why.saying_more == std::vector<std::uint64_t>{8192});
  // A sentence one pair lacks is no one's shared why.
  pairs[2].explanation = "both: 3.0 writes.";
  why = SharedWhyOf(pairs, 0, pairs.size());
  CHECK(why.text == "both: 3.0 writes.");
  CHECK(why.saying_more == std::vector<std::uint64_t>{4096, 8192});
  // One pair alone: its whole explanation.
  CHECK(SharedWhyOf(pairs, 1, 2).text == pairs[1].explanation);
  CHECK(SharedWhyOf(pairs, 1, 2).saying_more.empty());
}
