# scripts/plot end to end: two quick real runs (fsync, fdatasync) drawn on one figure and
# one CDF figure, each a real PNG and an SVG; the default prefix; one-line errors with their
# exit codes; no temporary file left behind; then the CDF figure of a cold-rmw run on a
# 4 KiB-sector ext4 rig whose device reads are slowed to 100 ms each, where the unaligned
# writes must lie to the right of the aligned ones in the data the figure was drawn from.
# Without matplotlib the test is skipped, loudly.
source "$(dirname "$0")/lib.sh"

PLOT="$ALIGNBENCH_SOURCE_DIR/scripts/plot"
[ -x "$PY" ] || skip "$PY not installed; scripts/plot needs it"
"$PY" -c 'import matplotlib' 2> /dev/null ||
  skip "python3-matplotlib not installed (Debian: apt-get install python3-matplotlib); scripts/plot not tested"

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
check "CDF PNG starts with the PNG signature" is_png "$WORK/figure-cdf.png"
check "CDF SVG contains <svg" grep -q "<svg" "$WORK/figure-cdf.svg"
check "prints the four paths written" \
  diff -q <(printf '%s\n' "$WORK/figure"{,-cdf}.{png,svg}) "$WORK/plot.out"

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
  { [ "$status" -eq "$code" ] && [ "$(wc -l < "$WORK/error.txt")" -eq 1 ] &&
    grep -q "^plot: error: $pattern" "$WORK/error.txt"; } ||
    { echo "    got exit $status: $(cat "$WORK/error.txt")" >&2; return 1; }
}
check "no file: usage error, exit 1" expect_error 1 "no result file" --out "$WORK/x"
check "unknown option: exit 1" expect_error 1 "unknown option: --bogus" --bogus "$WORK/fsync.json"
check "missing file: exit 2" expect_error 2 \
  "open result file $WORK/missing.json: No such file or directory (ENOENT); give the path" "$WORK/missing.json"
check "JSON that is not a result: exit 2" expect_error 2 ".*not an alignbench result file" \
  "$ALIGNBENCH_SOURCE_DIR/tests/fixtures/derby-2005-jan.json"
echo "not json" > "$WORK/text.json"
check "not JSON at all: exit 2" expect_error 2 ".*not an alignbench result file" "$WORK/text.json"
"$PY" - "$WORK/fsync.json" "$WORK/unmeasured.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["alignbench"]["pairs"]:
    for key in ("gain_pct", "means_gain_pct", "medians_gain_pct", "gain_interval_pct", "p_value", "verdict"):
        p.pop(key, None)
json.dump(doc, open(sys.argv[2], "w"))
PY
check "no measured pairs: exit 2" expect_error 2 ".*no measured pairs" "$WORK/unmeasured.json"
check "no figure from a failed plot" test ! -e "$WORK/unmeasured.png"

# The binary's input bounds (lib/io/file_io.cc), its reader's checks, one line each.
# bounded [--as-nobody] ARGS...: plot (with --as-nobody, as root: nobody's) under 1 GB of
# address space and a 20 s limit, as a runaway reader or a wait on a FIFO must fail, not
# take the machine or the test with it.
bounded() {
  local as=() plot=$PLOT
  if [ "$1" = --as-nobody ]; then
    # A copy nobody may read: the checkout may sit where only root can (CI's clone).
    plot=$WORK/nobody/plot
    [ -e "$plot" ] || { mkdir -p "$WORK/nobody" && cp -r "$PLOT" "${PLOT%/plot}/lib" "$WORK/nobody/" &&
      chmod -R a+rX "$WORK/nobody" && chmod 755 "$WORK"; }
    as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
    shift
  fi
  (ulimit -v 1048576; exec timeout 20 "${as[@]}" "$plot" "$@")
}
expect_bounded() {
  local code=$1 pattern=$2 status
  shift 2
  bounded "$@" > /dev/null 2> "$WORK/error.txt"
  status=$?
  { [ "$status" -eq "$code" ] && [ "$(wc -l < "$WORK/error.txt")" -eq 1 ] &&
    grep -q "^plot: error: $pattern" "$WORK/error.txt"; } ||
    { echo "    got exit $status: $(head -c 600 "$WORK/error.txt")" >&2; return 1; }
}
check "/dev/zero: refused at once, one line" expect_bounded 2 \
  "read result file /dev/zero: not a regular file" /dev/zero
# A user reads the same refusal, not that /dev (beside which the figure would go) is
# root's: the inputs are read before the output's directory is judged.
if [ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1; then
  check "/dev/zero as a user: the input refused first" \
    expect_bounded 2 "read result file /dev/zero: not a regular file" \
    --as-nobody /dev/zero
fi
mkfifo "$WORK/fifo"
check "a FIFO without a writer: refused, not waited on" expect_bounded 2 \
  "read result file $WORK/fifo: not a regular file" "$WORK/fifo"
check "a directory: refused" expect_bounded 2 "read result file $WORK: is a directory (EISDIR)" \
  --out "$WORK/dir" "$WORK"
truncate -s 65M "$WORK/huge.json"
check "a file above alignbench's 64 MiB bound: refused" expect_bounded 2 \
  "read result file $WORK/huge.json: 68157440 bytes is too large; at most 67108864" "$WORK/huge.json"
rm -f "$WORK/huge.json"
check "a negative size: refused as alignbench refuses it" expect_bounded 2 \
  ".*key 'alignbench.pairs\[0\].size_bytes': expected a non-negative whole number" \
  "$ALIGNBENCH_SOURCE_DIR/tests/cli/fixtures/result-negative-size.json"
check "--cdf-data /dev/full: ENOSPC in one line" expect_bounded 2 \
  "write /dev/full: No space left on device (ENOSPC)" --out "$WORK/full" --cdf-data /dev/full \
  "$WORK/fsync.json"
check "--cdf-data into a missing directory: ENOENT in one line" expect_bounded 2 \
  "write $WORK/no/cdf.tsv: No such file or directory (ENOENT)" --out "$WORK/nodir" \
  --cdf-data "$WORK/no/cdf.tsv" "$WORK/fsync.json"
# A byte order mark: alignbench reads the file, so plot must too.
{ printf '\357\273\277'; cat "$WORK/fsync.json"; } > "$WORK/bom.json"
check "alignbench reads a file with a UTF-8 BOM" "$ALIGNBENCH" show "$WORK/bom.json" > /dev/null
bounded --out "$WORK/bom" "$WORK/bom.json" > /dev/null 2> "$WORK/bom.err"
check "plot reads a file with a UTF-8 BOM ($(head -n1 "$WORK/bom.err"))" is_png "$WORK/bom.png"
# Histograms alignbench refuses are not drawn: each broken file is refused by both.
broken_histogram() {  # broken_histogram NAME PYTHON-STATEMENT: on h, the first write_sync
  "$PY" - "$WORK/fsync.json" "$WORK/$1.json" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
h = doc["alignbench"]["pairs"][0]["aligned"]["histograms"]["write_sync"]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"))
PY
}
broken_histogram off-layout 'h["buckets"][-1][0] = h["buckets"][-1][0] + 1 if h["buckets"][-1][0] >= 256 else 300'
broken_histogram unsorted 'h["buckets"].reverse(); h["buckets"].append(h["buckets"][0]); h["count"] += h["buckets"][0][1]'
broken_histogram miscounted 'h["count"] += 5'
broken_histogram negative 'h["min_ns"] = -1'
broken_histogram zero-count 'h["buckets"].append([1 << 41, 0])'
for name in off-layout unsorted miscounted negative zero-count; do
  "$ALIGNBENCH" show "$WORK/$name.json" > /dev/null 2>&1
  check "histogram $name: alignbench refuses it" [ $? -ne 0 ]
  check "histogram $name: plot refuses it, one line" expect_bounded 2 \
    "read $WORK/$name.json: not an alignbench result: key 'alignbench.pairs\[0\].aligned.histograms.write_sync" \
    --out "$WORK/$name" "$WORK/$name.json"
done
check "no figure of a refused file" test -z "$(find "$WORK" -maxdepth 1 \( -name 'off-layout*.png' \
  -o -name 'full*.png' -o -name 'nodir*' \) -print -quit)"
check "no traceback in any error" bash -c "! grep -rl Traceback '$WORK'/*.err '$WORK/error.txt'"

check "no temporary file left behind" \
  test -z "$(find "$TMPDIR" "$WORK" -maxdepth 1 -name '*.tmp-*' -print -quit)"

# A fleet: six files (one per host or disk) on each figure, one colour and one legend entry each.
for i in 1 2 3 4 5 6; do cp "$WORK/fsync.json" "$WORK/host$i.json"; done
"$PLOT" --out "$WORK/fleet" "$WORK"/host{1,2,3,4,5,6}.json > "$WORK/fleet.out" 2> "$WORK/fleet.err"
check "six files: exit 0 ($(tail -n1 "$WORK/fleet.err"))" [ $? -eq 0 ]
check "six files: both figures" diff -q <(printf '%s\n' "$WORK/fleet"{,-cdf}.{png,svg}) "$WORK/fleet.out"
check "six files: a legend entry per file" [ "$(grep -o '>host[1-6]<' "$WORK/fleet-cdf.svg" | sort -u | wc -l)" -eq 6 ]

# The interval is of run medians, so it may leave out the gain of means: still drawn.
"$PY" - "$WORK/fsync.json" "$WORK/apart.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["alignbench"]["pairs"]:
    p["gain_interval_pct"] = {"low": p["gain_pct"] + 5, "high": p["gain_pct"] + 9}
json.dump(doc, open(sys.argv[2], "w"))
PY
"$PLOT" "$WORK/apart.json" > /dev/null 2> "$WORK/apart.err"
check "an interval beside the gain of means: exit 0 ($(tail -n1 "$WORK/apart.err"))" [ $? -eq 0 ]

# A file made before histograms: the means figure only, and a note on stderr.
"$PY" - "$WORK/fsync.json" "$WORK/old.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["alignbench"]["pairs"]:
    for v in (p["unaligned"], p["aligned"]):
        v.pop("histograms", None)
json.dump(doc, open(sys.argv[2], "w"))
PY
"$PLOT" "$WORK/old.json" > "$WORK/old.out" 2> "$WORK/old.err"
check "file without histograms: exit 0" [ $? -eq 0 ]
check "file without histograms: means figure only" \
  diff -q <(printf '%s\n' "$WORK/old".{png,svg}) "$WORK/old.out"
check "file without histograms: says so" grep -q "without histograms" "$WORK/old.err"

# --- the CDF of a cold read-modify-write run -----------------------------------------------
[ "$failed" -eq 0 ] || { finish; exit 1; }
[ "$(id -u)" -eq 0 ] || { finish; skip "the cold-rmw CDF needs root for a loop device"; }
make_rig --sector 4096 --fs ext4 --size 128M
# A read is made to cost 100 ms, so the unaligned variant's read-on-write moves its whole
# distribution right by far more than the noise of a shared disk can move either one.
slow_reads 10
"${SLOW[@]}" "$ALIGNBENCH" --case "$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json" --dir "$RIG" \
  --sizes 4K,16K --writes 32 --repetitions 2 --out "$WORK/cold.json" > /dev/null 2> "$WORK/cold.err"
check "cold-rmw run exits 0 ($(tail -n1 "$WORK/cold.err"))" [ $? -eq 0 ]
"$PLOT" --out "$WORK/cold" --cdf-data "$WORK/cold-cdf.tsv" "$WORK/cold.json" > /dev/null 2>&1
check "cold-rmw plot exits 0" [ $? -eq 0 ]
check "cold-rmw CDF PNG" is_png "$WORK/cold-cdf.png"
check "cold-rmw CDF SVG" grep -q "<svg" "$WORK/cold-cdf.svg"
# The medians read off the CDF's own points: unaligned to the right of aligned at every size.
unaligned_right() {
  "$PY" - "$WORK/cold-cdf.tsv" <<'PY'
import csv, sys
curves = {}
for row in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    key = (int(row["size_bytes"]), row["variant"])
    curves.setdefault(key, []).append((float(row["fraction"]), int(row["ns"])))
def median(points):
    return next(ns for fraction, ns in points if fraction >= 0.5)
ok = len(curves) == 4
for size in sorted({s for s, _ in curves}):
    a, s = median(curves[(size, "aligned")]), median(curves[(size, "unaligned")])
    print("    %d B: median aligned %d ns, unaligned %d ns" % (size, a, s))
    ok = ok and s > a
sys.exit(0 if ok else 1)
PY
}
check "cold-rmw CDF: unaligned median to the right of aligned at 4K and 16K" unaligned_right
finish
