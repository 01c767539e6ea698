#!/usr/bin/python3 -Es
"""Derby's case on several filesystems, as two markdown tables: per size and
filesystem the typical gain of aligning with its 95 % interval and verdict (A
aligned faster, U unaligned faster, a and u leaning that way, = no significant
difference, ? undecided),
then the aligned variant's mean ms per write+sync with the device writes and
KiB written per write, unaligned/aligned. scripts/seed-2013 writes them; the
columns are the files, named by their filesystem.

    python3 fs_tables.py FILE...
"""
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
import helper_args  # noqa: E402
from shown import shown  # noqa: E402

MARKS = {"aligned faster": "A", "unaligned faster": "U", "leans aligned": "a",
         "leans unaligned": "u", "no significant difference": "=", "undecided": "?"}


def size_label(size):
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if size % scale == 0:
            return "%d%s" % (size // scale, unit)
    return "%dB" % size


def gain_cell(pair):
    interval = pair.get("gain_interval_pct")
    if not interval:
        return "n/a"
    # Schema 1 kept no estimate with its interval: its gain_pct was the centre it printed
    # (alignbench's own reader takes the same).
    estimate = interval.get("estimate_pct", pair.get("gain_pct"))
    return "%+.1f [%+.1f, %+.1f] %s" % (estimate, interval["low"], interval["high"],
                                        MARKS.get(pair["verdict"], "?"))


def cost_cell(pair):
    ms = pair["aligned"]["write_sync"]["mean_ns"] / 1e6
    u, a = (pair[v].get("device_per_write") for v in ("unaligned", "aligned"))
    if not (u and a):
        return "%.3f; no device" % ms
    return "%.3f; %.1f/%.1f w, %.0f/%.0f KiB" % (ms, u["writes"], a["writes"],
                                                 u["written_kib"], a["written_kib"])


def table(runs, heading, cell):
    names = [name for name, _ in runs]
    lines = ["| size | " + " | ".join(names) + " |",
             "|---:|" + "---|" * len(names)]
    sizes = [p["size_bytes"] for p in runs[0][1]["pairs"]]
    for size in sizes:
        cells = []
        for _, run in runs:
            pair = next((p for p in run["pairs"] if p["size_bytes"] == size), None)
            cells.append(cell(pair) if pair else "-")
        lines.append("| %s | %s |" % (size_label(size), " | ".join(cells)))
    return heading + "\n\n" + "\n".join(lines) + "\n"


def main():
    files = helper_args.operands(__doc__, 1)
    runs = []
    for path in files:
        with open(path) as f:
            run = json.load(f)["alignbench"]
        runs.append((shown(run["environment"]["target"].get("fs_type", path)), run))
    print(table(runs, "%gain of aligning [95% interval] verdict:", gain_cell))
    print(table(runs, "aligned ms per write+sync; device writes and KiB written per "
                "write, unaligned/aligned:", cost_cell))


if __name__ == "__main__":
    main()
