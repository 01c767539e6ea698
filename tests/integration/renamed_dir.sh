# A --dir renamed during a run: the run's file is removed where it now is (through the
# directory descriptor held since its creation), and the next run, which cannot create its
# file under the old name, ends the measurement with one error line naming the directory and
# exit 2 (ENOENT is a setup error in the errno table: the directory is not there), keeping
# what was measured. The rename lands in the middle of run 1 (alignbench_paused stops itself
# before the run's 5th fsync). No root.
source "$(dirname "$0")/lib.sh"
: "${ALIGNBENCH_PAUSED:?set ALIGNBENCH_PAUSED to the alignbench_paused test tool}"

mkdir "$WORK/dir"
ALIGNBENCH_STOP_AT_FSYNC=5 "$ALIGNBENCH_PAUSED" --dir "$WORK/dir" --sizes 4K --writes 20 \
  --repetitions 2 --sync fsync --out "$WORK/result.json" > /dev/null 2> "$WORK/err" &
pid=$!
for _ in $(seq 400); do stopped "$pid" && break; kill -0 "$pid" 2> /dev/null || break; sleep 0.01; done
check "paused in the middle of run 1" stopped "$pid"
check "its file exists then" [ -n "$(find "$WORK/dir" -name '.alignbench-*' -size +0 -print -quit)" ]
mv "$WORK/dir" "$WORK/renamed"
kill -CONT "$pid"
wait "$pid"
status=$?
check "exit 2 (got $status)" [ "$status" -eq 2 ]
check "one error line, naming the directory gone" \
  [ "$(grep -c "^alignbench: error: .*$WORK/dir.*ENOENT" "$WORK/err")" -eq 1 ]
check "no .alignbench-* left in the renamed directory" no_leftovers "$WORK/renamed"
check "no warning about a file left" bash -c "! grep -q 'could not remove' '$WORK/err'"
check "the result keeps run 1, marked incomplete" json_check "$WORK/result.json" \
  'a["complete"] is False' \
  "sum(len(v.get('runs', [])) for p in a['pairs'] for v in (p['unaligned'], p['aligned'])) == 1"
finish
