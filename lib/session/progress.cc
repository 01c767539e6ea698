#include "lib/session/progress.h"

#include <algorithm>
#include <cstdio>

namespace alignbench {

std::string RoundLine(std::uint64_t round, const RoundPlan& plan,
                      double precision_points, double spent_seconds,
                      double budget_seconds) {
  std::size_t short_of = 0;
  std::size_t measured = 0;
  double widest = 0;
  for (std::size_t i = 0; i < plan.state.size(); ++i) {
    const PairState s = plan.state[i];
    if (s != PairState::kOpen && s != PairState::kOutOfBudget) continue;
    ++short_of;
    if (plan.blocks[i] > 0) ++measured;
    widest = std::max(widest, plan.stand_in_half_width_points[i]);
  }
  char line[200];
  std::snprintf(line, sizeof line,
                "round %llu: %zu of %zu pairs short of +-%g points, %zu "
                "measured this round, widest +-%.1f; %.0f s of the %.0f s "
                "budget spent",
                static_cast<unsigned long long>(round), short_of,
                plan.state.size(), precision_points, measured, widest,
                spent_seconds, budget_seconds);
  return line;
}

Progress::Progress(bool enabled, bool terminal, std::size_t pairs)
    : enabled_(enabled), terminal_(terminal), pairs_(pairs) {}

void Progress::Expect(std::size_t pair, std::size_t runs) {
  pairs_.at(pair).planned += runs;
  planned_ += runs;
}

double Progress::ElapsedSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

double Progress::EtaSeconds() const {
  if (done_ == 0) return 0;
  const double overall = seconds_ / static_cast<double>(done_);
  double eta = 0;
  for (const PerPair& p : pairs_) {
    if (p.planned <= p.done) continue;
    const double each =
        p.done > 0 ? p.seconds / static_cast<double>(p.done) : overall;
    eta += each * static_cast<double>(p.planned - p.done);
  }
  return eta;
}

void Progress::Done(std::size_t pair, double wall_seconds,
                    const std::string& label, bool failed) {
  PerPair& p = pairs_.at(pair);
  ++p.done;
  p.seconds += wall_seconds;
  ++done_;
  seconds_ += wall_seconds;
  if (!enabled_) return;
  std::fprintf(stderr, "%s%s%s", terminal_ ? "\r\033[K" : "",
               Line(label, failed).c_str(), terminal_ ? "" : "\n");
}

std::string Progress::Line(const std::string& label, bool failed) const {
  char text[160];
  std::snprintf(text, sizeof text, "[%zu/%zu] ", done_, planned_);
  std::string line = text + label + (failed ? " failed" : " done");
  std::snprintf(text, sizeof text, ", %.0f s elapsed, ETA %.0f s",
                ElapsedSeconds(), EtaSeconds());
  line += text;
  // The budget left, never "at most": a round runs whole once begun, and the
  // first round whatever the budget. Once it is spent no round begins.
  if (budget_ && ElapsedSeconds() < *budget_) {
    std::snprintf(text, sizeof text, " this round, %.0f s of --budget %g left",
                  *budget_ - ElapsedSeconds(), *budget_);
    line += text;
  } else if (budget_) {
    std::snprintf(text, sizeof text,
                  " this round, past --budget %g: no round after it", *budget_);
    line += text;
  }
  return line;
}

void Progress::Finish() const {
  if (enabled_ && terminal_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace alignbench
