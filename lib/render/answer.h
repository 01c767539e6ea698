// The run's answer to its question in one sentence, from the verdicts and
// intervals alone: where aligning helps and by how much, where the two do not
// differ beyond ±precision (only where the whole interval lies inside it),
// where no difference was found with an interval as narrow as asked that
// still reaches past ±precision, which pairs stayed unanswered (interval
// wider than asked) and what to do about them, and how many tests were made
// at which level. Printed last, so that it is what a reader sees first.
#pragma once

#include <cstddef>
#include <string>

#include "lib/result/report.h"

namespace alignbench {

// "answer: aligning helps by 8-20 % at 32K-512K; no difference beyond ±5 % at
// 1K-16K (intervals inside [-5, +5]); 2 sizes unanswered (no significant
// difference, intervals wider than ±5) at 2K, 6K: rerun with a larger
// --budget or on a quiet disk; 13 sizes tested at 5 % each."
std::string AnswerLine(const Report& report);

// The answer as the compact report prints it: one sentence of what is known
// (where aligning helps or hurts and by how much, where the two do not
// differ, where the tail says otherwise), then the qualifications in at most
// two lines of `width` columns (what is known less well than asked and what
// to do, leaning pairs, busy neighbours); AnswerLine says all of it.
struct CompactAnswer {
  std::string answer;
  std::string qualifications;  // "" where there are none
};
CompactAnswer CompactAnswerOf(const Report& report, std::size_t width = 80);

}  // namespace alignbench
