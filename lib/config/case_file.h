// A case file read over Settings, and the settings checked as a whole. Case
// files are JSON; every key is a row of the option table (options.h) or the
// log rules, every key is checked and an error names the file, the key and
// the type expected. Validation turns bad combinations into one clear usage
// error. Apart from settings.h so that the option table, which names the
// fields of Settings, is never included by the file that defines them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"

namespace alignbench {

// A case file is a page of JSON; anything larger is refused unread.
constexpr std::uint64_t kMaxCaseFileBytes = 1 << 20;

// Reads a case file over `settings`; only keys present in the file change
// anything.
Status ApplyCaseFile(const std::string& path, Settings& settings);
// The same from JSON text (fuzzing and tests); `origin` names it in errors.
Status ApplyCaseText(const std::string& text, const std::string& origin,
                     Settings& settings);

// A rule across settings that every run keeps, so that a result file, whose
// settings describe a run, keeps it too: a group of commits (writer threads,
// writes in flight, --commits-per-sync) and its writes, atomic writes. The
// command line and case files are held to it by Validate, result files by
// their reader.
struct SettingsRule {
  // The option the error names, as on the command line: "--atomic on".
  std::string option;
  // The settings the rule reads, by their command-line names (FindOption);
  // "replay" is --replay's trace.
  std::vector<std::string_view> reads;
  // What the rule says, and what to change on the command line.
  std::string why;
};

// Where a group setting is not what an engine does, in words: N writes to
// one sync (--commits-per-sync) on a direct-I/O log, which engines write by
// one write of the group (--group-commit). The result's warnings say it.
std::optional<std::string> GroupShapeWarning(const Settings& settings);

// The first rule `settings` break, or none.
std::optional<SettingsRule> BrokenRule(const Settings& settings);

// Bounds that keep a plan finite: --budget at most a week, --precision at
// least 0.01 points, a --dir that leaves room for the test file's name within
// PATH_MAX, at most 1e9 write operations in the whole plan (refused with
// what it would cost), and no BrokenRule.
Status Validate(const Settings& settings);

}  // namespace alignbench
