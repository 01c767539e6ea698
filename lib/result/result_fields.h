// The keys of the result's plain objects, each spelled once: the writer
// (json_write.cc) and the reader (json_read.cc) walk the same table, so that
// a new figure of these objects is one line here, beside its member, plus its
// property in the result schema (results/schema/alignbench-result.schema.json;
// tests/unit/result_fields_test.cc fails while the two differ). CONTRIBUTING.md
// shows the whole change.
#pragma once

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>

#include "lib/pairs/pair_result.h"
#include "lib/result/report.h"
#include "lib/stats/summary.h"

namespace alignbench {

// When a field is in the file.
enum class Presence {
  kAlways,     // written always, required when read
  kIfKnown,    // a double: absent where unknown (NaN), NaN where absent
  kIfNonZero,  // a double: absent where 0, 0 where absent
  kOptional,   // a std::optional: absent where empty
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
