# A busy run's default report fits 30 lines: the Derby case with every pair left short of
# its precision (a --budget of 1 s for +-0.5 points, 16 writes a run) beside a process
# spinning on every CPU, as a newcomer's first run on a shared machine is. The pairs short
# of the precision are one warning in the result and named once, by the answer; the answer's
# first line is its first sentence, its qualifications at most two lines under "but:"; the
# settings line counts the blocks the pairs got; no why says only that nothing differs.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
spin_every_cpu
"$ALIGNBENCH" --case "$ALIGNBENCH_SOURCE_DIR/cases/derby-2004.json" --dir "$target" --writes 16 --budget 1 --precision 0.5 \
  --out "$WORK/busy.json" > "$WORK/busy.out" 2> "$WORK/busy.err"
status=$?
stop_spinners
check "the busy run: exit 0 (got $status)" [ "$status" -eq 0 ]
lines=$(wc -l < "$WORK/busy.out")
check "its report is at most 30 lines (got $lines)" [ "$lines" -le 30 ]
check "every line within 80 columns" [ "$(awk 'length > 80' "$WORK/busy.out" | wc -l)" -eq 0 ]
check "one answer line" [ "$(grep -c '^answer: ' "$WORK/busy.out")" -eq 1 ]
check "the answer's qualifications: at most two lines" \
  [ "$(sed -n '/^but: /,$p' "$WORK/busy.out" | wc -l)" -le 2 ]
lacks() { ! grep -qE -- "$1" "$WORK/busy.out"; }
check "no pair short of the precision printed as a warning of its own" \
  lacks 'precision short of|\]: precision'
check "the settings line counts the blocks the pairs got" \
  grep -qE '[0-9]+(-[0-9]+)? blocks per pair' "$WORK/busy.out"
check "no why that says only that nothing differs" lacks 'No significant time difference'
check "the result keeps the pairs short of the precision as one warning" json_check \
  "$WORK/busy.json" 'sum(w.startswith("precision short of") for w in a["warnings"]) == 1'
if [ "$failed" -gt 0 ]; then sed 's/^/  | /' "$WORK/busy.out" >&2; fi
finish
