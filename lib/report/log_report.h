// What the report says about a log-append workload (lib/config/log_rules.h):
// the variants' column labels, the bytes asked for and written per commit
// (from the writer's rules, not measured: the pattern is deterministic), the
// explanation that names the mechanism, and the JSON fields that carry the
// rules. Sees results and settings, never a descriptor.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/report/report.h"

namespace alignbench {

// Per timed commit of one variant of a pair.
struct CommitBytes {
  double asked = 0;
  double written = 0;
};
CommitBytes PerCommit(const Settings& settings, const PairSpec& pair,
                      Variant variant);

// The heading of a variant's column: "unaligned", "padded", "recycled".
std::string ColumnLabel(const Settings& settings, Variant variant);

// "asked 512 B, wrote 1024 B" for a log case; "" for Derby's sweep.
std::string CommitCell(const Settings& settings, const PairSpec& pair,
                       Variant variant);

// "shift 24 B" for Derby's sweep; the rules and the contrast for a log case.
std::string RulesText(const Settings& settings);

// VerdictText with a log case's labels: "padded faster" for "aligned faster".
std::string LabelledVerdict(const Settings& settings, const PairResult& pair);

// Footer lines for a log case: what the variants differ in; "" otherwise.
std::string LogFooter(const Settings& settings);

// Replaces the explanation of each measured pair of a log case with one that
// names the mechanism: read-on-write, the tail block written twice, padding
// bytes, journal commits of a growing file. Derby's sweep is left alone.
void ExplainLogPairs(const Settings& settings, std::vector<PairResult>& pairs);

// Adds settings.log and each pair's per_commit to a result's JSON object.
void AddLogJson(const Report& report, nlohmann::json& alignbench);

// Reads settings.log back (absent in Derby's sweep and in version 1/2 files
// written before it existed).
Status ReadLogSettings(const nlohmann::json& alignbench,
                       const std::string& origin, Settings& settings);

}  // namespace alignbench
