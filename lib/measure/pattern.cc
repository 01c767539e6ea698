#include "lib/measure/pattern.h"

#include <algorithm>

namespace alignbench {
namespace {

std::uint64_t RoundUp(std::uint64_t value, std::uint64_t to) {
  return to == 0 ? value : (value + to - 1) / to * to;
}
std::uint64_t RoundDown(std::uint64_t value, std::uint64_t to) {
  return to == 0 ? value : value / to * to;
}

}  // namespace

WritePattern::WritePattern(const LogRules& rules, std::uint64_t record)
    : rules_(rules),
      record_(record),
      pos_(rules.header),
      written_end_(rules.header) {}

std::uint64_t WritePattern::Append(std::uint64_t pos) const {
  const std::uint64_t head = rules_.record_header;
  if (rules_.chunk == 0) return pos + head + record_;
  std::uint64_t left = record_;
  bool first = true;
  while (first || left > 0) {
    const std::uint64_t room =
        rules_.chunk - (pos - rules_.header) % rules_.chunk;
    if (room < head || (room == head && left > 0)) {
      // Too small for a header with bytes after it: zero-filled trailer.
      pos += room;
      continue;
    }
    const std::uint64_t take = std::min(left, room - head);
    pos += head + take;
    left -= take;
    first = false;
  }
  return pos;
}

Extent WritePattern::Next() {
  const std::uint64_t start = pos_;
  std::uint64_t end = Append(pos_);
  if (rules_.fill > 0) {
    // Copies of the record until the log reaches the boundary that follows
    // its end (file offsets, as a sector is).
    const std::uint64_t target = RoundUp(end, rules_.fill);
    while (end < target) end = Append(end);
  }
  pos_ = end;
  // Whole blocks, counted from the log's start: the partly filled last block
  // of the previous commit is written again.
  const std::uint64_t base = rules_.header;
  std::uint64_t from = base + RoundDown(start - base, rules_.block);
  std::uint64_t to = base + RoundUp(end - base, rules_.block);
  if (rules_.pad > 0 && to > written_end_) to = RoundUp(to, rules_.pad);
  written_end_ = std::max(written_end_, to);
  return {from, to - from};
}

WritePattern::Totals WritePattern::Over(std::uint64_t skip,
                                        std::uint64_t count) const {
  WritePattern fresh(rules_, record_);
  Totals totals;
  totals.end = rules_.header;
  for (std::uint64_t k = 0; k < skip + count; ++k) {
    const Extent e = fresh.Next();
    totals.end = std::max(totals.end, e.offset + e.length);
    totals.max_length = std::max(totals.max_length, e.length);
    if (k >= skip) {
      totals.asked += record_;
      totals.written += e.length;
    }
  }
  return totals;
}

}  // namespace alignbench
