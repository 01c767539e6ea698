// What the printers show of a log-append workload, from what its result
// recorded (lib/result/report.h): the variants' headings, the bytes of a
// commit beside the device I/O, the rules on the settings line, the verdict
// in the variants' own names and the footer that says what they differ in.
// Derby's sweep gets its own words: "unaligned", "aligned", "shift 24 B".
#pragma once

#include <string>

#include "lib/result/report.h"

namespace alignbench {

// The heading of a variant's column: "unaligned", "padded", "recycled".
std::string Heading(const Report& report, Variant variant);

// "  asked 512 B, wrote 1024 B" where the variant recorded its bytes per
// commit (a log case); "" otherwise.
std::string CommitCell(const VariantResult& variant);

// "shift 24 B" for Derby's sweep; the rules and the contrast for a log case.
std::string RulesText(const Report& report);

// VerdictText with the runs a verdict needs as the result says.
std::string VerdictWords(const Report& report, const PairResult& pair);

// VerdictWords with a log case's labels: "padded faster" for "aligned faster".
std::string LabelledVerdict(const Report& report, const PairResult& pair);

// Footer lines for a log case: what the variants differ in; "" otherwise.
std::string LogFooter(const Report& report);

}  // namespace alignbench
