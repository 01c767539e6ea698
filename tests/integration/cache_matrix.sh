# scripts/cache-matrix on a loop rig: both runs and the comparison, and the rig's original
# write cache ("write through", set here so that restoring is not the kernel default) is
# back after success, after a failing alignbench, after SIGINT, and untouched on refusal;
# one run per disk (a second is refused); no existing file in --out-dir is overwritten;
# USR1, USR2, ALRM, PIPE and XCPU end the running alignbench before the script exits, so
# nothing is measured under the wrong setting; after SIGKILL the next run restores.
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
check "(a) matrix.txt has the 4K row" grep -Eq '^ *4K +\|' "$WORK/m/matrix.txt"
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
check "(c) no empty output file: $(find "$WORK/c" -empty 2>/dev/null | head -3)" \
  [ -z "$(find "$WORK/c" -type f -empty 2>/dev/null)" ]
check "(c) the output directory it made is gone with them" [ ! -e "$WORK/c" ]

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

# A gate for the runs below: an alignbench on PATH that, the first time it is asked to
# measure, says so and waits on a FIFO until the test opens it, then runs the real one.
# The pause is where the test wants it, whatever the script under test does.
mkfifo "$WORK/gate"
cat > "$WORK/gated-alignbench" <<EOS
#!/bin/bash
case " \$* " in
  *" --out "*) if mkdir "$WORK/paused" 2>/dev/null; then
                 echo \$\$ > "$WORK/paused/pid"
                 read -r _ < "$WORK/gate"
               fi ;;
esac
exec "$ALIGNBENCH" "\$@"
EOS
chmod +x "$WORK/gated-alignbench"
wait_paused() {  # up to 30 s until a run waits at the gate
  for _ in $(seq 300); do [ -s "$WORK/paused/pid" ] && return 0; sleep 0.1; done
  return 1
}
open_gate() { exec 3<> "$WORK/gate"; echo go >&3; exec 3>&-; }
reset_gate() { rm -rf "$WORK/paused"; }
gated() { ALIGNBENCH="$WORK/gated-alignbench" exec "$CM" "$@"; }  # exec: $! is the script
gone() { ! kill -0 "$1" 2>/dev/null; }
LOCKDIR=/run/alignbench
cleanup_hooks=("rm -f '$LOCKDIR/cache-matrix-$disk.state'" "${cleanup_hooks[@]}")
short=(--sizes 4K --writes 8 --repetitions 2)

# (f) one run per disk: the second is refused while the first measures, and touches nothing.
reset_gate
gated "$RIG" --out-dir "$WORK/f1" -- "${short[@]}" > /dev/null 2> "$WORK/f.err" &
first=$!
check "(f) the first run reached its measurement" wait_paused
timeout 60 "$CM" "$RIG" --out-dir "$WORK/f2" -- "${short[@]}" > /dev/null 2> "$WORK/f2.err"
rc=$?
check "(f) a second run on the disk exits 2 (got $rc)" [ $rc -eq 2 ]
check "(f) it says another run holds the disk" grep -q "another cache-matrix run.*$disk" "$WORK/f2.err"
check "(f) the first run's setting is left alone" wc_is "write back"
check "(f) the second wrote no result" [ ! -e "$WORK/f2/write-back.json" ]
open_gate
wait "$first"
rc=$?
check "(f) the first run completes (exit $rc)" [ $rc -eq 0 ]
check "(f) restored to write through" wc_is "write through"

# (g) every file the run writes is checked before anything is switched or measured.
for f in write-back.txt write-through.txt matrix.png matrix-cdf.svg; do
  mkdir -p "$WORK/g-$f"
  echo precious > "$WORK/g-$f/$f"
  "$CM" "$RIG" --out-dir "$WORK/g-$f" -- "${short[@]}" > /dev/null 2> "$WORK/g.err"
  rc=$?
  check "(g) an existing $f: exit 2 (got $rc)" [ $rc -eq 2 ]
  check "(g) $f is not overwritten" grep -qx precious "$WORK/g-$f/$f"
  check "(g) an existing $f: nothing measured" [ ! -e "$WORK/g-$f/write-back.json" ]
done
check "(g) untouched: write through" wc_is "write through"

# (h) signals that end the script end its alignbench first: released afterwards, the run
# must not go on to write a result measured under the restored setting.
for sig in USR1 USR2 ALRM PIPE XCPU; do
  reset_gate
  gated "$RIG" --out-dir "$WORK/h-$sig" -- "${short[@]}" > /dev/null 2> "$WORK/h-$sig.err" &
  pid=$!
  check "(h) $sig: the run reached its measurement" wait_paused
  child=$(cat "$WORK/paused/pid")
  kill "-$sig" "$pid"
  wait "$pid"
  rc=$?
  check "(h) $sig: exit 128+$(kill -l "$sig") (got $rc)" [ $rc -eq $((128 + $(kill -l "$sig"))) ]
  check "(h) $sig: alignbench ended with the script" gone "$child"
  open_gate
  sleep 1  # a run left behind would measure its 16 writes and write its file by now
  check "(h) $sig: restored to write through" wc_is "write through"
  check "(h) $sig: no result written after the script ended" \
    [ -z "$(find "$WORK/h-$sig" -name '*.json' -print -quit)" ]
  check "(h) $sig: no .alignbench-* left" no_leftovers "$RIG"
done

# (i) SIGKILL: no trap runs, so the setting stays switched; the run's alignbench ends with
# it, and the next run restores the setting kept in the state file before its own work.
reset_gate
gated "$RIG" --out-dir "$WORK/i1" -- "${short[@]}" > /dev/null 2> "$WORK/i1.err" &
pid=$!
check "(i) the run reached its measurement" wait_paused
child=$(cat "$WORK/paused/pid")
kill -KILL "$pid"
wait "$pid" 2> /dev/null
for _ in $(seq 50); do gone "$child" && break; sleep 0.1; done
check "(i) alignbench ended with the killed script" gone "$child"
open_gate
sleep 1
check "(i) no result written after the kill" [ -z "$(find "$WORK/i1" -name '*.json' -print -quit)" ]
"$CM" "$RIG" --out-dir "$WORK/i2" -- "${short[@]}" > /dev/null 2> "$WORK/i2.err"
rc=$?
check "(i) the next run exits 0 (got $rc)" [ $rc -eq 0 ]
check "(i) it says it restored the killed run's setting" grep -q "earlier run was killed" "$WORK/i2.err"
check "(i) its write-back run was measured under write back" json_check "$WORK/i2/write-back.json" \
  'a["environment"]["target"]["device"]["write_cache"] == "write back"'
check "(i) restored to the true original, write through" wc_is "write through"
check "(i) no state file left" [ ! -e "$LOCKDIR/cache-matrix-$disk.state" ]

# (j) root in a clone another user owns: the results it saves under the clone's
# results/runs/ (no --out-dir) are that user's afterwards, as the build trees are.
if id -u nobody > /dev/null 2>&1; then
  clone=$WORK/clone
  mkdir -p "$clone/scripts/lib" "$clone/results"
  cp "$CM" "$clone/scripts/"
  cp "$ALIGNBENCH_SOURCE_DIR"/scripts/lib/*.sh "$clone/scripts/lib/"
  chown -R nobody: "$clone"
  "$clone/scripts/cache-matrix" "$RIG" -- "${short[@]}" > /dev/null 2> "$WORK/j.err"
  rc=$?
  check "(j) a run in a clone of nobody's exits 0 (got $rc)" [ $rc -eq 0 ]
  check "(j) it saved under the clone's results/runs/" \
    [ -n "$(find "$clone/results/runs" -name write-back.json -print -quit)" ]
  check "(j) nothing there is root's afterwards" \
    [ -z "$(find "$clone/results" ! -user nobody -print -quit)" ]
else
  echo "SKIP: (j) no user nobody to own a clone" >&2
fi

if [ "$failed" -gt 0 ]; then  # show what cache-matrix said
  for f in a b c d e f2 i1 i2 j; do sed "s/^/  ($f) /" "$WORK/$f.err" >&2; done
fi
finish
