"""scripts/lib/fs_tables.py, behind the filesystem tables of scripts/seed-2013: a column
per file named by its filesystem, a row per size of the first file, each verdict's mark,
the aligned variant's ms and both variants' device writes, and "-" where a file lacks a
size, on hand-made results."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import fs_tables  # noqa: E402


def pair(size, verdict, estimate, low, high, device=True):
    p = {"size_bytes": size, "verdict": verdict,
         "gain_interval_pct": {"estimate_pct": estimate, "low": low, "high": high},
         "unaligned": {}, "aligned": {"write_sync": {"mean_ns": 1.5e6}}}
    if device:
        p["unaligned"]["device_per_write"] = {"writes": 2.0, "written_kib": 12}
        p["aligned"]["device_per_write"] = {"writes": 1.0, "written_kib": 8}
    return p


def run(fs, pairs):
    return support.result(pairs, environment={"target": {"fs_type": fs}})


class CellsTest(unittest.TestCase):
    def test_gain_cell_marks(self):
        marks = {"aligned faster": "A", "unaligned faster": "U", "leans aligned": "a",
                 "leans unaligned": "u", "no significant difference": "=", "undecided": "?"}
        for verdict, mark in marks.items():
            self.assertEqual(fs_tables.gain_cell(pair(4096, verdict, 3, 1, 5)),
                             f"+3.0 [+1.0, +5.0] {mark}")
        self.assertEqual(fs_tables.gain_cell({"gain_interval_pct": None}), "n/a")
        # Schema 1 (results/vm-loop/) kept no estimate: its gain_pct is the centre.
        old = {"verdict": "aligned faster", "gain_pct": 2.5,
               "gain_interval_pct": {"low": 1, "high": 4}}
        self.assertEqual(fs_tables.gain_cell(old), "+2.5 [+1.0, +4.0] A")

    def test_cost_cell(self):
        self.assertEqual(fs_tables.cost_cell(pair(4096, "undecided", 0, 0, 0)),
                         "1.500; 2.0/1.0 w, 12/8 KiB")
        self.assertEqual(fs_tables.cost_cell(pair(4096, "undecided", 0, 0, 0, device=False)),
                         "1.500; no device")

    def test_size_labels(self):
        self.assertEqual([fs_tables.size_label(s) for s in (1 << 20, 4096, 1536, 100)],
                         ["1M", "4K", "1536B", "100B"])


class MainTest(support.FilesTest):
    def test_columns_by_filesystem_rows_by_the_first_files_sizes(self):
        ext4 = self.write("a.json", run("ext4", [pair(8192, "aligned faster", 9, 7, 11),
                                                 pair(4096, "leans unaligned", -2, -4, 0)]))
        xfs = self.write("b.json", run("xfs", [pair(4096, "no significant difference",
                                                    0.5, -1, 2)]))
        _, out = support.run_main(fs_tables.main, ext4, xfs)
        lines = out.splitlines()
        self.assertEqual(lines[2:6], ["| size | ext4 | xfs |", "|---:|---|---|",
                                      "| 8K | +9.0 [+7.0, +11.0] A | - |",
                                      "| 4K | -2.0 [-4.0, +0.0] u | +0.5 [-1.0, +2.0] = |"])


if __name__ == "__main__":
    unittest.main()
