#!/usr/bin/env python3
"""Compares the per-commit write pattern of an engine's log with a case's, from two
traces written by `alignbench record` (schema alignbench-trace, version 1 to 3).

    pattern.py ENGINE_TRACE CASE_TRACE [--last N]

A commit's pattern, per traced file: the order of its operations (write, sync, truncate,
allocate: what a case's rules write; a trace's reads, stats, unlinks, creations and
directory syncs are left out; writes that continue one another are one extent), the sync
call (or the O_DSYNC/O_SYNC write that ends it), whether every write starts on a 512- and
on a 4096-byte boundary, whether every length is a whole number of 4096-byte blocks,
whether the first write starts before the end of the previous commit's last write (the
tail block or page written again), and the bytes written. A file's pattern is each feature's most common value
over its last N commits (default 100: setup, prewriting and warm-up come first), and its
mean bytes per commit. The engine's log is the file with the most commits; the case
matches when one of its files (a case's run writes one file per variant and run) has the
same pattern, with bytes per commit within 10 %. Open flags that change the I/O path
(O_DIRECT, O_DSYNC, O_SYNC) must match too; the file's state is printed beside them.
Prints both patterns; exits 0 on a match, 1 on none, 2 on a trace it cannot use.
"""
import collections
import json
import os
import sys

PATH_FLAGS = ("O_DIRECT", "O_DSYNC", "O_SYNC")
FEATURES = ("ops", "sync", "offset_512", "offset_4096", "whole_4096", "tail_rewrite")
WRITTEN = ("write", "sync", "truncate", "allocate")  # the operations a case's rules make
NAME = os.path.basename(sys.argv[0]) or "pattern.py"  # the script that reads: its errors say it


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            trace = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: cannot read trace %s: %s" % (NAME, path, e), file=sys.stderr)
        sys.exit(2)
    if trace.get("schema") != "alignbench-trace" or trace.get("version") not in (1, 2, 3):
        print("%s: %s is not an alignbench-trace version 1 to 3" % (NAME, path),
              file=sys.stderr)
        sys.exit(2)
    return trace


def coalesce(calls):
    """A commit's operations with each run of writes that continue one another (the next
    starts where the last ended) made one extent: SQLite writes a frame's header and its
    page in two calls that reach the page cache as one range, as a case's one write does."""
    ops = []
    for op in calls:
        last = ops[-1] if ops else None
        if (op["op"] == "write" and last is not None and last["op"] == "write" and
                op["offset"] == last["offset"] + last["length"]):
            ops[-1] = dict(last, length=last["length"] + op["length"])
        else:
            ops.append(op)
    return ops


def per_file(trace, last):
    """{file index: [commit features]} over the last `last` commits of each file."""
    files = trace.get("files", [])
    commits = collections.defaultdict(list)
    end = {}  # where each file's previous commit ended its last write
    for commit in trace.get("commits", []):
        by_file = collections.defaultdict(list)
        for op in commit.get("ops", []):
            if op["op"] in WRITTEN:
                by_file[op["file"]].append(op)
        for index, calls in by_file.items():
            ops = coalesce(calls)
            writes = [op for op in ops if op["op"] == "write"]
            syncs = [op.get("call", "sync") for op in ops if op["op"] == "sync"]
            flags = set(files[index].get("flags", [])) if index < len(files) else set()
            if not syncs:
                syncs = [f for f in ("O_DSYNC", "O_SYNC") if f in flags] or ["none"]
            before = end.get(index)
            if writes:
                end[index] = writes[-1]["offset"] + writes[-1]["length"]
            if not writes:
                continue
            first = writes[0]["offset"]
            commits[index].append({
                "ops": "+".join(op["op"] for op in ops),
                "sync": "+".join(syncs),
                "offset_512": all(op["offset"] % 512 == 0 for op in writes),
                "offset_4096": all(op["offset"] % 4096 == 0 for op in writes),
                "whole_4096": all(op["length"] % 4096 == 0 for op in writes),
                "tail_rewrite": before is not None and first < before,
                "bytes": sum(op["length"] for op in writes),
            })
    return {i: c[-last:] for i, c in commits.items()}


def pattern(trace, index, commits):
    info = trace["files"][index] if index < len(trace.get("files", [])) else {}
    p = {f: collections.Counter(c[f] for c in commits).most_common(1)[0][0] for f in FEATURES}
    p["bytes"] = sum(c["bytes"] for c in commits) / len(commits)
    p["flags"] = sorted(f for f in info.get("flags", []) if f in PATH_FLAGS)
    p["state"] = info.get("state", "?")
    p["commits"] = len(commits)
    p["path"] = info.get("path", "?")
    return p


def same(engine, case):
    return (all(engine[f] == case[f] for f in FEATURES) and engine["flags"] == case["flags"]
            and abs(case["bytes"] - engine["bytes"]) <= 0.1 * engine["bytes"])


def show(label, p):
    print("  %-6s %s: %s, sync %s, offsets 512-aligned %s, 4096-aligned %s, whole 4 KiB "
          "blocks %s, tail block rewritten %s, %.0f B per commit, flags [%s], %s (%d commits)"
          % (label, p["path"], p["ops"], p["sync"], p["offset_512"], p["offset_4096"],
             p["whole_4096"], p["tail_rewrite"], p["bytes"], " ".join(p["flags"]),
             p["state"], p["commits"]))


def main(argv):
    last = 100
    args = list(argv)
    if "--last" in args:
        i = args.index("--last")
        last = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    engine_trace, case_trace = load(args[0]), load(args[1])
    engine_files, case_files = per_file(engine_trace, last), per_file(case_trace, last)
    if not engine_files or not case_files:
        print("pattern.py: a trace has no commit with a write (engine %d files, case %d)"
              % (len(engine_files), len(case_files)), file=sys.stderr)
        return 2
    log = max(engine_files, key=lambda i: len(engine_files[i]))
    engine = pattern(engine_trace, log, engine_files[log])
    show("engine", engine)
    cases = [pattern(case_trace, i, c) for i, c in sorted(case_files.items())
             if len(c) >= min(last, len(engine_files[log])) // 2]
    matched = [c for c in cases if same(engine, c)]
    for c in matched or cases:
        show("case" if matched else "case?", c)
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
