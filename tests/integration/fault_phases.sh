# Faults at the start, in the middle and at the end of a plan of several runs per variant:
# a full filesystem, a read-only mount, an I/O error (xfs shut down) and a full
# backing store under a loop device. Each must end with exit 3, one error line, a result
# marked "complete": false that holds every run finished before the fault, and no test file
# left where the filesystem still lets one be removed (a warning naming it where not).
#
# The fault is timed exactly: the test tool alignbench_paused (alignbench with a FileOps
# that pauses) stops itself before run K creates its file when ALIGNBENCH_STOP_BEFORE_RUN=K
# (K = 1, 10, 18 of 18); the test breaks the filesystem, then lets it go on with SIGCONT.
source "$(dirname "$0")/lib.sh"
: "${ALIGNBENCH_PAUSED:?set ALIGNBENCH_PAUSED to the alignbench_paused test tool}"
[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices and mounts (CI runs as root)"
command -v xfs_io > /dev/null || skip "xfs_io missing (package xfsprogs)"

RUNS=18  # 3 sizes x 2 variants x 3 runs

# Every block, also those reserved for root (alignbench runs as root here): halve the size
# of each filler until not even one block more fits.
fill() {
  local size=$((1 << 30)) i=0
  while [ "$size" -ge 4096 ]; do
    i=$((i + 1))
    fallocate -l "$size" "$1/filler.$i" 2> /dev/null || size=$((size / 2))
  done
}
# fault_NAME: break DIR's filesystem while alignbench is stopped.
fault_enospc() { fill "$DIR"; }
fault_erofs() { mount -o remount,bind,ro "$DIR"; }
fault_eio() { xfs_io -x -c shutdown "$DIR"; }
# The blocks earlier runs freed go back to the tmpfs first (fstrim punches them out of the
# image), so the next run needs new pages of a full tmpfs.
fault_backing() { fstrim "$DIR" 2> /dev/null; fill "$BACKING"; }

# setup_NAME: a fresh rig for one scenario; sets DIR (where alignbench runs).
setup_enospc() { make_rig --sector 4096 --fs ext4 --size 32M; DIR=$RIG; }
setup_eio() { make_rig --sector 4096 --fs xfs; DIR=$RIG; }
setup_erofs() {  # a bind mount of the rig, which can be made read-only on its own
  make_rig --sector 4096 --fs ext4 --size 32M
  DIR="$WORK/bind.$scenario"
  mkdir "$DIR"
  mount --bind "$RIG" "$DIR"
  cleanup_hooks=("umount '$DIR' 2>/dev/null" "${cleanup_hooks[@]}")
}
setup_backing() {  # an ext4 rig of 64 MiB whose image lives on a 48 MiB tmpfs
  BACKING="$WORK/backing.$scenario"
  mkdir "$BACKING"
  mount -t tmpfs -o size=48M tmpfs "$BACKING"
  cleanup_hooks+=("umount '$BACKING' 2>/dev/null")
  DIR=$("$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig" create --base "$BACKING" --size 64M 2> /dev/null)
  # The rig goes before its tmpfs is unmounted: hooks run in order.
  cleanup_hooks=("'$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig' destroy '$DIR' >/dev/null 2>&1" "${cleanup_hooks[@]}")
}


for fault in ${FAULTS:-enospc erofs eio backing}; do
  for phase in start middle end; do
    scenario=$fault-$phase
    case $phase in start) stop_at=1 ;; middle) stop_at=10 ;; end) stop_at=$RUNS ;; esac
    "setup_$fault"
    err="$WORK/$scenario.err"
    ALIGNBENCH_STOP_BEFORE_RUN=$stop_at "$ALIGNBENCH_PAUSED" --dir "$DIR" --sizes 16K,32K,64K \
      --writes 60 --repetitions 3 --sync fsync --layout prewritten --progress \
      --out "$WORK/$scenario.json" > /dev/null 2> "$err" &
    pid=$!
    for _ in $(seq 1000); do stopped "$pid" && break; kill -0 "$pid" 2> /dev/null || break; sleep 0.01; done
    if stopped "$pid"; then
      "fault_$fault"
      kill -CONT "$pid"
    else
      echo "FAIL: $scenario: alignbench never stopped before run $stop_at" >&2
      failed=$((failed + 1))
    fi
    wait "$pid"
    status=$?
    done_runs=$(grep -c "^\[[0-9]*/$RUNS\] .* done" "$err")
    check "$scenario: exit 3 (got $status)" [ "$status" -eq 3 ]
    check "$scenario: one error line" [ "$(grep -c '^alignbench: error: ' "$err")" -eq 1 ]
    check "$scenario: the fault landed in run $stop_at ($done_runs runs done before)" \
      [ "$done_runs" -eq $((stop_at - 1)) ]
    check "$scenario: a result marked incomplete with the $done_runs finished runs" \
      json_check "$WORK/$scenario.json" 'a["complete"] is False' 'len(a["errors"]) == 1' \
      "sum(len(v.get('runs', [])) for p in a['pairs'] for v in (p['unaligned'], p['aligned'])) == $done_runs"
    if no_leftovers "$DIR" 2> /dev/null; then
      check "$scenario: no .alignbench-* left" true
    else
      check "$scenario: the file left behind is named in a warning" \
        grep -q "^alignbench: warning: could not remove $DIR/\.alignbench-" "$err"
    fi
    [ "$failed" -eq 0 ] || { echo "--- $scenario stderr:" >&2; grep -v '^\[' "$err" >&2; }
    # The next scenario gets a fresh rig; this one goes now.
    for hook in "${cleanup_hooks[@]}"; do eval "$hook" || true; done
    cleanup_hooks=()
  done
done
finish
