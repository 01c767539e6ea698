"""scripts/lib/answer_time.py, behind the Derby timing figures (scripts/answer-check): the
seconds of measuring and of the session, the blocks of a pair in rounds and of a fixed
one, the disk's noise c, the oracle's seconds (each pair's (c/P)^2 blocks, at least the
first round's, at its own seconds per block), the others' writes and CPU, and the runs
counted as answered in time, on hand-made result files."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import answer_time  # noqa: E402


def runs(n, wall, start=0.0):
    return [{"wall_s": wall, "start_s": start + i * wall} for i in range(n)]


def variant(n, wall, start=0.0, background=None, mean_ns=1e6):
    v = {"runs": runs(n, wall, start), "write_sync": {"mean_ns": mean_ns}}
    if background is not None:
        v["device_background_per_write"] = {"writes": background}
    return v


# In rounds: 16 blocks of 0.5 s (8 s), half-width 2, so c = 2 * sqrt(16) = 8; at P = 5
# it needs (8/5)^2 = 2.56 blocks, held to the first round's 6: 6 * 8 s / 16 = 3 s. Others
# wrote 0.001 and 0.01 times per write of 1 ms: 1 and 10 writes/s.
IN_ROUNDS = {"rounds": {"blocks": 16, "rounds": 3},
             "gain_interval_pct": {"low": 1, "high": 5},
             "unaligned": variant(16, 0.25, background=0.001),
             "aligned": variant(16, 0.25, background=0.01)}
# Fixed: 4 blocks of 1 s, half-width 10: c = 20, (20/5)^2 = 16 blocks: 16 * 4 s / 4 = 16 s.
# Its last run starts at 30.5 s and ends at 31 s; others used 30 % of the CPU.
FIXED = {"gain_interval_pct": {"low": -10, "high": 10}, "others_cpu_share": 0.3,
         "unaligned": variant(4, 0.5), "aligned": variant(4, 0.5, start=29.0)}
SETTINGS = {"precision_points": 5, "repetitions": 6}


class SummarizeTest(support.FilesTest):
    def test_seconds_blocks_and_the_oracle(self):
        path = self.write("run.json", support.result([IN_ROUNDS, FIXED], settings=SETTINGS))
        row = answer_time.summarize(path)
        self.assertEqual((row["seconds"], row["session"]), (12.0, 31.0))
        self.assertEqual((row["rounds"], row["blocks"]), (3, 20))
        self.assertEqual((row["within"], row["pairs"]), (1, 2))
        self.assertEqual(row["widths"], [2, 10])
        self.assertEqual(row["c"], [8, 20])
        self.assertAlmostEqual(row["oracle"], 3.0 + 16.0)

    def test_others_busiest_writes_and_cpu(self):
        path = self.write("run.json", support.result([IN_ROUNDS, FIXED], settings=SETTINGS))
        row = answer_time.summarize(path)
        self.assertAlmostEqual(row["busiest"], 10.0)
        self.assertEqual(row["cpu"], 0.3)

    def test_precision_and_first_round_from_the_file(self):
        # At P = 2, the pair in rounds needs (8/2)^2 = 16 blocks: 16 * 8 s / 16 = 8 s;
        # the fixed one (20/2)^2 = 100: 100 s. A first round of 20 lifts the first to 10 s.
        path = self.write("p2.json", support.result([IN_ROUNDS, FIXED],
                                                    settings={"precision_points": 2}))
        self.assertAlmostEqual(answer_time.summarize(path)["oracle"], 8.0 + 100.0)
        path = self.write("r20.json", support.result(
            [IN_ROUNDS], settings={"precision_points": 2, "repetitions": 20}))
        self.assertAlmostEqual(answer_time.summarize(path)["oracle"], 10.0)


class MainTest(support.FilesTest):
    def files(self):
        # the file above (12 s, one pair of two within, the oracle 19 s) and one whose
        # only pair is within: 6 blocks of 2 s, the oracle the first round's 6: 12 s.
        within = {"gain_interval_pct": {"low": 0, "high": 2},
                  "unaligned": variant(6, 1.0), "aligned": variant(6, 1.0)}
        return (self.write("a.json", support.result([IN_ROUNDS, FIXED], settings=SETTINGS)),
                self.write("b.json", support.result([within], settings=SETTINGS)))

    def test_row_of_a_run(self):
        a, b = self.files()
        _, out = support.run_main(answer_time.main, a, b)
        self.assertIn(f"{a} | 12.0 s | 31.0 s | 3 | 20 | 1 of 2 within ±5 | 2.00-10.00 | "
                      "14.0 (8.0-20.0) | 19.0 s | 10.0 (busy) | 30 % (busy)", out.splitlines())

    def test_answered_in_time_and_the_oracle(self):
        a, b = self.files()
        cases = {("--within", 15): ("every pair within its precision: 1 of 2 runs; and in at "
                                    "most 15 s of measuring: 1 of 2 runs (12.0 s)", 1),
                 ("--within", 20, "--pairs", 1): (
                     "at least 1 pairs within their precision: 2 of 2 runs; and in at most "
                     "20 s of measuring: 2 of 2 runs (12.0 s, 12.0 s)", 2),
                 ("--within", 11.9): ("every pair within its precision: 1 of 2 runs; and in "
                                      "at most 11.9 s of measuring: 0 of 2 runs (none)", 0)}
        for options, (answered, oracle) in cases.items():
            _, out = support.run_main(answer_time.main, *options, a, b)
            lines = out.splitlines()
            self.assertEqual(lines[-2], answered)
            self.assertEqual(lines[-1], "the oracle (every pair to its precision) in at most "
                             f"{options[1]:g} s: {oracle} of 2 runs")


if __name__ == "__main__":
    unittest.main()
