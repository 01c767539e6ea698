#!/usr/bin/env python3
"""pattern.py and group_sync.py on hand-made traces: what must match matches, and each
feature they compare makes two traces differ when it differs. Fast tier: no root, no
engine."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def trace(path, commits, flags=("O_RDWR",)):
    return {"schema": "alignbench-trace", "version": 1,
            "files": [{"path": path, "flags": list(flags), "state": "new", "size_at_open": 0}],
            "commits": [{"ops": ops} for ops in commits]}


def sqlite_like(split, n=120, header=32, frame=4120):
    """n commits of one frame after a header; split: header and page as two writes."""
    commits = []
    for k in range(n):
        at = header + k * frame
        writes = ([{"op": "write", "file": 0, "offset": at, "length": 24},
                   {"op": "write", "file": 0, "offset": at + 24, "length": frame - 24}]
                  if split else [{"op": "write", "file": 0, "offset": at, "length": frame}])
        commits.append(writes + [{"op": "sync", "file": 0, "call": "fdatasync"}])
    return commits


def pages(n=120, call="fdatasync", page=8192, per_page=20):
    """n commits rewriting the current 8 KiB page, as PostgreSQL's WAL."""
    commits = []
    for k in range(n):
        ops = [{"op": "write", "file": 0, "offset": (k // per_page) * page, "length": page}]
        if call:
            ops.append({"op": "sync", "file": 0, "call": call})
        commits.append(ops)
    return commits


def matches(engine, case, script="pattern.py", args=()):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, t in (("engine", engine), ("case", case)):
            paths.append(os.path.join(d, name + ".json"))
            with open(paths[-1], "w") as f:
                json.dump(t, f)
        run = subprocess.run([sys.executable, os.path.join(HERE, script)] + paths + list(args),
                             capture_output=True, text=True)
        if run.returncode not in (0, 1):
            raise SystemExit("%s failed: %s" % (script, run.stderr))
        return run.returncode == 0


def groups(n=50, per=4, length=180, call="fdatasync", joined=False, prepared=True):
    """n syncs, each after `per` commits of `length` bytes appended to a 330-byte header, as
    MariaDB's binlog with sync_binlog=per; prepared: the header written and synced first, as
    a case's file is (a server recorded by --pid wrote it before). joined: each group's
    commits in one write."""
    header = [[{"op": "write", "file": 0, "offset": 0, "length": 330},
               {"op": "sync", "file": 0, "call": "fsync"}]]
    commits = header if prepared else []
    at = 330
    for _ in range(n):
        sizes = [per * length] if joined else [length] * per
        ops = []
        for size in sizes:
            ops.append({"op": "write", "file": 0, "offset": at, "length": size})
            at += size
        commits.append(ops + [{"op": "sync", "file": 0, "call": call}])
    return commits


def grouped(engine, case):
    return matches(engine, case, "group_sync.py", ["4"])


def with_reads(commits):
    """A version 2 trace's commits: a stat and a read of the log before each commit's
    writes, as SQLite makes them."""
    return [[{"op": "stat", "file": 0}, {"op": "read", "file": 0, "offset": 24, "length": 16}]
            + ops for ops in commits]


def version2(t):
    return dict(t, version=2)


checks = [
    ("a version 2 trace's reads and stats leave its pattern as it was",
     matches(version2(trace("/r/db-wal", with_reads(sqlite_like(True)))),
             trace("/r/.a", sqlite_like(False)))),
    ("SQLite's split frame writes match a case's one write",
     matches(trace("/r/db-wal", sqlite_like(True)), trace("/r/.a", sqlite_like(False)))),
    ("frames at page boundaries do not match shifted frames",
     not matches(trace("/r/db-wal", sqlite_like(False)),
                 trace("/r/.a", sqlite_like(False, header=0, frame=4096)))),
    ("page rewrites match page rewrites",
     matches(trace("/r/wal", pages()), trace("/r/.a", pages(per_page=64)))),
    ("a page rewritten does not match pages appended",
     not matches(trace("/r/wal", pages()), trace("/r/.a", pages(per_page=1)))),
    ("fdatasync does not match fsync",
     not matches(trace("/r/wal", pages()), trace("/r/.a", pages(call="fsync")))),
    ("an O_DSYNC log does not match one without the flag",
     not matches(trace("/r/wal", pages(call=None), ("O_RDWR", "O_DSYNC")),
                 trace("/r/.a", pages(call="fdatasync")))),
    ("O_DIRECT must be on both sides",
     not matches(trace("/r/log", pages(), ("O_RDWR", "O_DIRECT")), trace("/r/.a", pages()))),
    ("bytes per commit more than 10 % apart do not match",
     not matches(trace("/r/wal", pages()), trace("/r/.a", pages(page=12288)))),
    ("group_sync: four writes then a sync match the same after a case's header",
     grouped(trace("/r/bin.000001", groups(prepared=False)), trace("/r/.a", groups()))),
    ("group_sync: a sync per write does not match a sync per four",
     not grouped(trace("/r/bin.000001", groups(prepared=False)), trace("/r/.a", groups(per=1)))),
    ("group_sync: four commits in one write do not match four writes",
     not grouped(trace("/r/bin.000001", groups(prepared=False, joined=True)),
                 trace("/r/.a", groups()))),
    ("group_sync: the same groups at other offsets do not match",
     not grouped(trace("/r/bin.000001", groups(prepared=False)),
                 trace("/r/.a", groups(length=200)))),
    ("group_sync: fsync does not match fdatasync",
     not grouped(trace("/r/bin.000001", groups(prepared=False)), trace("/r/.a", groups(call="fsync")))),
]
failed = [what for what, ok in checks if not ok]
for what in failed:
    print("FAIL: %s" % what, file=sys.stderr)
print("%d passed, %d failed" % (len(checks) - len(failed), len(failed)))
sys.exit(1 if failed else 0)
