#!/usr/bin/python3 -Es
"""How long alignbench runs took to answer: the evidence behind the Derby timing
figures in docs/measurements.md (scripts/answer-check).

    python3 answer_time.py [--within SECONDS] [--pairs K] FILE...

One line per result file: the seconds of measuring (every run's own duration,
the sum of `wall_s`), the session's seconds (from its start to the end of its
last run: the measuring, the idle windows before the rounds and the planning
between them), the rounds, the blocks, how many pairs ended within the
file's precision P (half-width of the 95 % interval at most P points), the
range of the half-widths, the disk's noise c (half-width times the square root
of the blocks, so that a pair needs (c/P)^2 blocks; median and range over the
pairs), the oracle's seconds (every pair's (c/P)^2 blocks, at least the first
round, at its own seconds per block: what a rule that knew each c in advance
would have spent), the busiest rate of other processes' writes the idle
windows saw (quiet below 5 writes/s, as the answer line reads it) and the
largest share of the CPU time other processes used there (busy from 25 %).
Last, how many runs answered: at least K
pairs (default every pair) within P, in at most SECONDS of measuring (default
30); and in how many runs the oracle itself needed at most SECONDS, which no
stopping rule can beat on that run's noise.
"""
import argparse
import json
import math
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from shown import shown  # noqa: E402

BUSY_WRITES_PER_SECOND = 5  # lib/render/answer.cc: kBusyWritesPerSecond
BUSY_CPU_SHARE = 0.25  # lib/render/answer.cc: kBusyCpuShare


def blocks_of(pair):
    rounds = pair.get("rounds")
    if rounds:
        return rounds["blocks"]
    return min(len(pair["unaligned"]["runs"]), len(pair["aligned"]["runs"]))


def seconds_of(pair):
    return sum(run["wall_s"] for v in ("unaligned", "aligned") for run in pair[v]["runs"])


def others_writes_per_second(pair):
    rate = 0.0
    for v in ("unaligned", "aligned"):
        background = pair[v].get("device_background_per_write")
        mean_ns = pair[v].get("write_sync", {}).get("mean_ns", 0)
        if background and mean_ns > 0:
            rate = max(rate, background["writes"] / (mean_ns * 1e-9))
    return rate


def summarize(path):
    with open(path) as f:
        report = json.load(f)["alignbench"]
    precision = report["settings"].get("precision_points", 5.0)
    first_round = report["settings"].get("repetitions", 6)
    row = {"file": path, "precision": precision, "seconds": 0.0, "session": 0.0,
           "rounds": 0, "blocks": 0, "within": 0, "pairs": 0, "widths": [], "c": [],
           "oracle": 0.0, "busiest": 0.0, "cpu": None}
    for pair in report["pairs"]:
        row["pairs"] += 1
        seconds = seconds_of(pair)
        blocks = blocks_of(pair)
        row["seconds"] += seconds
        for v in ("unaligned", "aligned"):
            for run in pair[v]["runs"]:
                row["session"] = max(row["session"], run["start_s"] + run["wall_s"])
        row["blocks"] += blocks
        row["rounds"] = max(row["rounds"], pair.get("rounds", {}).get("rounds", 1))
        row["busiest"] = max(row["busiest"], others_writes_per_second(pair))
        if "others_cpu_share" in pair:
            row["cpu"] = max(row["cpu"] or 0.0, pair["others_cpu_share"])
        interval = pair.get("gain_interval_pct") or {}
        if "high" not in interval or blocks == 0:
            continue
        width = (interval["high"] - interval["low"]) / 2
        c = width * math.sqrt(blocks)
        row["widths"].append(width)
        row["c"].append(c)
        row["within"] += width <= precision
        needed = max(first_round, math.ceil((c / precision) ** 2))
        row["oracle"] += needed * seconds / blocks
    return row


def spread(values, fmt):
    if not values:
        return "-"
    return (fmt % statistics.median(values) + " (" + fmt % min(values) + "-" +
            fmt % max(values) + ")")


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error's exit 1 as every script here has it (argparse: 2)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(1, f"{shown(self.prog)}: error: {shown(message)}\n")


def main():
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--within", type=float, default=30.0)
    parser.add_argument("--pairs", type=int, default=0)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    rows = [summarize(path) for path in args.files]
    print("run | measuring | session | rounds | blocks | within ±P | half-widths | "
          "c, median (range) | oracle | others' writes/s | others' CPU")
    for r in rows:
        widths = ("%.2f-%.2f" % (min(r["widths"]), max(r["widths"]))
                  if r["widths"] else "-")
        cpu = "-" if r["cpu"] is None else "%.0f %%%s" % (
            100 * r["cpu"], " (busy)" if r["cpu"] >= BUSY_CPU_SHARE else "")
        print("%s | %.1f s | %.1f s | %d | %d | %d of %d within ±%g | %s | %s | %.1f s | %.1f%s | %s" % (
            shown(r["file"]), r["seconds"], r["session"], r["rounds"], r["blocks"], r["within"],
            r["pairs"], r["precision"], widths, spread(r["c"], "%.1f"),
            r["oracle"], r["busiest"],
            " (busy)" if r["busiest"] >= BUSY_WRITES_PER_SECOND else "", cpu))
    answered = [r for r in rows
                if r["within"] >= (args.pairs or r["pairs"]) and r["pairs"] > 0]
    in_time = [r for r in answered if r["seconds"] <= args.within]
    want = ("at least %d pairs within their precision" % args.pairs if args.pairs
            else "every pair within its precision")
    print("%s: %d of %d runs; and in at most %g s of measuring: "
          "%d of %d runs (%s)" % (
              want, len(answered), len(rows), args.within, len(in_time), len(rows),
              ", ".join("%.1f s" % r["seconds"] for r in sorted(in_time, key=lambda r: r["seconds"]))
              or "none"))
    # What no stopping rule could beat: the disk's own noise sets the blocks.
    feasible = [r for r in rows if r["c"] and r["oracle"] <= args.within]
    print("the oracle (every pair to its precision) in at most %g s: %d of %d runs" % (
        args.within, len(feasible), len(rows)))


if __name__ == "__main__":
    sys.exit(main())
