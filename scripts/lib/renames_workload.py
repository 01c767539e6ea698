"""A program for timing `alignbench record` itself: in DIR, COMMITS appends of
40 bytes to DIR/log, each fsync'd, and a rename of a fresh DIR/m.tmp over
DIR/m after every second one (a program that renames as much as it commits).
On a tmpfs (/dev/shm) the syncs cost nothing, so what is timed is strace and
record's reading of its output.

    python3 scripts/lib/renames_workload.py DIR [COMMITS]
"""
import os
import sys


def main():
    directory = sys.argv[1]
    commits = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
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
