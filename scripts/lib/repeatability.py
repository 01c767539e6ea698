#!/usr/bin/python3 -Es
"""Whether a case's answer holds when it is run again: one alignbench result per separate
session of the same case (scripts/repeatability), compared pair by pair.

    python3 repeatability.py FILE...

One line per pair (size, sync, io, layout, cache): the sessions that measured it, how
many of the pairs of sessions have disjoint 95 % intervals, how many give opposite
verdicts (one "aligned faster", the other "unaligned faster": firm, p < 0.01), how many
lean opposite ways (either side only leaning, p < 0.05: "leans aligned" against "unaligned
faster" or "leans unaligned"), the span of the intervals,
how many sessions knew the gain to the precision they asked, and each variant's device
writes per write, lowest and highest session (a variant whose file lands differently in
some sessions shows here). Then the totals. Two honest 95 % intervals of one quantity are
disjoint in about 0.6 % of pairs (each misses with 5 %, and both must miss on opposite
sides by enough), so a total far above that says the intervals do not hold across
sessions.
"""
import itertools
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402
from shown import shown  # noqa: E402

OPPOSITE = {"aligned faster", "unaligned faster"}
TOWARDS = {"aligned faster": 1, "leans aligned": 1, "unaligned faster": -1,
           "leans unaligned": -1}


def key(pair):
    return (pair["size_bytes"], pair.get("sync"), pair.get("io"), pair.get("layout"),
            pair.get("cache"))


def verdict(pair):
    v = pair.get("verdict")
    return "unaligned faster" if v == "shifted faster" else v


def size_text(size):
    return f"{size // 1024}K" if size % 1024 == 0 else f"{size}B"


def writes(pairs, variant):
    values = [p[variant].get("device_per_write", {}).get("writes") for p in pairs]
    values = [v for v in values if v is not None]
    return f"{min(values):.2f}..{max(values):.2f}" if values else "-"


def within(interval, precision):
    """The interval is as narrow as the session asked: half-width at most the precision."""
    return bool(interval and precision and
                (interval["high"] - interval["low"]) / 2 <= precision + 1e-9)


def summarize(pairs, precision):
    """The row of one pair over its sessions, and its counts."""
    intervals = [p["gain_interval_pct"] for p in pairs if p.get("gain_interval_pct")]
    couples = list(itertools.combinations(pairs, 2))
    disjoint = sum(1 for a, b in itertools.combinations(intervals, 2)
                   if a["high"] < b["low"] or b["high"] < a["low"])
    opposite = sum(1 for a, b in couples
                   if {verdict(a), verdict(b)} == OPPOSITE)
    ways = [TOWARDS.get(verdict(a), 0) * TOWARDS.get(verdict(b), 0) for a, b in couples]
    leaning = sum(1 for w in ways if w < 0) - opposite
    narrow = sum(1 for i in intervals if within(i, precision))
    span = (f"[{min(i['low'] for i in intervals):+.1f}, "
            f"{max(i['high'] for i in intervals):+.1f}]") if intervals else "-"
    return {"sessions": len(pairs), "couples": len(couples), "disjoint": disjoint,
            "opposite": opposite, "leaning": leaning, "span": span, "within": narrow,
            "writes": (writes(pairs, "unaligned"), writes(pairs, "aligned"))}


def main():
    files = operands(__doc__, 2)
    by_key, precision, sessions = {}, None, []
    for name in files:
        with open(name, encoding="utf-8-sig") as f:
            a = json.load(f)["alignbench"]
        precision = a["settings"].get("precision_points") or precision
        sessions.append(a)
        for pair in a["pairs"]:
            if pair.get("gain_interval_pct") is not None:
                by_key.setdefault(key(pair), []).append(pair)
    print(f"{len(files)} sessions; precision asked: +-{precision}")
    print(f"{'size':>6} {'pair':<28} {'sessions':>8} {'disjoint':>12} {'opposite':>8} "
          f"{'leaning':>7} {'intervals span':>18} {'within':>6}  "
          "writes/write unaligned | aligned")
    total = {"couples": 0, "disjoint": 0, "opposite": 0, "leaning": 0}
    for k in sorted(by_key, key=lambda k: (-k[0], str(k[1:]))):
        row = summarize(by_key[k], precision)
        for field in total:
            total[field] += row[field]
        pair = shown(" ".join(str(x) for x in k[1:] if x))
        print(f"{size_text(k[0]):>6} {pair:<28} {row['sessions']:>8} "
              f"{row['disjoint']:>4} of {row['couples']:<5} {row['opposite']:>8} "
              f"{row['leaning']:>7} {row['span']:>18} {row['within']:>6}  {row['writes'][0]} | "
              f"{row['writes'][1]}")
    share = 100 * total["disjoint"] / total["couples"] if total["couples"] else 0
    print(f"all {len(by_key)} pairs: {total['disjoint']} of {total['couples']} session "
          f"pairs disjoint ({share:.1f} %; honest 95 % intervals: about 0.6 %), "
          f"{total['opposite']} opposite verdicts, {total['leaning']} pairs leaning "
          "opposite ways")
    known = [sum(1 for p in a["pairs"] if within(p.get("gain_interval_pct"), precision))
             for a in sessions]
    print(f"sizes within +-{precision} per session: {' '.join(map(str, known))} "
          f"(of {len(by_key)})")


if __name__ == "__main__":
    main()
