"""scripts/lib/overhead.py, behind the harness's overhead figures (scripts/harness-bench
part a, scripts/overhead-vs, scripts/trace-overhead): a run's ns per write from both
variants, the ratios paired by round number whatever the order of the plain loop's lines,
their median and quartiles, the trace's arm against the counters', on hand-made runs."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import overhead  # noqa: E402

# Per round: the plain loop's ns per write and the two variants' (aligned, unaligned)
# mean ns: ratios 1.0, 1.04, 1.08 and 1.2 (median 1.06; quartiles 1.01 and 1.17, as
# statistics.quantiles interpolates them among four).
ROUNDS = {1: (100, (100, 100)), 2: (200, (200, 216)), 3: (100, (100, 116)),
          4: (200, (240, 240))}


def run(aligned, unaligned):
    return support.result([{"aligned": {"write_sync": {"mean_ns": aligned}},
                            "unaligned": {"write_sync": {"mean_ns": unaligned}}}])


def timed(p50, source):
    """A trace-overhead run: both variants' median write+sync P50, its account's SOURCE."""
    both = {"write_sync": {"p50_ns": p50}}
    return support.result([{"aligned": both, "unaligned": both}],
                          device_account={"source": source})


class OverheadTest(support.FilesTest):
    def setUp(self):
        super().setUp()
        # The plain loop's lines out of round order: pairs go by round number.
        self.write("plain.txt", "".join(f"{r} {ROUNDS[r][0]} 40000\n" for r in (3, 1, 4, 2)))
        for r, (plain, variants) in ROUNDS.items():
            self.write(f"ab-{r}.json", run(*variants))
            self.write(f"other-{r}.json", run(*variants))
            self.write(f"this-{r}.json", run(2 * plain, 2 * plain))

    def test_a_run_is_its_variants_mean(self):
        self.assertEqual(overhead.run_mean(os.path.join(self.dir, "ab-2.json")), 208)

    def test_spread_median_quartiles_count(self):
        median, low, high, n = overhead.spread([1.2, 1.0, 1.08, 1.04])
        self.assertAlmostEqual(median, 1.06)
        self.assertAlmostEqual(low, 1.01)
        self.assertAlmostEqual(high, 1.17)
        self.assertEqual(n, 4)

    def test_harness_lines(self):
        self.assertEqual(overhead.harness(self.dir), [
            "  plain loop: median 150 ns per write; alignbench: median 158 ns per write",
            "  overhead ratio, alignbench / plain, paired by round: median 1.060 (quartiles "
            "1.010..1.170, 4 rounds; target <= 1.05)"])

    def test_versus_lines(self):
        lines = overhead.versus(self.dir)
        self.assertEqual(lines[0], "  other / plain median 1.060 (quartiles 1.010..1.170), 4 rounds")
        self.assertEqual(lines[1], "  this / plain  median 2.000 (quartiles 2.000..2.000), 4 rounds")
        # 2 / 1.08 and 2 / 1.04 in the middle: (1.8519 + 1.9231) / 2.
        self.assertTrue(lines[2].startswith("  this / other  median 1.887 (quartiles "), lines[2])
        self.assertEqual(lines[3], "  plain loop: median 150 ns per write")

    def test_traced_pairs_the_arms_by_round(self):
        # Medians (p50) of both variants, per round: counters 1 then 2 ms, traced 1.1
        # then 2 ms: ratios 1.1 and 1.0 (quartiles of two, as statistics.quantiles
        # extrapolates them).
        for r, (counters, traced) in enumerate(((1e6, 1.1e6), (2e6, 2e6)), 1):
            self.write(f"counters-{r}.json", timed(counters, "device counters"))
            self.write(f"traced-{r}.json", timed(traced, "block trace"))
        self.assertEqual(overhead.traced(self.dir), [
            "  traced / counters: median 1.050 (quartiles 0.975..1.125), 2 rounds",
            "  counters alone: median 1.500 ms per write+sync (median of the rounds)"])

    def test_traced_refuses_a_run_whose_account_came_from_elsewhere(self):
        self.write("counters-1.json", timed(100, "device counters"))
        self.write("traced-1.json", timed(100, "device counters"))
        with self.assertRaisesRegex(ValueError, "traced-1.json: .* not block trace"):
            overhead.traced(self.dir)

    def test_an_unknown_mode_is_a_usage_error(self):
        status, out = support.run_main(overhead.main, "sideways", self.dir)
        self.assertEqual((status, out), (1, ""))


if __name__ == "__main__":
    unittest.main()
