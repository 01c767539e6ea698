"""scripts/lib/repeatability.py, behind the repeatability figures (scripts/repeatability):
which pairs of sessions have disjoint intervals, which give opposite verdicts or lean
opposite ways, which intervals are within the precision asked, and the totals, on
hand-made sessions."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import repeatability  # noqa: E402


def pair(verdict, low, high, size=4096, unaligned_writes=None):
    p = {"size_bytes": size, "sync": "fsync", "verdict": verdict,
         "gain_interval_pct": {"low": low, "high": high}, "unaligned": {}, "aligned": {}}
    if unaligned_writes is not None:
        p["unaligned"]["device_per_write"] = {"writes": unaligned_writes}
    return p


# Four sessions of one pair: [1, 3] and [3, 5] touch, which is not disjoint; [6, 8] is
# disjoint from both; [2, 12] overlaps every other. "shifted faster" is the old name of
# "unaligned faster".
SESSIONS = [pair("aligned faster", 1, 3, unaligned_writes=1.0),
            pair("unaligned faster", 3, 5, unaligned_writes=1.5),
            pair("leans aligned", 6, 8, unaligned_writes=1.25),
            pair("shifted faster", 2, 12)]


class SummarizeTest(unittest.TestCase):
    def test_disjoint_intervals_strictly_apart(self):
        row = repeatability.summarize(SESSIONS, 5)
        self.assertEqual((row["sessions"], row["couples"], row["disjoint"]), (4, 6, 2))

    def test_opposite_firm_verdicts_and_leaning_apart_from_them(self):
        row = repeatability.summarize(SESSIONS, 5)
        # Firm against firm: sessions 1-2 and 1-4. Opposite ways with a leaning side:
        # 2-3 and 3-4.
        self.assertEqual((row["opposite"], row["leaning"]), (2, 2))

    def test_within_the_precision_is_a_half_width_at_most_it(self):
        self.assertEqual(repeatability.summarize(SESSIONS, 5)["within"], 4)
        self.assertEqual(repeatability.summarize(SESSIONS, 1)["within"], 3)
        self.assertEqual(repeatability.summarize(SESSIONS, 0.9)["within"], 0)
        self.assertFalse(repeatability.within(None, 5))
        self.assertFalse(repeatability.within({"low": 0, "high": 1}, None))

    def test_span_and_device_writes_from_lowest_to_highest(self):
        row = repeatability.summarize(SESSIONS, 5)
        self.assertEqual(row["span"], "[+1.0, +12.0]")
        self.assertEqual(row["writes"], ("1.00..1.50", "-"))


class MainTest(support.FilesTest):
    def test_rows_largest_size_first_and_totals(self):
        # 8K: [0, 2] and [3, 5] disjoint, [1, 4] overlaps both: 1 of 3.
        # 4K: [0, 20] (half-width 10: not within 5), [1, 3], [2, 4]: 0 of 3.
        sessions = [(pair("no significant difference", 0, 2, 8192),
                     pair("no significant difference", 0, 20)),
                    (pair("no significant difference", 3, 5, 8192),
                     pair("no significant difference", 1, 3)),
                    (pair("no significant difference", 1, 4, 8192),
                     pair("no significant difference", 2, 4))]
        files = [self.write(f"session-{i}.json", support.result(
            list(pairs), settings={"precision_points": 5.0}))
            for i, pairs in enumerate(sessions)]
        status, out = support.run_main(repeatability.main, *files)
        lines = out.splitlines()
        self.assertIsNone(status)
        self.assertEqual(lines[0], "3 sessions; precision asked: +-5.0")
        self.assertEqual(lines[2].split(), ["8K", "fsync", "3", "1", "of", "3", "0", "0",
                                            "[+0.0,", "+5.0]", "3", "-", "|", "-"])
        self.assertEqual(lines[3].split()[:6], ["4K", "fsync", "3", "0", "of", "3"])
        self.assertEqual(lines[4], "all 2 pairs: 1 of 6 session pairs disjoint (16.7 %; "
                         "honest 95 % intervals: about 0.6 %), 0 opposite verdicts, "
                         "0 pairs leaning opposite ways")
        self.assertEqual(lines[5], "sizes within +-5.0 per session: 1 2 2 (of 2)")


if __name__ == "__main__":
    unittest.main()
