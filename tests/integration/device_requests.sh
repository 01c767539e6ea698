# The device's own account on real rigs: 4096-sector ext4 and xfs loop rigs, cold and
# prewritten (cases/cold-rmw.json), 4K writes shifted 24 B, beside a neighbour that writes
# and fsyncs another file on the same filesystem as fast as it can (scripts/busy-neighbour
# --rate 0). From the block layer's requests told apart (each variant's device_requests),
# the unaligned variant's file reads 1.0 +- 0.15 blocks per write, the aligned one's at most
# 0.1, and the why-line names the read; a quiet run's three parts sum to the device-wide
# counters within 2 %; no tracing instance of alignbench's is left, also after SIGTERM.
# Where tracefs is not mounted the test mounts it in a mount namespace of its own, so that
# nothing changes for the rest of the machine.
if [ "$(id -u)" -eq 0 ] && [ -z "${DEVICE_REQUESTS_NS:-}" ] &&
  ! mountpoint -q /sys/kernel/tracing && command -v unshare > /dev/null; then
  # --propagation private: the mount stays in the namespace, gone when the test ends.
  exec env DEVICE_REQUESTS_NS=1 unshare --mount --propagation private bash "$0" "$@"
fi
if [ -n "${DEVICE_REQUESTS_NS:-}" ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
fi
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices and tracefs (CI runs as root)"
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] ||
  skip "no block tracepoints under /sys/kernel/tracing (kernel $(uname -r))"

instances() {  # instances: alignbench's tracing instances, one a line
  find /sys/kernel/tracing/instances -maxdepth 1 -name 'alignbench-*' -printf '%f\n' | sort
}
# Another test's run that was killed may have left one before this test began.
instances > "$WORK/instances-before"
orphans() {  # orphans: the instances made since this test began whose process is gone
  local name
  for name in $(comm -13 "$WORK/instances-before" <(instances)); do
    kill -0 "${name##*-}" 2> /dev/null || echo "$name"
  done
}
CASE=$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json
run() {  # run NAME DIR [busy]: 4K of cold-rmw, result in $WORK/NAME.json
  local name=$1 dir=$2 busy=${3:-}
  local cmd=("$ALIGNBENCH" --dir "$dir" --case "$CASE" --sizes 4K --writes 32 --repetitions 2
    --out "$WORK/$name.json")
  if [ -n "$busy" ]; then
    cmd=("$ALIGNBENCH_SOURCE_DIR/scripts/busy-neighbour" --rate 0 "$dir" -- "${cmd[@]}")
  fi
  local start=$SECONDS
  "${cmd[@]}" > "$WORK/$name.txt" 2> "$WORK/$name.err" ||
    { echo "FAIL: the $name run" >&2; cat "$WORK/$name.err" >&2; return 1; }
  echo "$name: $((SECONDS - start)) s"
}

for fs in ext4 xfs; do
  make_rig --fs "$fs" --sector 4096
  run "busy-$fs" "$RIG" busy || { failed=$((failed + 1)); continue; }
  check "$fs, busy: the file's reads per write, unaligned 1.0 +- 0.15, aligned <= 0.1" \
    json_check "$WORK/busy-$fs.json" \
    'a["device_account"]["source"] == "block trace"' \
    'abs(pair(4096)["unaligned"]["device_requests"]["file"]["reads"] - 1.0) <= 0.15' \
    'pair(4096)["aligned"]["device_requests"]["file"]["reads"] <= 0.1' \
    'pair(4096)["unaligned"]["device_requests"]["others"]["writes"] > 0'
  check "$fs, busy: the why names the read" json_check "$WORK/busy-$fs.json" \
    '"each write read the block of the file it partly overwrote" in pair(4096)["explanation"]' \
    '"read-on-write" in pair(4096)["mechanisms"]'
  check "$fs, busy: --details shows the parts" \
    grep -q "told apart by where they land" <("$ALIGNBENCH" show --details "$WORK/busy-$fs.json")
done

# Quiet: the parts add up to what the device counted, each counter within 2 % (and a
# hundredth of a request per write, where the counter is near 0).
run quiet "$RIG" &&
  check "xfs, quiet: file + filesystem + others = the device counters, within 2 %" \
    json_check "$WORK/quiet.json" \
    'all(abs(sum(pair(4096)[v]["device_requests"][p][k] for p in ("file", "filesystem", "others")) - pair(4096)[v]["device_per_write"][k]) <= 0.02 * pair(4096)[v]["device_per_write"][k] + 0.01 for v in ("unaligned", "aligned") for k in ("reads", "read_kib", "writes", "written_kib", "flushes"))'

# SIGTERM mid-run: the instance goes with the process.
"$ALIGNBENCH" --dir "$RIG" --sizes 4K --writes 20000 --repetitions 2 --out "$WORK/killed.json" \
  > /dev/null 2>&1 &
pid=$!
wait_for_run_file "$RIG" && sleep 0.3
check "a run traces while it measures" [ -d "/sys/kernel/tracing/instances/alignbench-$pid" ]
kill -TERM "$pid"
wait "$pid"
check "SIGTERM: its instance is gone" [ ! -e "/sys/kernel/tracing/instances/alignbench-$pid" ]
check "no instance of alignbench's outlives its process" [ -z "$(orphans)" ]
finish
