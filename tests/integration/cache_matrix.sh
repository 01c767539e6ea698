# scripts/cache-matrix on a loop rig: both runs and the comparison, and the rig's original
# write cache ("write through", set here so that restoring is not the kernel default) is
# back after success, after a failing alignbench, after SIGINT, and untouched on refusal.
source "$(dirname "$0")/lib.sh"
CM=$ALIGNBENCH_SOURCE_DIR/scripts/cache-matrix
export ALIGNBENCH  # cache-matrix uses the binary under test

make_rig --sector 4096 --fs ext4 --size 128M
disk=$("$ALIGNBENCH" env "$RIG" | sed -n 's/^  disk: //p')
WC=/sys/block/$disk/queue/write_cache
[ -w "$WC" ] || { echo "FAIL: no write_cache for '$disk' under $RIG" >&2; exit 1; }
# The setting outlives losetup -d, so put the kernel's value back before the rig goes.
cleanup_hooks=("echo '$(cat "$WC")' > '$WC'" "${cleanup_hooks[@]}")
echo "write through" > "$WC"
wc_is() { [ "$(cat "$WC")" = "$1" ]; }
check "rig starts as write through" wc_is "write through"

# (a) success
"$CM" "$RIG" --out-dir "$WORK/m" -- --sizes 4K --writes 8 --repetitions 2 \
  > "$WORK/a.out" 2> "$WORK/a.err"
rc=$?
check "(a) exit 0 (got $rc)" [ $rc -eq 0 ]
for f in write-back.json write-through.json write-back.txt write-through.txt matrix.txt; do
  check "(a) $f exists" [ -s "$WORK/m/$f" ]
done
check "(a) write-back.json records write back" json_check "$WORK/m/write-back.json" \
  'a["environment"]["target"]["device"]["write_cache"] == "write back"'
check "(a) write-through.json records write through" json_check "$WORK/m/write-through.json" \
  'a["environment"]["target"]["device"]["write_cache"] == "write through"'
check "(a) matrix.txt names the write cache" \
  grep -q "write cache: write back -> write through" "$WORK/m/matrix.txt"
check "(a) matrix.txt has the 4K row" grep -Eq '^ +4 \|' "$WORK/m/matrix.txt"
check "(a) the kernel-only caveat is printed" grep -q "only changes what the kernel believes" "$WORK/a.err"
check "(a) the paths are printed" grep -q "$WORK/m/matrix.txt" "$WORK/a.out"
check "(a) restored to write through" wc_is "write through"
check "(a) no .alignbench-* left" no_leftovers "$RIG"

# (b) alignbench fails: its exit code, setting restored
"$CM" "$RIG" --out-dir "$WORK/b" -- --writes 0 > "$WORK/b.out" 2> "$WORK/b.err"
rc=$?
check "(b) alignbench's usage exit 1 (got $rc)" [ $rc -eq 1 ]
check "(b) the failure is named" grep -q "alignbench failed (exit 1)" "$WORK/b.err"
check "(b) restored to write through" wc_is "write through"
check "(b) no result file" [ ! -e "$WORK/b/write-back.json" ]

# (c) SIGINT mid-run. A background job of a non-interactive shell starts with SIGINT
# ignored, and bash cannot trap a signal ignored on entry; with job control (set -m) the
# job gets its own process group and keeps SIGINT, as a Ctrl-C'd foreground job would.
set -m
"$CM" "$RIG" --out-dir "$WORK/c" -- --sizes 1K --writes 40000 --repetitions 1 \
  > "$WORK/c.out" 2> "$WORK/c.err" &
pid=$!
set +m
for _ in $(seq 300); do  # up to 30 s until the write-back run is writing its file
  wc_is "write back" && ! no_leftovers "$RIG" && { sleep 1; break; }  # 1 s into the run
  sleep 0.1
done
check "(c) write cache switched during the run" wc_is "write back"
has_file() { ! no_leftovers "$RIG"; }
check "(c) alignbench was writing when interrupted" has_file
kill -INT "$pid"
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { echo "FAIL: (c) still running 30 s after SIGINT" >&2; kill -KILL -- -"$pid"; }
wait "$pid"
rc=$?
check "(c) exit 130 (got $rc)" [ $rc -eq 130 ]
check "(c) restored to write through" wc_is "write through"
check "(c) restored exactly once" [ "$(grep -c 'restored write cache' "$WORK/c.err")" -eq 1 ]
check "(c) no .alignbench-* left" no_leftovers "$RIG"
ab_gone() { ! pgrep -f -- "[-]-dir $RIG" >/dev/null; }  # [-]: pgrep must not match itself
check "(c) no alignbench left running" ab_gone
check "(c) no result file" [ ! -e "$WORK/c/write-back.json" ]

# (d) no block device: refused, nothing changed or created
"$CM" /dev/shm --out-dir "$WORK/d" > "$WORK/d.out" 2> "$WORK/d.err"
rc=$?
check "(d) exit 2 (got $rc)" [ $rc -eq 2 ]
# The filesystem's name is whatever /dev/shm is here (tmpfs on a host, something else in a
# container): the message is what counts.
check "(d) says why" grep -Eq "cache-matrix: error: /dev/shm \([^)]+\) has no block device" "$WORK/d.err"
check "(d) nothing created" [ ! -e "$WORK/d" ]
check "(d) rig untouched" wc_is "write through"

# (e) a hostile directory name: a newline and a line that looks like another disk. The
# disk must come from the structured probe, and no printed line may be forged.
other=loop0
[ "$disk" = loop0 ] && other=loop1
hostile="$RIG/x
  disk: $other
"
mkdir "$hostile"
"$ALIGNBENCH" env "$hostile" > "$WORK/e-env.out"
check "(e) env prints one disk line" [ "$(grep -c '^  disk: ' "$WORK/e-env.out")" -eq 1 ]
check "(e) the real one" grep -qx "  disk: $disk" "$WORK/e-env.out"
check "(e) env escapes the newline in the header" grep -qF 'x\n  disk: ' "$WORK/e-env.out"
"$CM" "$hostile" --out-dir "$WORK/e" -- --sizes 4K --writes 8 --repetitions 2 \
  > "$WORK/e.out" 2> "$WORK/e.err"
rc=$?
check "(e) exit 0 (got $rc)" [ $rc -eq 0 ]
check "(e) switched the rig's disk $disk, not $other" grep -q "disk $disk, write cache" "$WORK/e.err"
check "(e) write-through.json records write through on $disk" json_check "$WORK/e/write-through.json" \
  'a["environment"]["target"]["device"]["write_cache"] == "write through"' \
  "a[\"environment\"][\"target\"][\"device\"][\"disk\"] == \"$disk\""
check "(e) restored to write through" wc_is "write through"
check "(e) no .alignbench-* left" no_leftovers "$hostile"
rm -rf "$hostile"

if [ "$failed" -gt 0 ]; then  # show what cache-matrix said
  for f in a b c d e; do sed "s/^/  ($f) /" "$WORK/$f.err" >&2; done
fi
finish
