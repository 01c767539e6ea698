"""scripts/lib/verdicts.py, behind the A/A and power figures (scripts/aa-check,
scripts/power-check): which verdicts it counts, how it holds the cross-check to the
verdict's rule on runs, and the totals it prints, on hand-made result files."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import verdicts  # noqa: E402

SIGNED_RANK = "signed-rank-log-median"
WELCH = "welch-log-mean"


def pair(verdict, low, high, cross=None, reps=(6, 6), notes=None):
    """A pair as a result file has it: its verdict and interval, the cross-check's
    interval (or just its method), each variant's repetitions, its far-off notes."""
    p = {"verdict": verdict,
         "gain_interval_pct": {"low": low, "high": high, "method": SIGNED_RANK},
         "cross_check": dict(cross or {}, method=WELCH),
         "unaligned": {"repetitions": reps[0]}, "aligned": {"repetitions": reps[1]}}
    if notes:
        p["run_notes"] = notes
    return p


def with_tail(p, low, high, verdict):
    """The pair with a tail's gain (each run's p99, block by block) and its verdict."""
    return dict(p, tail_gain={"low": low, "high": high, "verdict": verdict,
                              "method": SIGNED_RANK})


# A file without a verdict level of its own (the default: 6 runs) and one with 4; one
# pair with a tail's gain, the others from before it or with runs too short for one.
FILE_A = [with_tail(pair("aligned faster", 1, 5, {"low": 0.5, "high": 3}),
                    2, 6, "aligned faster"),
          pair("shifted faster", -6, -2, {"low": -5, "high": -1}, notes=["run 3 far off"]),
          pair("no significant difference", -3, 3, {"low": 1, "high": 2}, reps=(5, 6)),
          pair("leans aligned", 0.5, 4.5, {"low": -1, "high": 1})]
FILE_B = [pair("undecided", -1, 1, {"low": 1, "high": 2}, reps=(5, 5)),
          pair("unaligned faster", -10, -2)]


class TallyTest(unittest.TestCase):
    def test_each_counted_verdict_once_and_the_old_name_as_unaligned(self):
        pairs = [pair(v, -1, 1) for v in (
            "aligned faster", "unaligned faster", "shifted faster", "leans aligned",
            "leans unaligned", "leans unaligned", "no significant difference", "undecided")]
        counts, _ = verdicts.tally(pairs, verdicts.main_rule)
        self.assertEqual(counts, {"aligned faster": 1, "unaligned faster": 2,
                                  "leans aligned": 1, "leans unaligned": 2})

    def test_half_widths_of_the_pairs_with_an_interval(self):
        pairs = [pair("undecided", 0, 2), pair("undecided", -4, 4), {"verdict": "undecided"}]
        _, widths = verdicts.tally(pairs, verdicts.main_rule)
        self.assertEqual(widths, [1, 4])


class CrossRuleTest(unittest.TestCase):
    def test_direction_from_the_interval(self):
        self.assertEqual(verdicts.cross_rule(pair("x", 0, 0, {"low": 0.1, "high": 2}), 6)[0],
                         "aligned faster")
        self.assertEqual(verdicts.cross_rule(pair("x", 0, 0, {"low": -2, "high": -0.1}), 6)[0],
                         "unaligned faster")
        self.assertEqual(verdicts.cross_rule(pair("x", 0, 0, {"low": 0, "high": 2}), 6)[0],
                         "no significant difference")

    def test_too_few_runs_on_either_side_is_undecided(self):
        for reps in ((5, 6), (6, 5)):
            p = pair("x", 0, 0, {"low": 1, "high": 2}, reps=reps)
            self.assertEqual(verdicts.cross_rule(p, 6)[0], "undecided")
            self.assertEqual(verdicts.cross_rule(p, 5)[0], "aligned faster")

    def test_no_interval_is_not_counted(self):
        self.assertEqual(verdicts.cross_rule(pair("x", 0, 0), 6), (None, None))


class MainTest(support.FilesTest):
    def test_lines_per_file_and_totals(self):
        a = self.write("a.json", support.result(FILE_A))
        b = self.write("b.json", support.result(FILE_B, statistics={"min_runs_for_verdict": 4}))
        _, out = support.run_main(lambda: verdicts.main([a, b]))
        self.assertEqual(out.splitlines(), [
            f"{a}: 4 pairs, 1 aligned faster, 1 unaligned faster, 1 leans aligned, "
            "0 leans unaligned, median half-width 2.0 points",
            f"{b}: 2 pairs, 0 aligned faster, 1 unaligned faster, median half-width 2.5 points",
            f"total, verdict ({SIGNED_RANK}): 6 pairs, 1 aligned faster, 2 unaligned faster, "
            "1 leans aligned, 0 leans unaligned, median half-width 2.0 points",
            # a.json's third pair has 5 runs of the 6 its file wants: undecided; b.json's
            # first has 5 of 4: aligned faster. b.json's second has no cross-check.
            f"total, cross-check ({WELCH}): 6 pairs, 2 aligned faster, 1 unaligned faster, "
            "median half-width 1.0 points",
            "total, tail's gain (p99 of each run): 1 pairs, 1 aligned faster, 0 unaligned "
            "faster, median half-width 2.0 points (5 of 6 pairs without one)",
            "pairs with a note on far-off runs: 1 of 6"])


class TailRuleTest(unittest.TestCase):
    def test_the_tails_own_verdict_or_none(self):
        p = with_tail(pair("no significant difference", -1, 1), -9, -3, "leans unaligned")
        self.assertEqual(verdicts.tail_rule(p)[0], "leans unaligned")
        self.assertEqual(verdicts.tail_rule(pair("x", 0, 0)), (None, None))
        p = dict(pair("x", 0, 0), tail_gain={"reason": "a run's p99 needs 100 writes"})
        self.assertEqual(verdicts.tail_rule(p), (None, None))


if __name__ == "__main__":
    unittest.main()
