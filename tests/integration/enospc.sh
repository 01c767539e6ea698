# One condition, one answer: a disk that fills up while measuring ends the run
# with exit 3 and the same hint whatever the layout hit it: a timed pwrite (extend), the
# next run's fallocate (prealloc), the next run's zero fill (prewritten).
source "$(dirname "$0")/lib.sh"
make_rig --sector 4096 --fs ext4 --size 32M

hint='the filesystem is full, or the storage under it is \(a loop device'"'"'s backing file, a thin pool, even when df shows space\); free space, or use fewer --writes or smaller --sizes \(a run needs up to [0-9]+ bytes, one run at a time\)$'
# Many pairs of one repetition each: the fault lands in a later run, and the plan does not
# depend on how multi-repetition plans end after a fault (fault_phases.sh tests those).
# alignbench_paused stops before run 2 creates its file; the disk is filled then, so run 2
# fails in its first pwrite (extend), its fallocate (prealloc) or its zero fill
# (prewritten), whatever the speed of the machine.
sizes=32K,36K,40K,44K,48K,52K,56K,60K,64K
for layout in extend prealloc prewritten; do
  ALIGNBENCH_STOP_BEFORE_RUN=2 "$ALIGNBENCH_PAUSED" --dir "$RIG" --layout "$layout" \
    --sizes "$sizes" --writes 100 --repetitions 1 --sync fsync --out "$WORK/$layout.json" \
    > "$WORK/$layout.out" 2> "$WORK/$layout.err" &
  pid=$!
  if wait_stopped "$pid"; then
    for i in $(seq 50); do
      avail=$(df --output=avail -B1 "$RIG" | tail -1)
      [ "$avail" -gt 4096 ] || break
      fallocate -l "$avail" "$RIG/filler.$i" 2> /dev/null || fallocate -l 64K "$RIG/filler.$i.small" 2> /dev/null || break
    done
    kill -CONT "$pid"
  else
    echo "FAIL: $layout: alignbench never stopped before run 2" >&2
    failed=$((failed + 1))
  fi
  wait "$pid"
  status=$?
  check "$layout, disk full: exit 3 (got $status)" [ "$status" -eq 3 ]
  check "$layout, disk full: one error line with ENOSPC and the hint" \
    [ "$(grep -Ec "^alignbench: error: [a-z]+ $RIG/\.alignbench-[0-9]+-[0-9a-f]+: No space left on device \(ENOSPC\).*; $hint" "$WORK/$layout.err")" -eq 1 ]
  check "$layout, disk full: the result is marked incomplete" \
    json_check "$WORK/$layout.json" 'a["complete"] is False' 'len(a["errors"]) == 1'
  check "$layout, disk full: no .alignbench-* left" no_leftovers "$RIG"
  [ "$failed" -eq 0 ] || cat "$WORK/$layout.err" >&2
  rm -f "$RIG"/filler.*
done

# The storage under the filesystem is full while df shows space: a 64 MiB rig whose image
# lives on a 24 MiB tmpfs. The same exit code and hint as a full filesystem.
small="$WORK/small"
mkdir "$small"
mount -t tmpfs -o size=24M tmpfs "$small" || skip "cannot mount a tmpfs for the backing store"
cleanup_hooks+=("umount '$small'")
full_rig=$("$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig" create --base "$small" --size 64M 2>/dev/null) ||
  { echo "FAIL: loop-rig create on $small" >&2; exit 1; }
# Hooks run in order: the rig goes before its tmpfs is unmounted.
cleanup_hooks=("'$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig' destroy '$full_rig' >/dev/null 2>&1" "${cleanup_hooks[@]}")
"$ALIGNBENCH" --dir "$full_rig" --sizes 1M --writes 24 --repetitions 1 --layout prewritten \
  --sync fsync > /dev/null 2> "$WORK/backing.err"
status=$?
check "full backing store: exit 3 (got $status)" [ "$status" -eq 3 ]
check "full backing store: one error line with ENOSPC and the hint" \
  [ "$(grep -Ec "^alignbench: error: [a-z]+ $full_rig/\.alignbench-[0-9]+-[0-9a-f]+: No space left on device \(ENOSPC\).*; $hint" "$WORK/backing.err")" -eq 1 ]
check "full backing store: no .alignbench-* left" no_leftovers "$full_rig"
[ "$failed" -eq 0 ] || cat -A "$WORK/backing.err" >&2
finish
