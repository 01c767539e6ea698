#!/usr/bin/python3 -Es
"""alignbench beside fio and the plain loop, from the runs scripts/fio-crosscheck leaves
in WORK: the fidelity figures of docs/measurements.md.

    python3 crosscheck.py WORK SIZES ROUNDS SHIFT

SIZES as the script took them (comma-separated, e.g. 4K,64K), ROUNDS the rounds run,
SHIFT the unaligned variant's offset in bytes. Per round R and size S, WORK holds
alignbench's ab-R-S.json (one pair, both variants), fio's fio-R-S-OFFSET.json and the
plain loop's plain-R-S-OFFSET.txt (its second field: the median ns per write+sync), at
OFFSET 0 (aligned) and SHIFT (unaligned). fio's cost of a write is its write latency
plus its sync latency: p50 + p50, and mean + mean.

One line per size and variant: the medians over the rounds of the three tools' p50 in
ms and their ratios, the means of alignbench and fio and theirs; last, the largest
median difference against fio and against the plain loop.
"""
import json
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402

ROW = "%6s %-9s | %10.4f %10.4f %10.4f | %8.3f %8.3f | %10.4f %10.4f %8.3f"


def fio_cost(path):
    """fio's (p50, mean) ns of a write and its sync: write's plus sync's."""
    with open(path) as f:
        job = json.load(f)["jobs"][0]
    write, sync = job["write"]["lat_ns"], job["sync"]["lat_ns"]
    p50 = lambda lat: lat["percentile"]["50.000000"]  # noqa: E731
    return p50(write) + p50(sync), write["mean"] + sync["mean"]


def medians(work, size, variant, offset, rounds):
    """Over the rounds, the medians of: alignbench's p50 and fio's, the plain loop's,
    alignbench's mean and fio's (ns)."""
    ab_p50, ab_mean, fio_p50, fio_mean, plain_p50 = [], [], [], [], []
    for r in range(1, rounds + 1):
        with open("%s/ab-%d-%s.json" % (work, r, size)) as f:
            ws = json.load(f)["alignbench"]["pairs"][0][variant]["write_sync"]
        ab_p50.append(ws["p50_ns"])
        ab_mean.append(ws["mean_ns"])
        p50, mean = fio_cost("%s/fio-%d-%s-%s.json" % (work, r, size, offset))
        fio_p50.append(p50)
        fio_mean.append(mean)
        with open("%s/plain-%d-%s-%s.txt" % (work, r, size, offset)) as f:
            plain_p50.append(float(f.read().split()[1]))
    return tuple(statistics.median(v) for v in (ab_p50, fio_p50, plain_p50, ab_mean, fio_mean))


def table(work, sizes, rounds, shift):
    """The lines the script prints."""
    lines = ["%6s %-9s | %10s %10s %10s | %8s %8s | %10s %10s %8s" % (
        "size", "variant", "ab p50", "fio p50", "plain p50", "ab/fio", "ab/plain",
        "ab mean", "fio mean", "ab/fio")]
    worst = worst_plain = 0.0
    for size in sizes:
        for variant, offset in (("aligned", "0"), ("unaligned", shift)):
            a, f, p, am, fm = medians(work, size, variant, offset, rounds)
            worst = max(worst, abs(a / f - 1))
            worst_plain = max(worst_plain, abs(a / p - 1))
            lines.append(ROW % (size, variant, a / 1e6, f / 1e6, p / 1e6, a / f, a / p,
                                am / 1e6, fm / 1e6, am / fm))
    lines.append("ms per write+sync, medians over %d interleaved rounds; fio p50 = write p50 + "
                 "sync p50 (fio's percentiles are histogram buckets, within about 1.6 %%)."
                 % rounds)
    lines.append("largest median difference: %.1f %% against fio, %.1f %% against the plain "
                 "loop" % (worst * 100, worst_plain * 100))
    return lines


def main():
    work, sizes, rounds, shift = operands(__doc__, 4, 4)
    print("\n".join(table(work, sizes.split(","), int(rounds), shift)))


if __name__ == "__main__":
    main()
