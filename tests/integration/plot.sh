# scripts/plot end to end: two quick real runs (fsync, fdatasync) drawn on one figure, which
# must come out as a real PNG and an SVG; the default prefix; one-line errors with their exit
# codes; no temporary directory left behind. Without gnuplot the test is skipped, loudly.
source "$(dirname "$0")/lib.sh"

PLOT="$ALIGNBENCH_SOURCE_DIR/scripts/plot"
command -v gnuplot >/dev/null 2>&1 ||
  skip "gnuplot not installed (Debian: apt-get install gnuplot-nox); scripts/plot not tested"
[ -x "$PY" ] || skip "$PY not installed; scripts/plot needs it"

# scripts/plot makes its temporary directory under TMPDIR: a private one shows leftovers.
export TMPDIR="$WORK/tmp"
mkdir "$TMPDIR"

for sync in fsync fdatasync; do
  "$ALIGNBENCH" --sizes 4K,64K --writes 8 --repetitions 2 --sync "$sync" --dir "$WORK" \
    --out "$WORK/$sync.json" > /dev/null 2> "$WORK/$sync.err"
  check "alignbench --sync $sync exits 0" [ $? -eq 0 ]
done

is_png() {  # the 8-byte PNG signature: 89 'PNG' CR LF 1A LF
  [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

"$PLOT" --out "$WORK/figure" "$WORK/fsync.json" "$WORK/fdatasync.json" \
  > "$WORK/plot.out" 2> "$WORK/plot.err"
status=$?
check "plot of two files exits 0 (got $status: $(head -n1 "$WORK/plot.err"))" [ "$status" -eq 0 ]
check "PNG exists and is not empty" test -s "$WORK/figure.png"
check "PNG starts with the PNG signature" is_png "$WORK/figure.png"
check "SVG exists and contains <svg" grep -q "<svg" "$WORK/figure.svg"
check "prints the two paths written" \
  diff -q <(printf '%s\n' "$WORK/figure.png" "$WORK/figure.svg") "$WORK/plot.out"

# Without --out the figure goes beside the first file, named after it.
"$PLOT" "$WORK/fsync.json" > /dev/null 2> "$WORK/default.err"
check "default prefix: exit 0" [ $? -eq 0 ]
check "default prefix: fsync.png is a PNG" is_png "$WORK/fsync.png"
check "default prefix: fsync.svg contains <svg" grep -q "<svg" "$WORK/fsync.svg"

# expect_error CODE PATTERN ARGS...: exit code CODE and exactly one stderr line matching
expect_error() {
  local code=$1 pattern=$2 status
  shift 2
  "$PLOT" "$@" > /dev/null 2> "$WORK/error.txt"
  status=$?
  [ "$status" -eq "$code" ] && [ "$(wc -l < "$WORK/error.txt")" -eq 1 ] &&
    grep -q "^plot: error: $pattern" "$WORK/error.txt" ||
    { echo "    got exit $status: $(cat "$WORK/error.txt")" >&2; return 1; }
}
check "no file: usage error, exit 1" expect_error 1 "no result file" --out "$WORK/x"
check "unknown option: exit 1" expect_error 1 "unknown option: --bogus" --bogus "$WORK/fsync.json"
check "missing file: exit 2" expect_error 2 "$WORK/missing.json: no such file" "$WORK/missing.json"
check "JSON that is not a result: exit 2" expect_error 2 ".*not an alignbench result file" \
  "$ALIGNBENCH_SOURCE_DIR/tests/fixtures/derby-2005-jan.json"
echo "not json" > "$WORK/text.json"
check "not JSON at all: exit 2" expect_error 2 ".*not an alignbench result file" "$WORK/text.json"
"$PY" - "$WORK/fsync.json" "$WORK/unmeasured.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["alignbench"]["pairs"]:
    for key in ("gain_pct", "median_gain_pct", "gain_interval_pct", "p_value", "verdict"):
        p.pop(key, None)
json.dump(doc, open(sys.argv[2], "w"))
PY
check "no measured pairs: exit 2" expect_error 2 ".*no measured pairs" "$WORK/unmeasured.json"
check "no figure from a failed plot" test ! -e "$WORK/unmeasured.png"

check "no temporary directory left behind" \
  test -z "$(find "$TMPDIR" -mindepth 1 -print -quit)"
finish
