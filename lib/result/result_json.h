// The `alignbench` object of a result file (schema
// results/schema/alignbench-result.schema.json) and its way back. Keys carry
// their units (mean_ns, size_bytes); unknown facts are absent.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/error.h"
#include "lib/result/report.h"

namespace alignbench {

nlohmann::json ToJson(const Report& report);

// The result file's "environment" object: host and target as probed.
nlohmann::json EnvironmentJson(const TargetInfo& target);

// Reads an `alignbench` object back; errors name `origin` and the key that is
// wrong.
Result<Report> FromJson(const nlohmann::json& object,
                        const std::string& origin);

// Larger result files are refused unread (a full plan is a few MiB).
constexpr std::uint64_t kMaxResultFileBytes = 64u << 20;

// Reads a whole result file ({"context", "benchmarks", "alignbench"}) and
// checks that it is ours and not from a newer schema. With `document`, the
// file's whole JSON as it was read lands there too (for --format json).
Result<Report> LoadResultFile(const std::string& path,
                              nlohmann::json* document = nullptr);

// A result document ({"context", "benchmarks", "alignbench"}) as its file
// holds it: one space an indent, arrays of numbers (histograms) on one line,
// a newline at the end, text that is not UTF-8 replaced. `ascii`: every
// character past ASCII as a \u escape, the same JSON, for standard output,
// where C1 and bidirectional controls must not reach a terminal raw.
std::string ResultDocumentText(const nlohmann::json& document, bool ascii);

}  // namespace alignbench
