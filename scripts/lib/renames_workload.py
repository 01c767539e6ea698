#!/usr/bin/python3 -Es
"""A program for timing `alignbench record` itself (docs/measurements.md).

    python3 renames_workload.py DIR [COMMITS]

In DIR, COMMITS (default 20000) appends of 40 bytes to DIR/log, each fsync'd, and a
rename of a fresh DIR/m.tmp over DIR/m after every second one: a program that renames as
much as it commits. On a tmpfs (/dev/shm) the syncs cost nothing, so what is timed is
strace and record's reading of its output.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402


def main():
    args = operands(__doc__, 1, 2)
    directory = args[0]
    commits = int(args[1]) if len(args) > 1 else 20000
    log = os.open(os.path.join(directory, "log"),
                  os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for i in range(commits):
        os.write(log, b"x" * 40)
        os.fsync(log)
        if i % 2 == 0:
            tmp = os.path.join(directory, "m.tmp")
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT, 0o644))
            os.rename(tmp, os.path.join(directory, "m"))
    os.close(log)


if __name__ == "__main__":
    main()
