// What the printers show of a log-append workload: the bytes of a commit
// beside the device I/O, the rules on the settings line, the verdict in the
// variants' own names and the footer that says what the variants differ in.
#pragma once

#include <string>

#include "lib/result/report.h"

namespace alignbench {

// "asked 512 B, wrote 1024 B" for a log case; "" for Derby's sweep.
std::string CommitCell(const Settings& settings, const PairSpec& pair,
                       Variant variant);

// "shift 24 B" for Derby's sweep; the rules and the contrast for a log case.
std::string RulesText(const Settings& settings);

// VerdictText with a log case's labels: "padded faster" for "aligned faster".
std::string LabelledVerdict(const Settings& settings, const PairResult& pair);

// Footer lines for a log case: what the variants differ in; "" otherwise.
std::string LogFooter(const Settings& settings);

}  // namespace alignbench
