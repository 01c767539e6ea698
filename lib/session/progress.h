// Progress on stderr: one line per finished run (or one line rewritten on a
// terminal) with the elapsed time and an ETA. Runs of different pairs cost
// very different times (a 512 KiB write against a 1 KiB one, a prewritten
// layout against an extending one), so the ETA sums, over the runs still to
// come, the mean time of the runs of the same pair done so far. With a
// --budget, rounds the ETA cannot foresee may follow: the line also says how
// much of the budget is left, the most the whole run can still take.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lib/stats/sequential.h"

namespace alignbench {

// "round 3: 7 of 13 pairs short of +-5 points, 5 measured this round, widest
// +-7.2; 23 s of the 60 s budget spent": where the rounds stand before one
// starts. Short: neither stopped by its precision, its cap nor its runs, a
// count that only falls from round to round, because a pair changes only
// when it is measured; the pairs the budget does not fund this round stay
// short, not measured, and may be funded again in a later one.
std::string RoundLine(std::uint64_t round, const RoundPlan& plan,
                      double precision_points, double spent_seconds,
                      double budget_seconds);

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  Progress(bool enabled, bool terminal, std::size_t pairs);

  void Expect(std::size_t pair, std::size_t runs);
  // The run's --budget in seconds, counted from the progress's start.
  void SetBudget(double seconds) { budget_ = seconds; }
  void Done(std::size_t pair, double wall_seconds, const std::string& label,
            bool failed);
  // Clears a rewritten terminal line before other output.
  void Finish() const;

  double ElapsedSeconds() const;
  double EtaSeconds() const;
  // "[3/26] 4K unaligned done, 2 s elapsed, ETA 9 s", and with a budget
  // "..., ETA 9 s this round, 58 s of --budget 60 left" or, once it is spent,
  // "..., ETA 9 s this round, past --budget 60: no round after it".
  std::string Line(const std::string& label, bool failed) const;

 private:
  struct PerPair {
    std::size_t planned = 0;
    std::size_t done = 0;
    double seconds = 0;
  };
  bool enabled_;
  bool terminal_;
  std::vector<PerPair> pairs_;
  std::size_t planned_ = 0;
  std::size_t done_ = 0;
  double seconds_ = 0;
  std::optional<double> budget_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace alignbench
