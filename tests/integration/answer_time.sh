# scripts/lib/answer_time.py (behind scripts/answer-check) on real runs: the seconds it
# reports are the runs' own, a pair counts as answered only within the file's precision,
# the count of runs answered in time follows --within and --pairs, the oracle's count
# follows --within, and a fixed design (no rounds) is read from its runs.
source "$(dirname "$0")/lib.sh"
SUMMARY="$ALIGNBENCH_SOURCE_DIR/scripts/lib/answer_time.py"

target="$WORK/target"
mkdir "$target"
"$ALIGNBENCH" --dir "$target" --sizes 4K,8K --writes 8 --precision 1000 --budget 5 \
  --out "$WORK/rounds.json" > /dev/null 2> "$WORK/run.err"
check "a run in rounds: exit 0" [ $? -eq 0 ]
"$ALIGNBENCH" --dir "$target" --sizes 4K --writes 8 --repetitions 6 \
  --out "$WORK/fixed.json" > /dev/null 2>> "$WORK/run.err"
check "a fixed run: exit 0" [ $? -eq 0 ]

"$PY" "$SUMMARY" "$WORK/rounds.json" "$WORK/fixed.json" > "$WORK/all.txt" 2>&1
check "exit 0" [ $? -eq 0 ]
# The measuring seconds are the sum of every run's wall_s, to the tenth printed.
want=$("$PY" -c '
import json, sys
pairs = json.load(open(sys.argv[1]))["alignbench"]["pairs"]
print("%.1f s" % sum(r["wall_s"] for p in pairs for v in ("unaligned", "aligned") for r in p[v]["runs"]))
' "$WORK/rounds.json")
check "the runs' own seconds ($want)" grep -q "rounds.json | $want | " "$WORK/all.txt"
# The session's seconds run from its start to its last run's end (start_s + wall_s).
want=$("$PY" -c '
import json, sys
pairs = json.load(open(sys.argv[1]))["alignbench"]["pairs"]
print("%.1f s" % max(r["start_s"] + r["wall_s"] for p in pairs for v in ("unaligned", "aligned") for r in p[v]["runs"]))
' "$WORK/rounds.json")
check "the session's seconds ($want)" grep -q "rounds.json | [0-9.]* s | $want | " "$WORK/all.txt"
check "both pairs within ±1000" grep -q "rounds.json | .* | 2 of 2 within ±1000 |" "$WORK/all.txt"
check "the fixed run read from its 6 blocks" grep -q "fixed.json | .* | 1 | 6 | " "$WORK/all.txt"
# The fixed run's pair is held to the file's precision (the default ±5) like any other.
check "the fixed run's pair: within its file's ±5 only where it is" \
  grep -Eq "fixed.json .* \| (0 of 1 within ±5 \| ([5-9]|[1-9][0-9])|1 of 1 within ±5 \| [0-4][.])" "$WORK/all.txt"
check "runs answered, in time" grep -Eq "^every pair within its precision: [12] of 2 runs; and in at most 30 s of measuring: [12] of 2" "$WORK/all.txt"

"$PY" "$SUMMARY" --within 0 "$WORK/rounds.json" > "$WORK/none.txt" 2>&1
check "--within 0: no run in time" grep -q "in at most 0 s of measuring: 0 of 1 runs (none)" "$WORK/none.txt"
check "--within 0: nor the oracle" grep -q "^the oracle (every pair to its precision) in at most 0 s: 0 of 1 runs" "$WORK/none.txt"
# At ±1000 the oracle needs only the first round's 6 blocks of 8 writes each.
"$PY" "$SUMMARY" "$WORK/rounds.json" > "$WORK/one.txt" 2>&1
check "the oracle in time at ±1000" grep -q "^the oracle (every pair to its precision) in at most 30 s: 1 of 1 runs" "$WORK/one.txt"
"$PY" "$SUMMARY" --pairs 3 "$WORK/rounds.json" > "$WORK/three.txt" 2>&1
check "--pairs 3 of 2: not answered" grep -q "^at least 3 pairs within their precision: 0 of 1 runs" "$WORK/three.txt"
[ "$failed" -eq 0 ] || cat "$WORK/run.err" "$WORK/all.txt" "$WORK/none.txt" "$WORK/one.txt" "$WORK/three.txt" >&2
finish
