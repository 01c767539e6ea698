// Real result files through the stop rule of --precision: each pair's blocks
// in the order they were measured, the session's rule (PlanNextRound) asked
// after every block, against the blocks the run spent in its rounds. Where
// the look stops, the reported interval of the blocks so far says whether
// the pair was within the precision there. It shows what rounds cost over
// looking at every block, and how often the stand-in stops a real pair above
// the precision, on the disk's own noise rather than the simulator's. It
// also replays the session's rounds on the recorded blocks (unbounded
// budget; a pair whose rounds want more blocks than were recorded ends at
// the record's end, and is counted): built from two versions of the rule,
// the same files say what a change to it saves in blocks and seconds.
//
// Usage: stop_replay [--precision P] [--margin M] [--first-round N]
//                    [--min-blocks N] [--stand-in-slack F] RESULT.json...
// --precision defaults to each file's own, --first-round to the file's
// --repetitions; --min-blocks sets the fewest blocks a pair stops on,
// --stand-in-slack SequentialDesign::stand_in_slack. Prints a
// line per pair and the totals; exits 2 on a usage error or a file it cannot
// read.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lib/config/size.h"
#include "lib/pairs/pairs.h"
#include "lib/result/result_json.h"
#include "lib/stats/compare.h"
#include "lib/stats/sequential.h"

using namespace alignbench;

namespace {

struct Totals {
  std::size_t pairs = 0;
  std::size_t spent = 0;
  // The session's rounds replayed on the recorded blocks: blocks and their
  // seconds, and the pairs whose record ended before the rounds stopped
  std::size_t in_rounds = 0;
  double in_rounds_seconds = 0;
  double spent_seconds = 0;
  std::size_t ran_out = 0;
  std::size_t looked = 0;
  std::size_t stopped = 0;
  std::size_t stopped_above = 0;
  std::size_t spent_above = 0;
};

double HalfWidth(const std::vector<double>& log_ratios,
                 const SequentialDesign& design) {
  const Inference inference = SignedRankTest(log_ratios, design.confidence);
  return inference.test ? inference.test->interval_pct.HalfWidth() : -1;
}

// The blocks the session's rounds (PlanNextRound, unbounded budget) give a
// pair whose blocks come, in order, from the record; the record's end when
// they would want more than it holds.
struct RoundsReplay {
  std::size_t blocks = 0;
  bool ran_out = false;
};
RoundsReplay ReplayRounds(const std::vector<double>& ratios,
                          const SequentialDesign& design) {
  PairProgress so_far;
  so_far.seconds_per_block = 1;
  for (;;) {
    const RoundPlan plan = PlanNextRound({so_far}, design, 1e300);
    if (plan.blocks[0] == 0) return {so_far.log_ratios.size(), false};
    const std::size_t next = so_far.log_ratios.size() + plan.blocks[0];
    if (next > ratios.size()) return {ratios.size(), true};
    so_far.log_ratios.assign(ratios.begin(), ratios.begin() + next);
  }
}

void ReplayStops(const Report& report, SequentialDesign design,
                 bool precision_given, bool first_round_given, Totals& totals) {
  if (!precision_given)
    design.precision_points = report.settings.precision_points;
  // The session's first round is the run's --repetitions.
  if (!first_round_given) {
    design.first_round_blocks = report.settings.repetitions;
  }
  for (const PairResult& pair : report.pairs) {
    const std::vector<double> ratios =
        BlockLogRatios(pair.unaligned, pair.aligned);
    if (ratios.empty()) {
      // Files from before runs recorded their blocks, and pairs that could
      // not be measured.
      std::printf("%8s  no blocks recorded\n",
                  FormatSize(pair.spec.size).c_str());
      continue;
    }
    // The session's own rule (PlanNextRound), asked after every block
    // whether this pair has reached its precision.
    std::size_t stop = 0;
    for (std::size_t n = 1; n <= ratios.size(); ++n) {
      PairProgress so_far;
      so_far.log_ratios.assign(ratios.begin(), ratios.begin() + n);
      so_far.seconds_per_block = 1;
      const RoundPlan plan = PlanNextRound({so_far}, design, 1e12);
      if (plan.state[0] == PairState::kPrecisionReached) {
        stop = n;
        break;
      }
    }
    // The interval the run reported, on all its blocks.
    const double spent_width =
        pair.inference.test ? pair.inference.test->interval_pct.HalfWidth()
                            : -1;
    ++totals.pairs;
    totals.spent += ratios.size();
    const double seconds = MeasuredSeconds(pair);
    const RoundsReplay rounds = ReplayRounds(ratios, design);
    totals.in_rounds += rounds.blocks;
    totals.in_rounds_seconds += seconds * static_cast<double>(rounds.blocks) /
                                static_cast<double>(ratios.size());
    totals.spent_seconds += seconds;
    totals.ran_out += rounds.ran_out;
    totals.spent_above += spent_width > design.precision_points;
    // The rounds' blocks, '+' where they wanted more than the record holds
    std::printf("%8s  spent %4zu (half-width %6.2f)  rounds %4zu%s",
                FormatSize(pair.spec.size).c_str(), ratios.size(), spent_width,
                rounds.blocks, rounds.ran_out ? "+" : " ");
    if (stop == 0) {
      totals.looked += ratios.size();
      std::printf("  not reached by looking at every block\n");
      continue;
    }
    const std::vector<double> so_far(ratios.begin(), ratios.begin() + stop);
    const double width = HalfWidth(so_far, design);
    ++totals.stopped;
    totals.looked += stop;
    totals.stopped_above += width > design.precision_points;
    std::printf("  every-block look stops at %4zu (half-width %6.2f)%s\n", stop,
                width, width > design.precision_points ? "  above P" : "");
  }
}

}  // namespace

int main(int argc, char** argv) {
  SequentialDesign design;
  bool precision_given = false, first_round_given = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--precision" || arg == "--margin" ||
         arg == "--stand-in-slack") &&
        i + 1 < argc) {
      char* end = nullptr;
      const double value = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(value >= 0)) {
        std::fprintf(stderr, "stop_replay: error: %s wants a number >= 0\n",
                     arg.c_str());
        return 2;
      }
      if (arg == "--precision") {
        design.precision_points = value;
        precision_given = true;
      } else if (arg == "--stand-in-slack") {
        if (!(value > 0)) {
          std::fprintf(stderr, "stop_replay: error: %s wants a number > 0\n",
                       arg.c_str());
          return 2;
        }
        design.stand_in_slack = value;
      } else {
        design.small_sample_margin = value;
      }
    } else if ((arg == "--first-round" || arg == "--min-blocks") &&
               i + 1 < argc) {
      char* end = nullptr;
      const std::uint64_t value = std::strtoull(argv[++i], &end, 10);
      if (*end != '\0' || value == 0) {
        std::fprintf(stderr, "stop_replay: error: %s wants a count >= 1\n",
                     arg.c_str());
        return 2;
      }
      if (arg == "--first-round") {
        design.first_round_blocks = value;
        first_round_given = true;
      } else {
        design.min_blocks_to_stop = value;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr,
                   "usage: stop_replay [--precision P] [--margin M] "
                   "[--first-round N] [--min-blocks N] [--stand-in-slack F] "
                   "RESULT.json...\n");
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "stop_replay: error: no result file given\n");
    return 2;
  }
  Totals totals;
  for (const std::string& file : files) {
    Result<Report> report = LoadResultFile(file);
    if (!report) {
      std::fprintf(stderr, "stop_replay: %s\n",
                   report.error().Message().c_str());
      return 2;
    }
    std::printf("%s\n", file.c_str());
    ReplayStops(report.value(), design, precision_given, first_round_given,
                totals);
  }
  std::printf(
      "%zu pairs: %zu blocks spent, %zu above the precision; looking at every "
      "block: %zu blocks, %zu of %zu stopped pairs above the precision "
      "(margin %g, stops from %llu blocks)\n",
      totals.pairs, totals.spent, totals.spent_above, totals.looked,
      totals.stopped_above, totals.stopped, design.small_sample_margin,
      static_cast<unsigned long long>(design.min_blocks_to_stop));
  std::printf(
      "the rounds replayed on the recorded blocks: %zu blocks, %.1f s of the "
      "runs' %.1f s; %zu pairs ran out of recorded blocks\n",
      totals.in_rounds, totals.in_rounds_seconds, totals.spent_seconds,
      totals.ran_out);
  return 0;
}
