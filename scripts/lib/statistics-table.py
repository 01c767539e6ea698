"""Candidate verdict statistics on the same runs, side by side: Welch t on the
logs of the run means or medians, the paired t on the per-block log ratio of
the run means or medians, and Wilcoxon's signed-rank test on the per-block log
ratio of the run medians (exact, as alignbench computes it). For each: pairs whose 95 % interval
excludes 0, and the median half-width in %gain points. Run it on the files of
scripts/aa-check (every call a false positive) and scripts/power-check (every
call of "aligned faster" a hit).

    /usr/bin/python3 scripts/lib/statistics-table.py FILE...   (needs python3-scipy)
"""
import json
import math
import statistics
import sys

from scipy import stats


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


def signed_rank(u_runs, a_runs):
    """p and Hodges-Lehmann interval bounds (log scale), as lib/stats does."""
    a_by_block = {r["block"]: r for r in a_runs}
    d = [math.log(r["p50_ns"]) - math.log(a_by_block[r["block"]]["p50_ns"])
         for r in u_runs if r["block"] in a_by_block]
    n = len(d)
    if n < 6:
        return None
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(walsh)
    # Exact null counts of W+.
    counts = [1] + [0] * m
    for rank in range(1, n + 1):
        for w in range(m, rank - 1, -1):
            counts[w] += counts[w - rank]
    cdf, total = [], 0
    for c in counts:
        total += c
        cdf.append(total / 2 ** n)
    c = 0
    while c < m and cdf[c] <= 0.025:
        c += 1
    critical = c - 1
    return walsh[critical], walsh[m - 1 - critical]


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
    main(sys.argv[1:])
