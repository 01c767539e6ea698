# A case's "requires" is enforced: where a requirement is not met alignbench
# refuses before measuring, exit 2, naming what is missing; nothing is left behind.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (a tmpfs mount, and a run as nobody)"
chmod 755 "$WORK"
mkdir "$WORK/shm"
mount -t tmpfs -o size=16M,mode=1777 tmpfs "$WORK/shm" || skip "cannot mount a tmpfs"
cleanup_hooks+=("umount '$WORK/shm'")
printf '{"name": "needs-device", "sizes": ["4K"], "writes": 4, "repetitions": 6, "requires": ["block device"]}\n' \
  > "$WORK/device.json"
printf '{"name": "needs-root", "sizes": ["4K"], "writes": 4, "repetitions": 6, "requires": ["root"]}\n' \
  > "$WORK/root.json"
chmod 644 "$WORK"/*.json

"$ALIGNBENCH" --case "$WORK/device.json" --dir "$WORK/shm" > "$WORK/device.out" 2> "$WORK/device.err"
status=$?
check "block device on tmpfs: exit 2 (got $status)" [ "$status" -eq 2 ]
check "block device on tmpfs: one error line naming it" \
  grep -Eqx "alignbench: error: case requires: 'block device' is not met \(no block device under this directory \(tmpfs[:)].*\)" "$WORK/device.err"
check "block device on tmpfs: nothing measured" [ ! -s "$WORK/device.out" ]
check "block device on tmpfs: no .alignbench-* left" no_leftovers "$WORK/shm"
[ "$failed" -eq 0 ] || cat "$WORK/device.err" >&2

runuser -u nobody -- "$(for_nobody "$ALIGNBENCH")" --case "$WORK/root.json" --dir "$WORK/shm" \
  > "$WORK/root.out" 2> "$WORK/root.err"
status=$?
check "root as nobody: exit 2 (got $status)" [ "$status" -eq 2 ]
check "root as nobody: one error line naming it" \
  grep -qx "alignbench: error: case requires: 'root' is not met (not running as root)" "$WORK/root.err"
check "root as nobody: no .alignbench-* left" no_leftovers "$WORK/shm"
[ "$failed" -eq 0 ] || cat "$WORK/root.err" >&2
finish
