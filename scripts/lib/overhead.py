#!/usr/bin/python3 -Es
"""The harness's own cost against a plain loop doing the same writes, from the runs that
scripts/harness-bench (part a) and scripts/overhead-vs leave in WORK, and the block
trace's cost from scripts/trace-overhead's: the overhead figures of docs/measurements.md.

    python3 overhead.py harness|versus|traced WORK

WORK/plain.txt has a line per round, "ROUND MEAN_NS OTHER": the plain loop's
(bench/baseline) mean ns per write in that round. An alignbench run of a round is
WORK/NAME-ROUND.json, run with --shift 0, so that both variants write what the plain loop
writes: its figure is the mean of the two variants' mean ns per write+sync.

harness: ab-ROUND.json against the plain loop of its round: the medians of both, and the
ratio alignbench / plain paired by round (median, quartiles, rounds).
versus: other-ROUND.json and this-ROUND.json (two builds), each against the plain loop
and this against other, paired by round; then the plain loop's median.
traced: scripts/trace-overhead's traced-ROUND.json (the device's account from the block
trace) against counters-ROUND.json (from the device's counters), rounds 1 up to the last
counters file: each run's figure the mean of its variants' median write+sync, the ratio
traced / counters paired by round, and the counters' median.
"""
import glob
import json
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402
from shown import shown  # noqa: E402

MODES = ("harness", "versus", "traced")
# traced's two arms: the device account's source each must have said.
SOURCES = {"traced": "block trace", "counters": "device counters"}


def run_mean(path):
    """An alignbench run's ns per write: its one pair's variants' mean_ns, averaged."""
    with open(path) as f:
        pair = json.load(f)["alignbench"]["pairs"][0]
    return (pair["aligned"]["write_sync"]["mean_ns"] +
            pair["unaligned"]["write_sync"]["mean_ns"]) / 2


def plain_means(work):
    """{round (as written): the plain loop's mean ns per write}, in the file's order."""
    with open(work + "/plain.txt") as f:
        return {r: float(mean) for r, mean, _ in (line.split() for line in f)}


def spread(ratios):
    """Median, lower and upper quartile (statistics.quantiles) and count of RATIOS."""
    q = statistics.quantiles(ratios, n=4)
    return statistics.median(ratios), q[0], q[2], len(ratios)


def harness(work):
    """harness-bench's part a: its two lines."""
    plain = plain_means(work)
    ours = {r: run_mean("%s/ab-%s.json" % (work, r)) for r in plain}
    ratios = [ours[r] / plain[r] for r in plain]
    return ["  plain loop: median %.0f ns per write; alignbench: median %.0f ns per write"
            % (statistics.median(plain.values()), statistics.median(ours.values())),
            "  overhead ratio, alignbench / plain, paired by round: median %.3f (quartiles "
            "%.3f..%.3f, %d rounds; target <= 1.05)" % spread(ratios)]


def versus(work):
    """overhead-vs: other and this against the plain loop and each other."""
    plain = plain_means(work)
    ours = {name: {r: run_mean("%s/%s-%s.json" % (work, name, r)) for r in plain}
            for name in ("other", "this")}
    rows = (("other / plain", [ours["other"][r] / plain[r] for r in plain]),
            ("this / plain", [ours["this"][r] / plain[r] for r in plain]),
            ("this / other", [ours["this"][r] / ours["other"][r] for r in plain]))
    lines = ["  %-13s median %.3f (quartiles %.3f..%.3f), %d rounds" % ((what,) + spread(r))
             for what, r in rows]
    return lines + ["  plain loop: median %.0f ns per write" % statistics.median(plain.values())]


def median_of_run(work, arm, r):
    """A trace-overhead run's figure: its variants' p50 ns of write+sync, averaged; the
    run must have taken the device's account from the source its arm names."""
    with open("%s/%s-%d.json" % (work, arm, r)) as f:
        result = json.load(f)["alignbench"]
    source = result["device_account"]["source"]
    if source != SOURCES[arm]:
        raise ValueError("%s-%d.json: the device's account came from %s, not %s"
                         % (arm, r, source, SOURCES[arm]))
    pair = result["pairs"][0]
    return (pair["aligned"]["write_sync"]["p50_ns"] +
            pair["unaligned"]["write_sync"]["p50_ns"]) / 2


def traced(work):
    """trace-overhead: the traced arm against the counters' arm, paired by round."""
    rounds = range(1, len(glob.glob(work + "/counters-*.json")) + 1)
    counters = [median_of_run(work, "counters", r) for r in rounds]
    ratios = [median_of_run(work, "traced", r) / c for r, c in zip(rounds, counters)]
    median = statistics.median(ratios)
    low, high = spread(ratios)[1:3] if len(ratios) > 1 else (median, median)
    return ["  traced / counters: median %.3f (quartiles %.3f..%.3f), %d rounds"
            % (median, low, high, len(ratios)),
            "  counters alone: median %.3f ms per write+sync (median of the rounds)"
            % (statistics.median(counters) / 1e6)]


def main():
    mode, work = operands(__doc__, 2, 2)
    if mode not in MODES:
        print(f"overhead.py: error: the mode is harness, versus or traced, not '{shown(mode)}'\n"
              "usage: python3 overhead.py harness|versus|traced WORK", file=sys.stderr)
        return 1
    print("\n".join({"harness": harness, "versus": versus, "traced": traced}[mode](work)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
