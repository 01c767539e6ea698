// The write pattern of a pair's two variants as data: where each commit of a
// run writes, from a log writer's rules (lib/config/log_rules.h). With a header
// of `shift` bytes and nothing else, write k covers [shift + k·S, shift +
// (k+1)·S) as in Derby's experiment; blocks, chunks, write-ahead padding and
// sector fill give the extents of InnoDB, PostgreSQL, SQLite and RocksDB. Pure:
// no descriptor, no clock.
#pragma once

#include <cstdint>

#include "lib/config/log_rules.h"

namespace alignbench {

// One commit's write: `length` bytes at `offset`.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

class WritePattern final {
 public:
  WritePattern() = default;
  // `record`: the bytes the application appends at each commit.
  WritePattern(const LogRules& rules, std::uint64_t record);

  std::uint64_t HeaderBytes() const { return rules_.header; }
  std::uint64_t RecordBytes() const { return record_; }
  // The extent of the next commit; commits come in order, from the first.
  Extent Next();

  // What `count` commits after the first `skip` ones do, from a fresh pattern.
  struct Totals {
    // End of the furthest write, header included: what the file must hold.
    std::uint64_t end = 0;
    // The longest single write.
    std::uint64_t max_length = 0;
    // Bytes the application asked for and bytes written, over the `count`.
    std::uint64_t asked = 0;
    std::uint64_t written = 0;
  };
  Totals Over(std::uint64_t skip, std::uint64_t count) const;

 private:
  // The log's end after appending one record (its header and fragments).
  std::uint64_t Append(std::uint64_t pos) const;

  LogRules rules_;
  std::uint64_t record_ = 0;
  // End of the log: where the next record goes.
  std::uint64_t pos_ = 0;
  // End of everything written so far (write-ahead padding included).
  std::uint64_t written_end_ = 0;
};

}  // namespace alignbench
