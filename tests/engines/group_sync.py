#!/usr/bin/env python3
"""Holds a case with commits_per_sync N to an engine that syncs once per N commits, from
two traces written by `alignbench record`: the write calls one by one, where pattern.py
joins the writes that continue one another into one extent and so cannot tell N writes
then a sync from one write of N times the bytes.

    group_sync.py ENGINE_TRACE CASE_TRACE N

The engine's log is its traced file with the most writes. It must hold a commit by
write call, every call of one length, each starting where the one before ended, and
exactly N of them before each sync (a trace's commit ends at the sync), every sync by
one call, and no write after the last sync. A case trace holds a file per variant and
run: one of them must do the same with the same length and call, and write at the same
offsets: its writes from the engine's first offset on (the ones before are its header,
written while the file is prepared) are the engine's, offset for offset, as far as the
shorter of the two goes. Prints what each side does; exits 0 on a match, 1 on none, 2 on
a trace it cannot use.
"""
import sys

from pattern import load  # the trace file, read and checked as pattern.py reads it


def files(trace):
    """{file index: [(op, offset, length or call)]}: each file's writes and syncs in
    order, commit after commit, then the writes after the last sync."""
    ops = {}
    commits = [c.get("ops", []) for c in trace.get("commits", [])]
    commits.append(trace.get("after_last_commit") or [])
    for commit in commits:
        for op in commit:
            if op.get("op") == "write":
                ops.setdefault(op["file"], []).append(("write", op["offset"], op["length"]))
            elif op.get("op") == "sync":
                ops.setdefault(op["file"], []).append(("sync", None, op.get("call", "?")))
    return ops


def shape(ops, start=0):
    """What one file does from offset `start` on: its writes [(offset, length)], the
    number of writes before each sync, the sync calls, the writes after the last sync,
    and the writes that do not start where the one before ended."""
    writes, groups, calls, run, gaps = [], [], set(), 0, 0
    for kind, offset, value in ops:
        if kind == "write":
            if offset < start:
                continue
            if writes and offset != writes[-1][0] + writes[-1][1]:
                gaps += 1
            writes.append((offset, value))
            run += 1
        elif writes:  # a sync before the first write from `start` syncs the header
            groups.append(run)
            calls.add(value)
            run = 0
    return {"writes": writes, "groups": groups, "calls": sorted(calls), "tail": run,
            "gaps": gaps, "lengths": sorted({length for _, length in writes})}


def show(label, path, s):
    w = s["writes"]
    print("  %-6s %s: %d writes of %s B from offset %s, %s writes before each of %d syncs "
          "(%s), %d not where the last ended, %d after the last sync"
          % (label, path, len(w), "/".join(map(str, s["lengths"])), w[0][0] if w else "-",
             "/".join(str(g) for g in sorted(set(s["groups"]))) or "no", len(s["groups"]),
             " ".join(s["calls"]) or "no call", s["gaps"], s["tail"]))


def regular(s, n):
    """Every sync after exactly n writes of one length that follow one another, one call."""
    return (len(s["writes"]) >= n and len(s["lengths"]) == 1 and s["gaps"] == 0
            and s["groups"] and set(s["groups"]) == {n} and len(s["calls"]) == 1
            and s["tail"] == 0)


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    n = int(argv[2])
    engine_trace, case_trace = load(argv[0]), load(argv[1])
    engine_files, case_files = files(engine_trace), files(case_trace)
    logs = {i: ops for i, ops in engine_files.items() if any(k == "write" for k, _, _ in ops)}
    if not logs or not case_files:
        print("group_sync.py: a trace has no write (engine %d files, case %d)"
              % (len(logs), len(case_files)), file=sys.stderr)
        return 2
    log = max(logs, key=lambda i: sum(k == "write" for k, _, _ in logs[i]))
    engine = shape(logs[log])
    show("engine", engine_trace["files"][log]["path"], engine)
    if not regular(engine, n):
        print("  the engine does not write once per commit and sync once per %d" % n)
        return 1
    start = engine["writes"][0][0]
    matched = False
    for i, ops in sorted(case_files.items()):
        case = shape(ops, start)
        if not case["writes"]:
            continue
        common = min(len(case["writes"]), len(engine["writes"]))
        same = (regular(case, n) and case["lengths"] == engine["lengths"]
                and case["calls"] == engine["calls"]
                and case["writes"][:common] == engine["writes"][:common])
        show("case" if same else "case?", case_trace["files"][i]["path"], case)
        matched = matched or same
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
