#!/usr/bin/python3 -Es
"""Candidate verdict statistics on the same runs, side by side: Welch t on the
logs of the run means or medians, the paired t on the per-block log ratio of
the run means or medians, and Wilcoxon's signed-rank test on the per-block log
ratio of the run medians (exact with ties and zeros, as alignbench computes
it, though by testing every candidate shift: slow past a hundred blocks). For
each: pairs whose 95 % interval excludes 0, and the median half-width in %gain
points. Run it on the files of
scripts/aa-check (every call a false positive) and scripts/power-check (every
call of "aligned faster" a hit).

    /usr/bin/python3 scripts/lib/statistics-table.py FILE...   (needs python3-scipy)
"""
import json
import math
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402


def welch(u, a):
    lu, la = [math.log(x) for x in u], [math.log(x) for x in a]
    vu, va = statistics.variance(lu) / len(lu), statistics.variance(la) / len(la)
    se = math.sqrt(vu + va)
    df = (vu + va) ** 2 / (vu ** 2 / (len(lu) - 1) + va ** 2 / (len(la) - 1))
    return statistics.mean(lu) - statistics.mean(la), se, df


def paired(u_runs, a_runs, key):
    a_by_block = {r["block"]: r for r in a_runs}
    d = [math.log(r[key]) - math.log(a_by_block[r["block"]][key])
         for r in u_runs if r["block"] in a_by_block]
    return statistics.mean(d), statistics.stdev(d) / math.sqrt(len(d)), len(d) - 1


def shift_p(x, d):
    """Two-sided p of the signed-rank test of x - d, as lib/stats does it:
    doubled midranks of |x - d| with blocks at d ranked but unsigned (Pratt),
    null distribution conditional on those ranks (exact counts)."""
    def dist(i, j):  # |x_i - d| <=> |x_j - d| through Walsh averages, as in C++
        si, sj = (x[i] > d) - (x[i] < d), (x[j] > d) - (x[j] < d)
        if si == 0 or sj == 0:
            return (si != 0) - (sj != 0)
        if si == sj:
            return si * ((x[i] > x[j]) - (x[i] < x[j]))
        w = (x[i] + x[j]) / 2
        return si * ((w > d) - (w < d))
    ranks, t = [], 0
    for i in range(len(x)):
        sign = (x[i] > d) - (x[i] < d)
        if sign == 0:
            continue
        r = 2 + sum(2 if c > 0 else 1 if c == 0 else 0
                    for c in (dist(i, j) for j in range(len(x)) if j != i))
        ranks.append(r)
        t += sign * r
    if t == 0:
        return 1.0
    total = sum(ranks)
    tail = (total - abs(t)) // 2
    counts = [1] + [0] * tail
    for r in ranks:
        for s in range(tail, r - 1, -1):
            counts[s] += counts[s - r]
    return min(1.0, 2 * sum(counts) / 2 ** len(ranks))


def signed_rank(u_runs, a_runs):
    """Hodges-Lehmann interval bounds (log scale), as lib/stats finds them:
    the shifts d the test of x - d accepts at 5 %, from the distinct Walsh
    averages and the gaps between them. The ends are the extreme accepted
    Walsh averages, or a rejected one next to an accepted gap (an open end,
    which only matters for the sign when it is exactly 0)."""
    a_by_block = {r["block"]: r for r in a_runs}
    d = [math.log(r["p50_ns"]) - math.log(a_by_block[r["block"]]["p50_ns"])
         for r in u_runs if r["block"] in a_by_block]
    n = len(d)
    if n < 6:
        return None
    walsh = sorted(set((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n)))
    shifts = [walsh[0] - 1]
    for k, w in enumerate(walsh):
        shifts += [w, (w + walsh[k + 1]) / 2 if k + 1 < len(walsh) else w + 1]
    accepted = [i for i, s in enumerate(shifts) if shift_p(d, s) >= 0.05]
    if not accepted:
        return None
    first, last = accepted[0], accepted[-1]
    low = shifts[first] if first % 2 else shifts[first - 1]
    high = shifts[last] if last % 2 else shifts[last + 1]
    if low == 0 and first % 2 == 0:
        low = math.ulp(0.0)
    if high == 0 and last % 2 == 0:
        high = -math.ulp(0.0)
    return low, high


def interval(d, se, df):
    t = stats.t.ppf(0.975, df)
    return 100 * math.expm1(d - t * se), 100 * math.expm1(d + t * se)


def main(paths):
    rules = {}
    for path in paths:
        with open(path) as f:
            pairs = json.load(f)["alignbench"]["pairs"]
        for p in pairs:
            u, a = p["unaligned"].get("runs", []), p["aligned"].get("runs", [])
            if len(u) < 3 or len(a) < 3:
                continue
            for key in ("mean_ns", "p50_ns"):
                for name, fn in (("welch", lambda: welch([r[key] for r in u], [r[key] for r in a])),
                                 ("paired", lambda: paired(u, a, key))):
                    low, high = interval(*fn())
                    entry = rules.setdefault("%s on log run %s" % (name, key[:-3]),
                                             {"n": 0, "up": 0, "down": 0, "half": []})
                    entry["n"] += 1
                    entry["up"] += low > 0
                    entry["down"] += high < 0
                    entry["half"].append((high - low) / 2)
            bounds = signed_rank(u, a)
            if bounds:
                low, high = (100 * math.expm1(b) for b in bounds)
                entry = rules.setdefault("signed-rank on log run p50",
                                         {"n": 0, "up": 0, "down": 0, "half": []})
                entry["n"] += 1
                entry["up"] += low > 0
                entry["down"] += high < 0
                entry["half"].append((high - low) / 2)
    for name, e in rules.items():
        print("%-24s %3d pairs: %3d interval above 0, %3d below 0, median half-width %.1f points"
              % (name, e["n"], e["up"], e["down"], statistics.median(e["half"])))


if __name__ == "__main__":
    PATHS = operands(__doc__, 1)
    # After the command line: --help must not need python3-scipy.
    from scipy import stats

    main(PATHS)
