"""What the tests of scripts/lib's Python share: that folder first on sys.path (the tests
run under python3 -I -B, which puts neither the test's folder nor the working directory
there, and writes no __pycache__ into the tree), result files written from dicts into a
folder of the test's own, and a helper's main() run with its arguments, its output kept.
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(SOURCE, "scripts", "lib")
sys.dont_write_bytecode = True
sys.path.insert(0, LIB)


def result(pairs, **alignbench):
    """An alignbench result file's document: PAIRS and the other keys given."""
    return {"alignbench": dict(alignbench, pairs=pairs)}


def run_main(main, *argv):
    """main() with sys.argv set to ARGV: (its return value, or SystemExit's code; stdout)."""
    out = io.StringIO()
    saved = sys.argv
    sys.argv = ["helper"] + [str(a) for a in argv]
    try:
        with contextlib.redirect_stdout(out):
            try:
                status = main()
            except SystemExit as stop:
                status = stop.code
    finally:
        sys.argv = saved
    return status, out.getvalue()


class FilesTest(unittest.TestCase):
    """A test with a folder of its own (self.dir), removed after it."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="alignbench-pytest.")
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, doc):
        """DOC as JSON in self.dir/NAME (text as it is); its path."""
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path
