// What a result records for its printers (RecordForPrinters).
#include "lib/result/report.h"

#include <catch2/catch.hpp>

#include "lib/pairs/explain.h"
#include "tests/unit/report_fixture.h"

using namespace alignbench;

TEST_CASE("A log case's words and bytes per commit are recorded") {
  Report r = testing::FixedReport();
  CHECK_FALSE(r.log_words);  // Derby's sweep has no log words
  CHECK_FALSE(r.pairs[0].unaligned.per_commit);
  r.settings.log =
      testing::FromCase(R"({"log": {"contrast": "pad", "aligned": "4K"}})").log;
  RecordForPrinters(r);
  REQUIRE(r.log_words);
  CHECK(r.log_words->unaligned_label == "unpadded");
  CHECK(r.log_words->aligned_label == "padded");
  CHECK(r.log_words->contrast == "pad");
  CHECK_THAT(r.log_words->rules, Catch::EndsWith("contrast pad 4096 B"));
  REQUIRE(r.pairs[0].aligned.per_commit);
  CHECK(r.pairs[0].aligned.per_commit->asked ==
        static_cast<double>(r.pairs[0].spec.size));
}

TEST_CASE("What is recorded already is kept") {
  Report r = testing::FixedReport();
  REQUIRE_FALSE(r.pairs[0].mechanisms.empty());
  CHECK(r.pairs[0].mechanisms == MechanismsOf(r.pairs[0]));
  r.pairs[0].mechanisms = {Mechanism::kBusyDisk};
  r.pairs[0].unaligned.per_commit = CommitBytes{1, 2};
  r.settings.log = testing::FromCase(R"({"log": {"header": 32}})").log;
  r.log_words = LogCaseWords{"then", "now", "rules then", "framing", "x"};
  RecordForPrinters(r);
  CHECK(r.pairs[0].mechanisms == std::vector<Mechanism>{Mechanism::kBusyDisk});
  CHECK(r.pairs[0].unaligned.per_commit->written == 2);
  CHECK(r.log_words->rules == "rules then");
}

TEST_CASE("A pair that was not measured has no mechanism") {
  Report r = testing::FixedReport();
  r.pairs[0] = PairResult{};
  RecordForPrinters(r);
  CHECK(r.pairs[0].mechanisms.empty());
}
