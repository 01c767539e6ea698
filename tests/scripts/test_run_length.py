"""scripts/lib/run_length.py, behind the run-length figure (scripts/run-length-check): a
pair's seconds are from each of its runs' start to the next run's start, the last run's
its own plus the session's typical gap; a size's cost of a precision is half-width^2 x
seconds, and the ratio of the two run lengths', on hand-made sessions."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import run_length  # noqa: E402


def pair(size, low, high, unaligned, aligned):
    """UNALIGNED and ALIGNED: (start_s, wall_s) of each run."""
    return {"size_bytes": size, "gain_interval_pct": {"low": low, "high": high},
            "unaligned": {"runs": [{"start_s": s, "wall_s": w} for s, w in unaligned]},
            "aligned": {"runs": [{"start_s": s, "wall_s": w} for s, w in aligned]}}


class PairCostsTest(unittest.TestCase):
    def test_gaps_to_the_next_start_and_the_last_run_plus_the_median_overhead(self):
        # Runs in time: 0 (1 s), 1.5 (1 s) of pair 0, 3 (2 s), 5.5 (1 s) of pair 1: gaps
        # 1.5, 1.5, 2.5, each 0.5 s over its run; the last run costs 1 + 0.5.
        result = {"pairs": [pair(4096, 0, 2, [(0, 1)], [(1.5, 1)]),
                            pair(8192, 0, 2, [(3, 2)], [(5.5, 1)])]}
        self.assertEqual(run_length.pair_costs(result), {0: 3.0, 1: 4.0})

    def test_one_run_alone_costs_its_own_seconds(self):
        self.assertEqual(run_length.pair_costs({"pairs": [pair(4096, 0, 2, [(7, 2.5)], [])]}),
                         {0: 2.5})


class MainTest(support.FilesTest):
    def test_the_cost_of_a_precision_and_the_ratio(self):
        # --writes 8: half-width 2 in 3 s (12); --writes 32: half-width 1 in 6 s (6): 0.50.
        # A pair without an interval is left out.
        short = [pair(4096, -2, 2, [(0, 1)], [(1.5, 1)]),
                 {"size_bytes": 8192, "gain_interval_pct": None, "unaligned": {}, "aligned": {}}]
        long = [pair(4096, 0, 2, [(0, 2.5)], [(3, 2.5)])]
        self.write("w8-1.json", support.result(short))
        self.write("w32-1.json", support.result(long))
        _, out = support.run_main(run_length.main, self.dir, 8, 32)
        lines = out.splitlines()
        self.assertEqual(len(lines), 3)
        self.assertEqual(lines[1].split(), ["4K", "|", "2.0", "3.00", "|", "1.0", "6.00", "|",
                                            "12", "6", "0.50"])
        self.assertEqual(lines[2], "median ratio 32/8 of the seconds for a precision: 0.50 "
                         "(below 1: --writes 32 is cheaper)")


if __name__ == "__main__":
    unittest.main()
