// lib/session/progress.h: the ETA sums, over the runs still to come, the mean
// time of the finished runs of the same pair (of all runs for a pair with none
// finished yet). Constructed disabled, so nothing is printed.
#include "lib/session/progress.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace alignbench;

TEST_CASE("progress: the ETA weighs each pair by its own runs") {
  Progress progress(/*enabled=*/false, /*terminal=*/false, /*pairs=*/2);
  progress.Expect(0, 4);
  progress.Expect(1, 2);
  CHECK(progress.EtaSeconds() == 0);  // nothing known yet

  progress.Done(0, 1.0, "a", false);
  // Pair 0: 3 left at 1 s; pair 1: 2 left at the overall mean, 1 s.
  CHECK(progress.EtaSeconds() == Approx(3.0 + 2.0));

  progress.Done(0, 3.0, "a", false);
  // Pair 0: 2 left at 2 s; pair 1: 2 left at the overall 2 s.
  CHECK(progress.EtaSeconds() == Approx(4.0 + 4.0));

  progress.Done(1, 10.0, "b", true);  // a failed run counts its time too
  // Pair 0: 2 left at 2 s; pair 1: 1 left at its own 10 s.
  CHECK(progress.EtaSeconds() == Approx(4.0 + 10.0));

  progress.Expect(1, 2);  // a later round plans more runs of pair 1
  CHECK(progress.EtaSeconds() == Approx(4.0 + 30.0));

  progress.Done(0, 2.0, "a", false);
  progress.Done(0, 2.0, "a", false);
  progress.Done(1, 10.0, "b", false);
  progress.Done(1, 10.0, "b", false);
  progress.Done(1, 10.0, "b", false);
  CHECK(progress.EtaSeconds() == 0);  // all done
  // A pair done past its plan adds nothing.
  progress.Done(0, 100.0, "a", false);
  CHECK(progress.EtaSeconds() == 0);
  progress.Finish();
}

TEST_CASE("progress: elapsed time runs forward; unknown pairs are refused") {
  Progress progress(false, true, 1);
  const double first = progress.ElapsedSeconds();
  CHECK(first >= 0);
  CHECK(progress.ElapsedSeconds() >= first);
  CHECK_THROWS_AS(progress.Expect(1, 1), std::out_of_range);
  CHECK_THROWS_AS(progress.Done(1, 1.0, "x", false), std::out_of_range);
}

TEST_CASE("progress: with a budget the line says what is left of it") {
  Progress progress(/*enabled=*/false, /*terminal=*/false, /*pairs=*/1);
  progress.Expect(0, 2);
  progress.Done(0, 1.0, "4K unaligned", false);
  CHECK(progress.Line("4K unaligned", false) ==
        "[1/2] 4K unaligned done, 0 s elapsed, ETA 1 s");
  // Rounds may follow the one the ETA sees, while budget is left.
  progress.SetBudget(60);
  CHECK(progress.Line("4K aligned", true) ==
        "[1/2] 4K aligned failed, 0 s elapsed, ETA 1 s this round, 60 s of "
        "--budget 60 left");
  // Spent (a first round runs whole whatever its budget): never "at most 0 s"
  // while the run goes on, but that no round follows.
  progress.SetBudget(0);
  CHECK(progress.Line("4K aligned", false) ==
        "[1/2] 4K aligned done, 0 s elapsed, ETA 1 s this round, past "
        "--budget 0: no round after it");
}

TEST_CASE("progress: the round line's count of short pairs never goes up") {
  // Round 2: pair 1 is not funded (out of budget), pair 2 reached its
  // precision. Round 3: the budget funds pair 1 again. The pairs measured in
  // a round go from 1 up to 2, as the old "pairs open" did; the pairs short
  // of the precision stay 2.
  RoundPlan second;
  second.blocks = {4, 0, 0};
  second.state = {PairState::kOpen, PairState::kOutOfBudget,
                  PairState::kPrecisionReached};
  second.stand_in_half_width_points = {7.25, 9.0, 4.0};
  RoundPlan third = second;
  third.blocks = {2, 6, 0};
  third.state = {PairState::kOpen, PairState::kOpen,
                 PairState::kPrecisionReached};
  third.stand_in_half_width_points = {6.5, 8.0, 4.0};
  CHECK(RoundLine(2, second, 5, 23.4, 60) ==
        "round 2: 2 of 3 pairs short of +-5 points, 1 measured this round, "
        "widest +-9.0; 23 s of the 60 s budget spent");
  CHECK(RoundLine(3, third, 5, 41, 60) ==
        "round 3: 2 of 3 pairs short of +-5 points, 2 measured this round, "
        "widest +-8.0; 41 s of the 60 s budget spent");
}
