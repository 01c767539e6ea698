#!/usr/bin/python3 -Es
"""Precision per second of measuring for two run lengths (scripts/run-length-check).

    python3 run_length.py DIR A B

DIR holds wA-I.json and wB-I.json result files. A pair's cost is the time from the
start of each of its runs to the start of the next run of the session (so the file's
preparation, the cache drop and the sync of the last write count), summed over both
variants. A pair's half-width is half its gain interval, in %gain points. Since the
half-width shrinks as 1/sqrt(blocks), half-width^2 x seconds is the time the pair would
need to reach +-1 point: the smaller, the cheaper the precision.
"""
import collections
import json
import pathlib
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402
from shown import shown  # noqa: E402


def pair_costs(result):
    runs = []
    for index, pair in enumerate(result["pairs"]):
        for side in ("unaligned", "aligned"):
            for run in pair[side].get("runs", []):
                runs.append((run["start_s"], run["wall_s"], index))
    runs.sort()
    gaps = [nxt[0] - run[0] for run, nxt in zip(runs, runs[1:])]
    overhead = statistics.median(g - r[1] for g, r in zip(gaps, runs)) if gaps else 0.0
    cost = collections.Counter()
    for i, (start, wall, index) in enumerate(runs):
        cost[index] += gaps[i] if i < len(gaps) else wall + overhead
    return cost


def collect(files):
    by_size = collections.defaultdict(lambda: {"hw": [], "seconds": []})
    for path in files:
        result = json.loads(path.read_text())["alignbench"]
        cost = pair_costs(result)
        for index, pair in enumerate(result["pairs"]):
            interval = pair.get("gain_interval_pct")
            if not interval or "low" not in interval:
                continue
            row = by_size[pair["size_bytes"]]
            row["hw"].append((interval["high"] - interval["low"]) / 2)
            row["seconds"].append(cost[index])
    return by_size


def main():
    folder, a, b = operands(__doc__, 3, 3)
    folder = pathlib.Path(folder)
    sides = {w: collect(sorted(folder.glob(f"w{w}-*.json"))) for w in (a, b)}
    # A and B as given (the run lengths), shown as any argument is.
    sa, sb = shown(a), shown(b)
    print(f"{'size':>8} | {'hw ' + sa:>8} {'s ' + sa:>7} | {'hw ' + sb:>8} {'s ' + sb:>7} |"
          f" s for +-1 point: {sa:>6} {sb:>6}  {sb}/{sa}")
    ratios = []
    for size in sorted(sides[a]):
        cells, costs = [], []
        for w in (a, b):
            row = sides[w][size]
            hw = statistics.median(row["hw"])
            seconds = statistics.median(row["seconds"])
            cells += [f"{hw:8.1f}", f"{seconds:7.2f}"]
            costs.append(hw * hw * seconds)
        ratios.append(costs[1] / costs[0])
        print(f"{size // 1024:>7}K | {cells[0]} {cells[1]} | {cells[2]} {cells[3]} |"
              f" {costs[0]:23.0f} {costs[1]:6.0f}  {ratios[-1]:.2f}")
    print(f"median ratio {sb}/{sa} of the seconds for a precision: {statistics.median(ratios):.2f}"
          f" (below 1: --writes {sb} is cheaper)")


if __name__ == "__main__":
    main()
