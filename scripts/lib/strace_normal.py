#!/usr/bin/python3 -Es
"""strace -f output made comparable from one build to another (scripts/syscall-diff).

    python3 strace_normal.py TRACE

Prints TRACE (strace -f -o) one call a line, without what differs from run to run of
the same build: process ids, addresses, the private test files' random names, the
descriptors' numbers (each named by the order it was opened in), the filesystem's free
space and the file's count of extents (statfs, FIEMAP), and the bytes and
lengths of read(2) and write(2) (results, /proc, the terminal; the test file's
pwrite64 keeps its offset, length and bytes, which are seeded). A call split by another
thread's (<unfinished ...>, <... resumed>) is joined; runs of the same read or write
line are one; writes of a group's writer threads between two other calls are sorted,
as the threads take the commits in either order.
"""
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree for the import below
from helper_args import operands  # noqa: E402

PID = re.compile(r"^(\d+)\s+")
UNFINISHED = " <unfinished ...>"
RESUMED = re.compile(r"^<\.\.\. (\w+) resumed>\s?")
MAKES_FD = {"open", "openat", "creat", "dup", "dup2", "dup3", "eventfd2", "memfd_create",
            "io_uring_setup", "pipe2", "socket", "epoll_create1", "timerfd_create",
            "signalfd4", "inotify_init1", "fcntl"}
NAME = re.compile(r"\.alignbench-\d+-[0-9a-f]+")
ADDR = re.compile(r"0x[0-9a-f]+")
# What the filesystem decides, not the program: free space, how many extents.
COUNTS = re.compile(r"\b(f_bfree|f_bavail|f_ffree|fm_mapped_extents|fm_extent_count)=\d+")
CALL = re.compile(r"^(\w+)\((.*)$")
# io_uring_enter that submits nothing and waits: how often is the kernel's timing.
WAIT = re.compile(r"^io_uring_enter\(\d+, 0, ")


def joined(lines):
    """Each call on one line, the process id dropped."""
    pending = {}
    for line in lines:
        line = line.rstrip("\n")
        match = PID.match(line)
        pid = match.group(1) if match else ""
        line = line[match.end():] if match else line
        if line.startswith("+++") or line.startswith("---"):
            continue
        if line.endswith(UNFINISHED):
            pending[pid] = line[: -len(UNFINISHED)]
            continue
        resumed = RESUMED.match(line)
        if resumed:
            line = pending.pop(pid, resumed.group(1) + "(") + line[resumed.end():]
        yield line


class Descriptors:
    """Descriptor numbers named fd1, fd2, ... in the order they were made."""

    def __init__(self):
        self.names = {}
        self.made = 0

    def name(self, number):
        return self.names.get(number, "fd?" + number if int(number) > 2 else number)

    def rename(self, call, args, result):
        first = re.match(r"^(-?\d+)(.*)$", args)
        if first and call not in ("exit_group", "io_uring_setup"):
            args = self.name(first.group(1)) + first.group(2)
        made = re.match(r"^(.*) = (\d+)$", args)
        if call in MAKES_FD and made and (call != "fcntl" or "F_DUPFD" in args):
            self.made += 1
            self.names[made.group(2)] = "fd%d" % self.made
            args = made.group(1) + " = " + self.names[made.group(2)]
        if call == "mmap":  # the descriptor is the fifth argument
            parts = args.split(", ")
            if len(parts) > 5 and parts[4] != "-1":
                parts[4] = self.name(parts[4])
                args = ", ".join(parts)
        if call == "close" and first:
            self.names.pop(first.group(1), None)
        return args


def normal(lines):
    """The calls of a trace, normalized."""
    fds = Descriptors()
    out = []
    for line in joined(lines):
        line = ADDR.sub("ADDR", NAME.sub(".alignbench-PID-RANDOM", line))
        line = re.sub(r"/proc/\d+/", "/proc/PID/", line)
        line = COUNTS.sub(r"\1=N", line)
        line = re.sub(r"\s+= ", " = ", line)  # strace pads results to a column
        if WAIT.match(line):
            continue
        call = CALL.match(line)
        if not call:
            out.append(line)
            continue
        name, args = call.group(1), call.group(2)
        args = fds.rename(name, args, None)
        if name in ("read", "write", "pread64"):
            args = args.split(",", 1)[0] + ", ...)"
        line = name + "(" + args
        if out and out[-1] == line and name in ("read", "write", "pread64"):
            continue
        out.append(line)
    return sorted_writes(out)


def sorted_writes(lines):
    """Each run of pwrite64 lines in sorted order."""
    result, run = [], []
    for line in lines + [""]:
        if line.startswith("pwrite64("):
            run.append(line)
            continue
        result.extend(sorted(run))
        run = []
        result.append(line)
    return result[:-1]


def main():
    (path,) = operands(__doc__, 1, 1)
    with open(path, errors="replace") as trace:
        for line in normal(trace.readlines()):
            print(line)


if __name__ == "__main__":
    main()
