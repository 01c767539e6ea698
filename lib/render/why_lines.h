// The why-lines of a table: each pair's explanation, with the sentences that
// every pair of the table says taken out and said once, so that a run of
// thirteen sizes does not print the same gloss thirteen times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lib/pairs/pair_result.h"

namespace alignbench {

// An explanation cut into its sentences: each ends at a ". " (or the text's
// end) and keeps its full stop; a figure such as "12.4" is not an end.
std::vector<std::string> Sentences(const std::string& text);

struct WhyLines {
  // Said once for every size, in the order the first pair says them.
  std::vector<std::string> common;
  // Per size (its column cell), what is left of its explanation; sizes with
  // nothing left are not listed.
  std::vector<std::pair<std::string, std::string>> per_size;
};

// The why-lines of pairs [from, to). A sentence is common when two or more
// pairs were measured and every one of them says it; a pair that was not
// measured keeps its own line and does not count.
WhyLines WhyLinesOf(const std::vector<PairResult>& pairs, std::size_t from,
                    std::size_t to);

// The why of pairs [from, to) in a line or two: the sentences every measured
// pair says once its figures are set aside, each with its figures as ranges
// over the pairs ("shifted: +1.0 to 5.6 KiB written per write"), and the
// sizes whose explanation says more than that.
struct SharedWhy {
  std::string text;
  std::vector<std::uint64_t> saying_more;
};
SharedWhy SharedWhyOf(const std::vector<PairResult>& pairs, std::size_t from,
                      std::size_t to);

}  // namespace alignbench
