# The write cache switched under a run (by an admin, or a cache-matrix next door): alignbench
# reads the setting again at the end and says in the result that the runs mix both, naming
# both settings. The switch lands between run 2 and run 3 (alignbench_paused stops before
# run 3 creates its file). The rig's setting is put back on every exit path.
source "$(dirname "$0")/lib.sh"
: "${ALIGNBENCH_PAUSED:?set ALIGNBENCH_PAUSED to the alignbench_paused test tool}"

make_rig --sector 4096 --fs ext4 --size 64M
disk=$("$ALIGNBENCH" env "$RIG" | sed -n 's/^  disk: //p')
WC=/sys/block/$disk/queue/write_cache
[ -w "$WC" ] || skip "no writable write_cache for '$disk' under $RIG"
original=$(cat "$WC")
cleanup_hooks=("echo '$original' > '$WC'" "${cleanup_hooks[@]}")
echo "write back" > "$WC"

ALIGNBENCH_STOP_BEFORE_RUN=3 "$ALIGNBENCH_PAUSED" --dir "$RIG" --sizes 4K --writes 8 \
  --repetitions 2 --out "$WORK/result.json" > /dev/null 2> "$WORK/err" &
pid=$!
for _ in $(seq 500); do stopped "$pid" && break; kill -0 "$pid" 2> /dev/null || break; sleep 0.01; done
check "paused before run 3" stopped "$pid"
echo "write through" > "$WC"
kill -CONT "$pid"
wait "$pid"
status=$?
check "exit 0 (got $status)" [ "$status" -eq 0 ]
check "the result says the cache changed, from what to what" json_check "$WORK/result.json" \
  "any(\"changed during the run: 'write back' at the start, 'write through' at the end\" in w for w in a['warnings'])"

# Unchanged: no such warning.
echo "write back" > "$WC"
"$ALIGNBENCH" --dir "$RIG" --sizes 4K --writes 8 --repetitions 2 --out "$WORK/same.json" \
  > /dev/null 2>&1
check "an unchanged cache: no warning" json_check "$WORK/same.json" \
  "not any('changed during the run' in w for w in a['warnings'])"
finish
