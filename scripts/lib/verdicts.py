#!/usr/bin/python3 -Es
"""Counts verdicts in alignbench result files: the evidence behind the A/A and
power figures in docs/measurements.md (scripts/aa-check, scripts/power-check).

    python3 verdicts.py FILE...

One line per file, then the total: pairs, how many the verdict called
"aligned faster" / "unaligned faster" (firm: p < 0.01 in results that have a
rerun level) and how many it called "leans aligned" / "leans unaligned" (p <
0.05 only), the median half-width of the interval (upper side, in %gain
points), and the same for the cross-check statistic, which has no rerun level,
and for the tail's gain (each run's p99, block by block: tail_gain, with its own
verdict; pairs without one are counted apart); last, how many pairs carry a
note on runs far off the others.
"""
import json
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402
from shown import shown  # noqa: E402


COUNTED = ("aligned faster", "unaligned faster", "leans aligned", "leans unaligned")


def tally(pairs, pick):
    counts = dict.fromkeys(COUNTED, 0)
    widths = []
    for pair in pairs:
        verdict, interval = pick(pair)
        if verdict in counts:
            counts[verdict] += 1
        if interval:
            widths.append((interval["high"] - interval["low"]) / 2)
    return counts, widths


def main_rule(pair):
    verdict = pair.get("verdict")
    if verdict == "shifted faster":  # files written before the variant had one name
        verdict = "unaligned faster"
    return verdict, pair.get("gain_interval_pct")


def cross_rule(pair, min_runs):
    check = pair.get("cross_check", {})
    if "low" not in check:
        return None, None
    runs = min(pair["unaligned"]["repetitions"], pair["aligned"]["repetitions"])
    if runs < min_runs:
        return "undecided", check
    if check["low"] > 0:
        return "aligned faster", check
    if check["high"] < 0:
        return "unaligned faster", check
    return "no significant difference", check


def tail_rule(pair):
    tail = pair.get("tail_gain", {})
    if "low" not in tail:
        return None, None
    return tail.get("verdict"), tail


def line(label, n, counts, widths):
    median = statistics.median(widths) if widths else float("nan")
    leaning = counts["leans aligned"] + counts["leans unaligned"]
    leans = (f"{counts['leans aligned']} leans aligned, "
             f"{counts['leans unaligned']} leans unaligned, ") if leaning else ""
    return (f"{label}: {n} pairs, {counts['aligned faster']} aligned faster, "
            f"{counts['unaligned faster']} unaligned faster, {leans}"
            f"median half-width {median:.1f} points")


def main(paths):
    total = {"main": [dict.fromkeys(COUNTED, 0), []],
             "cross": [dict.fromkeys(COUNTED, 0), []],
             "tail": [dict.fromkeys(COUNTED, 0), []]}
    n_total = 0
    n_tail = 0
    noted = 0
    methods = set()
    for path in paths:
        with open(path) as f:
            doc = json.load(f)["alignbench"]
        pairs = doc["pairs"]
        n_total += len(pairs)
        # The cross-check is held to the verdict's own rule on runs.
        min_runs = doc.get("statistics", {}).get("min_runs_for_verdict", 6)
        cross = lambda pair: cross_rule(pair, min_runs)
        n_tail += sum(1 for pair in pairs if "low" in pair.get("tail_gain", {}))
        for name, rule in (("main", main_rule), ("cross", cross), ("tail", tail_rule)):
            counts, widths = tally(pairs, rule)
            for k in counts:
                total[name][0][k] += counts[k]
            total[name][1].extend(widths)
            if name == "main":
                print(line(shown(path), len(pairs), counts, widths))
        noted += sum(1 for pair in pairs if pair.get("run_notes"))
        for pair in pairs:
            methods.add(("verdict", pair.get("gain_interval_pct", {}).get("method")))
            methods.add(("cross-check", pair.get("cross_check", {}).get("method")))
    names = {k: shown(v) for k, v in methods}
    print(line(f"total, verdict ({names.get('verdict')})", n_total, *total["main"]))
    print(line(f"total, cross-check ({names.get('cross-check')})", n_total,
               *total["cross"]))
    print(line("total, tail's gain (p99 of each run)", n_tail, *total["tail"])
          + f" ({n_total - n_tail} of {n_total} pairs without one)")
    print(f"pairs with a note on far-off runs: {noted} of {n_total}")


if __name__ == "__main__":
    main(operands(__doc__, 1))
