// A case file read over Settings, and the settings checked as a whole. Case
// files are JSON; every key is a row of the option table (options.h) or the
// log rules, every key is checked and an error names the file, the key and
// the type expected. Validation turns bad combinations into one clear usage
// error. Apart from settings.h so that the option table, which names the
// fields of Settings, is never included by the file that defines them.
#pragma once

#include <cstdint>
#include <string>

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

// Bounds that keep a plan finite: --budget at most a week, --precision at
// least 0.01 points, a --dir that leaves room for the test file's name within
// PATH_MAX, and at most 1e9 write operations in the whole plan (refused with
// what it would cost).
Status Validate(const Settings& settings);

}  // namespace alignbench
