"""scripts/lib/strace_normal.py, behind scripts/syscall-diff: what differs from run to
run of one build (pids, addresses, descriptor numbers, the private files' names, read
and write bytes, the order of writer threads' writes) is gone, and what a change to the
write path could change (a call, its offset or length, its order among syncs) stays."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402,F401
import strace_normal  # noqa: E402

ONE = """\
100 openat(AT_FDCWD, "/d/.alignbench-100-0badf00d", O_RDWR|O_CREAT|O_EXCL, 0600) = 5
100 mmap(NULL, 8192, PROT_READ, MAP_SHARED, 5, 0) = 0x7f00aa000000
100 pwrite64(5, "ab"..., 4096, 24 <unfinished ...>
101 pwrite64(5, "cd"..., 4096, 4120) = 4096
100 <... pwrite64 resumed>) = 4096
100 io_uring_setup(16, {flags=0, sq_entries=16}) = 9
100 io_uring_enter(9, 4, 1, IORING_ENTER_GETEVENTS, NULL, 8) = 4
100 io_uring_enter(9, 0, 1, IORING_ENTER_GETEVENTS, NULL, 8) = 0
100 fdatasync(5)                 = 0
100 write(2, "took 12 ms\\n", 11) = 11
100 write(2, "took 9 ms\\n", 10) = 10
100 close(5) = 0
+++ exited with 0 +++
"""

TWO = """\
200 openat(AT_FDCWD, "/d/.alignbench-200-12345678", O_RDWR|O_CREAT|O_EXCL, 0600) = 7
200 mmap(NULL, 8192, PROT_READ, MAP_SHARED, 7, 0) = 0x7f11bb000000
201 pwrite64(7, "cd"..., 4096, 4120) = 4096
200 pwrite64(7, "ab"..., 4096, 24) = 4096
200 io_uring_setup(16, {flags=0, sq_entries=16}) = 8
200 io_uring_enter(8, 4, 1, IORING_ENTER_GETEVENTS, NULL, 8) = 4
200 fdatasync(7) = 0
200 write(2, "took 3 ms\\n", 10) = 10
200 close(7) = 0
"""


class NormalTest(unittest.TestCase):
    def test_two_runs_of_one_build_are_the_same(self):
        one = strace_normal.normal(ONE.splitlines(True))
        self.assertEqual(one, strace_normal.normal(TWO.splitlines(True)))
        self.assertIn('pwrite64(fd1, "ab"..., 4096, 24) = 4096', one)
        self.assertIn("mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd1, 0) = ADDR", one)

    def test_a_moved_write_or_sync_is_seen(self):
        moved = TWO.replace("4096, 24)", "4096, 28)")
        self.assertNotEqual(strace_normal.normal(ONE.splitlines(True)),
                            strace_normal.normal(moved.splitlines(True)))
        fewer = TWO.replace("(8, 4, 1,", "(8, 3, 1,")
        self.assertNotEqual(strace_normal.normal(ONE.splitlines(True)),
                            strace_normal.normal(fewer.splitlines(True)))
        late = TWO.replace("200 fdatasync(7) = 0\n", "").replace(
            "200 close(7)", "200 fdatasync(7) = 0\n200 close(7)")
        self.assertNotEqual(strace_normal.normal(ONE.splitlines(True)),
                            strace_normal.normal(late.splitlines(True)))


if __name__ == "__main__":
    unittest.main()
