// The keys of the result's objects that hold plain values (numbers, text,
// lists of text, yes/no, and names from a name table), each spelled once: the
// writer (json_write.cc) and the reader (json_read.cc) walk the same table, so
// that a new figure of these objects is one line here, beside its member,
// plus its property in the result schema
// (results/schema/alignbench-result.schema.json;
// tests/unit/result_fields_test.cc fails while the two differ). Where an object
// also holds objects, or values derived as they are read or written, the table
// lists its plain keys and the rest are written and read by hand; the test
// names those too. CONTRIBUTING.md shows the whole change.
#pragma once

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>

#include "lib/base/named.h"
#include "lib/config/log_rules.h"
#include "lib/config/replay.h"
#include "lib/config/settings.h"
#include "lib/pairs/pair_result.h"
#include "lib/result/report.h"
#include "lib/stats/compare.h"
#include "lib/stats/sequential.h"
#include "lib/stats/summary.h"

namespace alignbench {

// When a field is in the file.
enum class Presence {
  kAlways,     // written always, required when read
  kIfKnown,    // a double: absent where unknown (NaN), NaN where absent
  kIfNonZero,  // a number or a list: absent where 0 or empty, so where absent
  kOptional,   // a std::optional: absent where empty
  // Written always; a file from before the key (an older version) lacks it
  // and reads the member's default. The schema may require it or not.
  kDefaulted,
};

// A member of S under its JSON key.
template <typename S, typename T>
struct Field {
  const char* key;
  T S::*member;
  Presence presence = Presence::kAlways;
};

template <typename S, typename T>
Field(const char*, T S::*, Presence) -> Field<S, T>;
template <typename S, typename T>
Field(const char*, T S::*) -> Field<S, T>;

// An enum member under its JSON key, written and read as the name its table
// gives it.
template <typename S, typename E>
struct NamedField {
  const char* key;
  E S::*member;
  NameTable<E> names;
  Presence presence = Presence::kAlways;
};

template <typename S, typename E, std::size_t N>
NamedField(const char*, E S::*, const Named<E> (&)[N], Presence)
    -> NamedField<S, E>;
template <typename S, typename E, std::size_t N>
NamedField(const char*, E S::*, const Named<E> (&)[N]) -> NamedField<S, E>;

template <typename F>
struct IsNamedField : std::false_type {};
template <typename S, typename E>
struct IsNamedField<NamedField<S, E>> : std::true_type {};

// Each table lists its object's keys in the order the file has them.
inline const auto& SummaryFields() {
  using S = Summary;
  constexpr Presence known = Presence::kIfKnown;
  static const auto fields = std::make_tuple(
      Field{"count", &S::count}, Field{"mean_ns", &S::mean},
      Field{"stddev_ns", &S::stddev, known}, Field{"min_ns", &S::min, known},
      Field{"p50_ns", &S::p50, known}, Field{"p90_ns", &S::p90, known},
      Field{"p99_ns", &S::p99, known}, Field{"p99_9_ns", &S::p999, known},
      Field{"p99_99_ns", &S::p9999, known}, Field{"max_ns", &S::max, known},
      Field{"percentile_relative_error", &S::relative_error,
            Presence::kIfNonZero});
  return fields;
}

inline const auto& DevicePerOpFields() {
  using D = DevicePerOp;
  static const auto fields = std::make_tuple(
      Field{"reads", &D::reads}, Field{"read_kib", &D::kib_read},
      Field{"writes", &D::writes}, Field{"written_kib", &D::kib_written},
      Field{"flushes", &D::flushes, Presence::kOptional});
  return fields;
}

inline const auto& DeviceAccountFields() {
  using D = DeviceAccountSource;
  static const auto fields = std::make_tuple(
      Field{"source", &D::source},
      Field{"why_not_traced", &D::why_not_traced, Presence::kOptional});
  return fields;
}

inline const auto& RunPointFields() {
  using R = RunPoint;
  static const auto fields = std::make_tuple(
      Field{"order", &R::order}, Field{"block", &R::block},
      Field{"start_s", &R::start_s}, Field{"wall_s", &R::wall_s},
      Field{"mean_ns", &R::mean_ns}, Field{"p50_ns", &R::p50_ns},
      Field{"p99_ns", &R::p99_ns, Presence::kOptional});
  return fields;
}

inline const auto& PlacementFields() {
  static const auto fields =
      std::make_tuple(Field{"extents", &MeanPlacement::extents},
                      Field{"tree_blocks", &MeanPlacement::tree_blocks});
  return fields;
}

inline const auto& ProcessPerOpFields() {
  static const auto fields =
      std::make_tuple(Field{"read_bytes", &ProcessPerOp::read_bytes},
                      Field{"write_bytes", &ProcessPerOp::write_bytes});
  return fields;
}

inline const auto& CommitBytesFields() {
  using C = CommitBytes;
  static const auto fields = std::make_tuple(
      Field{"asked_bytes", &C::asked}, Field{"written_bytes", &C::written},
      Field{"new_block_share", &C::new_blocks, Presence::kOptional},
      Field{"growth_share", &C::grows, Presence::kOptional});
  return fields;
}

inline const auto& ReferenceFields() {
  using R = ReferenceSource;
  static const auto fields = std::make_tuple(
      Field{"source", &R::source}, Field{"program", &R::program},
      Field{"command", &R::command}, Field{"platform", &R::platform},
      Field{"disk", &R::disk}, Field{"notes", &R::notes});
  return fields;
}

// The pair's size, sync method, I/O path, layout and cache; shift_bytes is
// read by hand (a file from before it takes the settings').
inline const auto& PairSpecFields() {
  using P = PairSpec;
  static const auto fields = std::make_tuple(
      Field{"size_bytes", &P::size}, NamedField{"sync", &P::sync, kSyncMethods},
      NamedField{"io", &P::io, kIoModes},
      NamedField{"layout", &P::layout, kLayouts},
      NamedField{"cache", &P::cache, kCacheStates});
  return fields;
}

// The pair's own plain keys beside its spec's; its variants, gains,
// intervals, verdict and mechanisms are written and read by hand.
inline const auto& PairFields() {
  using P = PairResult;
  static const auto fields = std::make_tuple(
      Field{"explanation", &P::explanation, Presence::kDefaulted},
      Field{"run_notes", &P::run_notes, Presence::kIfNonZero},
      Field{"others_cpu_share", &P::others_cpu_share, Presence::kOptional});
  return fields;
}

inline const auto& RoundsFields() {
  using R = PairRounds;
  static const auto fields =
      std::make_tuple(Field{"blocks", &R::blocks}, Field{"rounds", &R::rounds},
                      NamedField{"state", &R::state, kPairStates},
                      Field{"blocks_needed", &R::blocks_needed},
                      Field{"stand_in_half_width_points", &R::stand_in_points,
                            Presence::kOptional});
  return fields;
}

// A variant's plain figures; its summaries, counters, runs and error are
// objects of their own.
inline const auto& VariantFields() {
  using V = VariantResult;
  static const auto fields = std::make_tuple(
      Field{"repetitions", &V::repetitions},
      Field{"failed_repetitions", &V::failed_repetitions, Presence::kIfNonZero},
      Field{"staged", &V::staged},
      Field{"resident_pages_after_drop", &V::resident_pages_after_drop,
            Presence::kOptional});
  return fields;
}

// The case a result's settings came from (settings.case).
inline const auto& CaseFields() {
  using S = Settings;
  constexpr Presence since = Presence::kDefaulted;
  static const auto fields =
      std::make_tuple(Field{"name", &S::case_name, since},
                      Field{"description", &S::case_description, since},
                      Field{"expect", &S::case_expect, since});
  return fields;
}

// What a result keeps of the trace it replayed (settings.replay); the
// program and each variant are objects of their own.
inline const auto& ReplayFields() {
  using R = Replay;
  static const auto fields = std::make_tuple(
      Field{"trace", &R::trace_path}, Field{"digest", &R::digest},
      Field{"log_file", &R::log_path}, Field{"flags", &R::flags},
      NamedField{"state", &R::state, kFileStates},
      NamedField{"rule", &R::rule, kReplayRules},
      Field{"commits", &R::commits});
  return fields;
}

inline const auto& ReplayProgramFields() {
  static const auto fields = std::make_tuple(
      Field{"argv", &Replay::argv}, Field{"version", &Replay::version});
  return fields;
}

inline const auto& ReplayVariantFields() {
  using R = ReplayVariant;
  static const auto fields = std::make_tuple(
      Field{"name", &R::name}, Field{"bytes_per_commit", &R::bytes_per_commit},
      Field{"file_bytes", &R::file_bytes});
  return fields;
}

// The tool's own object; its "name" is always alignbench.
inline const auto& ToolFields() {
  using R = Report;
  static const auto fields = std::make_tuple(
      Field{"version", &R::tool_version},
      Field{"git_revision", &R::git_revision, Presence::kOptional},
      Field{"build_type", &R::build_type, Presence::kOptional});
  return fields;
}

// The result's own plain keys, beside its objects.
inline const auto& ReportFields() {
  using R = Report;
  static const auto fields = std::make_tuple(
      Field{"command_line", &R::command_line},
      Field{"started_at", &R::started_at, Presence::kOptional},
      Field{"finished_at", &R::finished_at, Presence::kOptional},
      Field{"complete", &R::complete},
      Field{"warnings", &R::warnings, Presence::kDefaulted},
      Field{"errors", &R::errors, Presence::kDefaulted});
  return fields;
}

// How the verdicts were made, as this build says it where an older file
// does not; the level a verdict is firm at is written as it applies
// (FirmLevel) and read as the file says it, by hand.
inline const auto& StatisticsFields() {
  using S = StatisticsUsed;
  constexpr Presence since = Presence::kDefaulted;
  static const auto fields = std::make_tuple(
      Field{"significance_level", &S::significance_level, since},
      NamedField{"method", &S::method, kTestMethods, since},
      Field{"min_runs_for_verdict", &S::min_runs_for_verdict, since},
      Field{"interval_of", &S::interval_of, since});
  return fields;
}

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// fn(field) for each field of a table, in its order.
template <typename Tuple, typename Fn>
void ForEachField(const Tuple& fields, Fn fn) {
  std::apply([&](const auto&... field) { (fn(field), ...); }, fields);
}

}  // namespace alignbench
