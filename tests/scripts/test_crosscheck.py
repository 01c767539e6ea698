"""scripts/lib/crosscheck.py, behind the fidelity figures (scripts/fio-crosscheck): fio's
cost of a write as its write latency plus its sync latency, each tool's median over the
rounds, the unaligned variant read from the files at the shift, and the largest
differences, on hand-made runs of three rounds."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
import crosscheck  # noqa: E402

M = 1e6  # ns in a ms


def fio(write_p50, sync_p50, write_mean, sync_mean):
    return {"jobs": [{"write": {"lat_ns": {"mean": write_mean,
                                           "percentile": {"50.000000": write_p50}}},
                      "sync": {"lat_ns": {"mean": sync_mean,
                                          "percentile": {"50.000000": sync_p50}}}}]}


class CrosscheckTest(support.FilesTest):
    def setUp(self):
        super().setUp()
        # Aligned (offset 0): alignbench's p50 1, 2, 3 ms (median 2), fio's 0.5 + 0.8,
        # 1.6, 2.4 ms (median 2.1), the plain loop 2 ms. Unaligned (offset 24, not 0):
        # alignbench 2.5 ms, fio 1 + 1.5 ms, the plain loop 2, 2 and 9 ms (median 2).
        for r in (1, 2, 3):
            self.write(f"ab-{r}-4K.json", support.result([{
                "aligned": {"write_sync": {"p50_ns": r * M, "mean_ns": 2 * M}},
                "unaligned": {"write_sync": {"p50_ns": 2.5 * M, "mean_ns": 3 * M}}}]))
            self.write(f"fio-{r}-4K-0.json", fio(0.5 * M, 0.8 * r * M, 1 * M, 1 * M))
            self.write(f"fio-{r}-4K-24.json", fio(1 * M, 1.5 * M, 1 * M, 1.5 * M))
            self.write(f"plain-{r}-4K-0.txt", f"{1.9 * M} {2 * M}\n")
            self.write(f"plain-{r}-4K-24.txt", f"{1.9 * M} {(9 if r == 3 else 2) * M}\n")

    def test_fio_cost_is_write_plus_sync(self):
        path = self.write("fio.json", fio(10, 20, 30, 40))
        self.assertEqual(crosscheck.fio_cost(path), (30, 70))

    def test_table(self):
        lines = crosscheck.table(self.dir, ["4K"], 3, "24")
        self.assertEqual(len(lines), 5)
        self.assertEqual(lines[1].split(), ["4K", "aligned", "|", "2.0000", "2.1000", "2.0000",
                                            "|", "0.952", "1.000", "|", "2.0000", "2.0000",
                                            "1.000"])
        self.assertEqual(lines[2].split(), ["4K", "unaligned", "|", "2.5000", "2.5000",
                                            "2.0000", "|", "1.000", "1.250", "|", "3.0000",
                                            "2.5000", "1.200"])
        self.assertTrue(lines[3].startswith("ms per write+sync, medians over 3 interleaved"))
        self.assertEqual(lines[4], "largest median difference: 4.8 % against fio, "
                         "25.0 % against the plain loop")


if __name__ == "__main__":
    unittest.main()
