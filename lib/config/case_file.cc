#include "lib/config/case_file.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "lib/base/json_parse.h"
#include "lib/config/options.h"
#include "lib/io/file_io.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

using nlohmann::json;

Error CaseError(const std::string& origin, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "case file " + origin, why);
}

constexpr const char* kLogKey = "log";

// The names a case file may use, for the error about an unknown one.
std::string CaseKeys() {
  std::string keys = kLogKey;
  for (const Option& option : SettingOptions()) {
    if (option.case_key.empty()) continue;
    keys += ", " + std::string(option.case_key);
  }
  return keys;
}

const Option* CaseOption(const std::string& key) {
  for (const Option& option : SettingOptions()) {
    if (!option.case_key.empty() && option.case_key == key) return &option;
  }
  return nullptr;
}

// A file contrast sets each variant's layout itself; its recycled file is
// not cached, so the pair's cache is cold.
Status ValidateLogSettings(const Settings& s) {
  if (!s.log) return Ok{};
  if (Status ok = ValidateLog(*s.log); !ok) return ok;
  const bool file_axes = s.layouts == std::vector{Layout::kExtend} &&
                         s.caches == std::vector{CacheState::kCold};
  if (s.log->contrast == LogContrast::kFile && !file_axes) {
    return PlainError(ErrorKind::kUsage, "log rules",
                      "a file contrast sets each variant's layout: leave "
                      "--layout at extend, and --cache cold (a recycled file "
                      "is not cached)");
  }
  return Ok{};
}

}  // namespace

Status ApplyCaseText(const std::string& text, const std::string& origin,
                     Settings& settings) {
  Result<json> parsed = ParseJsonStrict(text);
  if (!parsed) return CaseError(origin, parsed.error().detail);
  const json doc = std::move(parsed).value();
  if (!doc.is_object()) {
    return CaseError(origin, "expected a JSON object at the top");
  }
  Settings next = settings;
  for (const auto& [key, value] : doc.items()) {
    // The log writer's rules are an object with keys of their own, read by
    // their own parser (lib/config/log_rules.h); every other key is a row of
    // the option table.
    if (key == kLogKey) {
      Result<LogWorkload> log =
          ParseLogCase(value, origin, next.log.value_or(LogWorkload{}));
      if (!log) return log.error();
      next.log = std::move(log).value();
      continue;
    }
    const Option* option = CaseOption(key);
    if (option == nullptr) {
      return CaseError(
          origin, "key '" + key + "': unknown key (known: " + CaseKeys() + ")");
    }
    if (Status applied =
            ApplyOption(*option, value, FromCaseFile(origin, key), next);
        !applied) {
      return applied;
    }
  }
  settings = std::move(next);
  return Ok{};
}

Status ApplyCaseFile(const std::string& path, Settings& settings) {
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kUsage, kMaxCaseFileBytes);
  if (!text) {
    Error error = text.error();
    error.operation += " case file";
    error.hint = "--case takes a JSON file such as cases/derby-2004.json";
    return error;
  }
  return ApplyCaseText(text.value(), path, settings);
}

namespace {

// What writer threads or writes in flight make a group of (1: neither).
std::uint64_t CommitsTogether(const Settings& s) {
  return std::max(s.writers, s.queue_depth);
}

// The option that made the group, for its errors.
std::string_view GroupOption(const Settings& s) {
  return s.writers > 1       ? "writers"
         : s.queue_depth > 1 ? "queue-depth"
                             : "commits-per-sync";
}

// A rule broken by the group, named by the option that made it.
SettingsRule GroupRule(const Settings& s, std::vector<std::string_view> reads,
                       std::string why) {
  const std::string_view group = GroupOption(s);
  if (std::find(reads.begin(), reads.end(), group) == reads.end()) {
    reads.insert(reads.begin(), group);
  }
  return {"--" + std::string(group), std::move(reads), std::move(why)};
}

// A group commit shares one sync call among its commits: it needs a sync
// method that makes one. Writer threads and writes in flight make a group
// too, of their own count, which a --commits-per-sync above 1 must match.
std::optional<SettingsRule> GroupShapeRule(const Settings& s) {
  if (CommitsPerStep(s) == 1) return std::nullopt;
  if (s.replay) {
    return GroupRule(s, {"replay"},
                     "a replay writes and syncs as its program did");
  }
  if (s.writers > 1 && s.queue_depth > 1) {
    return GroupRule(s, {"writers", "queue-depth"},
                     "threads or writes in flight, not both: --queue-depth 1");
  }
  const std::uint64_t together = CommitsTogether(s);
  if (together > 1 && s.commits_per_sync != 1 &&
      s.commits_per_sync != together) {
    return GroupRule(s, {"commits-per-sync"},
                     "a group is one commit per writer or per write in "
                     "flight: --commits-per-sync 1 or " +
                         std::to_string(together));
  }
  if (s.commits_per_sync > 1 && s.log &&
      s.log->rules.fill_sync == FillSync::kBoundary) {
    return GroupRule(s, {"commits-per-sync"},
                     "this log syncs inside every commit (at the sector "
                     "boundary its fill reaches): its commits share no sync; "
                     "--commits-per-sync 1");
  }
  for (SyncMethod sync : s.syncs) {
    if (s.commits_per_sync > 1 && !HasSyncCall(sync)) {
      return GroupRule(s, {"commits-per-sync", "sync"},
                       "needs a sync call to share: --sync " +
                           std::string(NameOf(kSyncMethods, sync)) +
                           " makes none (use fsync or fdatasync)");
    }
  }
  return std::nullopt;
}

// --group-commit K: a leader's one write of a group's records, then one
// sync. A group holds a commit at least; it is one group shape, not another
// besides; a replay's groups are its program's, in its trace.
std::optional<SettingsRule> GroupCommitRule(const Settings& s) {
  if (!s.group_commit) return std::nullopt;
  if (*s.group_commit < 1) {
    return SettingsRule{"--group-commit",
                        {"group-commit"},
                        "a group holds one commit or more: K of at least 1 "
                        "(an engine's commits per sync)"};
  }
  if (s.replay) {
    return SettingsRule{"--group-commit",
                        {"group-commit", "replay"},
                        "a replay writes and syncs as its program did: "
                        "record the engine under its clients, and its trace "
                        "holds its groups"};
  }
  if (CommitsPerStep(s) > 1) {
    return SettingsRule{
        "--group-commit",
        {"group-commit", GroupOption(s)},
        "one group shape: a leader's one write of the group "
        "(--group-commit) or a write per commit before a shared sync (--" +
            std::string(GroupOption(s)) + "), not both"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> GroupShapeWarning(const Settings& s) {
  const bool direct = std::any_of(s.ios.begin(), s.ios.end(), [](IoMode io) {
    return io == IoMode::kDirect;
  });
  if (s.commits_per_sync <= 1 || s.writers > 1 || s.queue_depth > 1 ||
      !direct) {
    return std::nullopt;
  }
  const std::string n = std::to_string(s.commits_per_sync);
  return "--commits-per-sync " + n +
         " writes each commit with a write of its "
         "own, " +
         n +
         " writes before one sync; an engine whose log is "
         "written with O_DIRECT (MariaDB's InnoDB redo, PostgreSQL's WAL with "
         "open_datasync) groups its commits as one write of the group's "
         "records by its leader, then one sync (docs/engines.md): "
         "--group-commit " +
         n + " measures that";
}

namespace {

// The group's writes: how they may be written at once.
std::optional<SettingsRule> GroupWritesRule(const Settings& s) {
  const std::uint64_t n = CommitsPerStep(s);
  if (s.writes % n != 0 || s.warmup % n != 0) {
    return GroupRule(s, {"writes", "warmup"},
                     "--writes (" + std::to_string(s.writes) +
                         ") and --warmup (" + std::to_string(s.warmup) +
                         ") count commits: each a multiple of " +
                         std::to_string(n));
  }
  const auto buffered = [&s] {
    return std::any_of(s.ios.begin(), s.ios.end(),
                       [](IoMode io) { return io != IoMode::kDirect; });
  };
  if (s.queue_depth > 1 && buffered()) {
    return SettingsRule{"--queue-depth",
                        {"queue-depth", "io"},
                        "keeps direct-I/O writes in flight: add --io direct"};
  }
  if (s.writers > 1 && s.direct_unaligned == DirectUnaligned::kStage) {
    return SettingsRule{"--writers",
                        {"writers", "direct-unaligned"},
                        "a staged write starts with the block the write "
                        "before ended in: one writer (--queue-depth keeps "
                        "staged writes in flight)"};
  }
  return std::nullopt;
}

// RWF_ATOMIC on every timed write: a direct write the program makes.
std::optional<SettingsRule> AtomicRule(const Settings& s) {
  if (s.atomic != AtomicWrites::kOn) return std::nullopt;
  if (s.replay) {
    return SettingsRule{"--atomic on",
                        {"atomic", "replay"},
                        "a replay writes as its program did"};
  }
  for (IoMode io : s.ios) {
    if (io != IoMode::kDirect) {
      return SettingsRule{"--atomic on",
                          {"atomic", "io"},
                          "RWF_ATOMIC needs direct I/O: add --io direct"};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<SettingsRule> BrokenRule(const Settings& s) {
  if (auto broken = GroupCommitRule(s)) return broken;
  if (auto broken = GroupShapeRule(s)) return broken;
  if (auto broken = GroupWritesRule(s)) return broken;
  return AtomicRule(s);
}

Status Validate(const Settings& s) {
  for (const Option& option : SettingOptions()) {
    if (Status ok = CheckOption(option, s); !ok) return ok;
  }
  if (s.budget_seconds && s.repetitions < kMinRunsForVerdict) {
    return PlainError(ErrorKind::kUsage, "option --budget",
                      "plans its rounds from the first round's blocks: "
                      "--repetitions must be at least " +
                          std::to_string(kMinRunsForVerdict));
  }
  if (Status ok = ValidateLogSettings(s); !ok) return ok;
  if (auto broken = BrokenRule(s)) {
    return PlainError(ErrorKind::kUsage, "option " + broken->option,
                      broken->why);
  }
  // Every bound above holds and the plan can still be absurd: say what it
  // would cost. Products in double: they cannot overflow.
  constexpr double kMaxOperations = 1e9;
  const double pairs = static_cast<double>(ExpandPlan(s).size());
  const double operations = pairs * 2 * static_cast<double>(s.repetitions) *
                            static_cast<double>(s.writes + s.warmup);
  if (operations > kMaxOperations) {
    char cost[160];
    std::snprintf(cost, sizeof cost,
                  "%.0f pairs x 2 variants x %llu repetitions x %llu writes "
                  "(warmup included) is %.3g synced writes, more than 1e9",
                  pairs, static_cast<unsigned long long>(s.repetitions),
                  static_cast<unsigned long long>(s.writes + s.warmup),
                  operations);
    return PlainError(
        ErrorKind::kUsage, "plan",
        std::string(cost) +
            "; use fewer --sizes, axes, --repetitions or --writes");
  }
  return Ok{};
}

}  // namespace alignbench
