# Shared by the shell tests: the binary, a private work directory removed on every exit
# path, and the closing "N passed, M failed" line that CTest's log shows.
set -u
: "${ALIGNBENCH:?set ALIGNBENCH to the alignbench binary}"
: "${ALIGNBENCH_SOURCE_DIR:?set ALIGNBENCH_SOURCE_DIR to the source tree}"
# mkfs.*, losetup, xfs_io and their kind live in /usr/sbin and /sbin, which a user's PATH
# often lacks: without these, a test run as a user would skip for a tool "missing" that is
# installed.
PATH=$PATH:/usr/sbin:/sbin
# The scripts a test runs (scripts/test, derby, package...) must not add their phases to
# the table of the CI run around the test (.ci/run).
unset ALIGNBENCH_PHASES
PY=/usr/bin/python3
passed=0
failed=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/alignbench-test.XXXXXX")
cleanup_hooks=()
cleanup() {
  local hook
  for hook in "${cleanup_hooks[@]}"; do eval "$hook" || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

check() {  # check "what" command...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
  fi
}

skip() {  # a test without its rig says so loudly and exits 77 (CTest: skipped)
  echo "SKIP: $*" >&2
  exit 77
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

no_leftovers() {  # no .alignbench-* file in the directory
  [ -z "$(find "$1" -maxdepth 1 -name '.alignbench-*' -print -quit)" ]
}

# for_nobody FILE: prints the path of a copy of FILE that the user nobody may read and run.
# A test's own files may sit where nobody cannot reach them (a checkout under /root).
for_nobody() {
  chmod 755 "$WORK"
  mkdir -p "$WORK/for-nobody"
  install -m 755 "$1" "$WORK/for-nobody/" && echo "$WORK/for-nobody/${1##*/}"
}

# wait_for_run_file DIR: up to 5 s until a run's file exists there. A run's file is the
# non-empty one: the checks before measuring create empty ones for an instant, and 200 ms
# of idle window follow them before the first run's file exists.
wait_for_run_file() {
  local _
  for _ in $(seq 100); do
    [ -n "$(find "$1" -maxdepth 1 -name '.alignbench-*' -size +0 -print -quit)" ] && return 0
    sleep 0.05
  done
  return 1
}

# stopped PID: the process is stopped, as the alignbench_paused test tool stops itself.
stopped() { [[ $(ps -o stat= -p "$1" 2> /dev/null) == T* ]]; }

# wait_stopped PID: up to 10 s until PID stops; fails when it ends or never stops.
wait_stopped() {
  local _
  for _ in $(seq 1000); do
    stopped "$1" && return 0
    kill -0 "$1" 2> /dev/null || return 1
    sleep 0.01
  done
  return 1
}

# wait_file SECONDS FILE: up to SECONDS until FILE exists (a writer says it is ready).
wait_file() {
  local _
  for _ in $(seq $(($1 * 20))); do
    [ -e "$2" ] && return 0
    sleep 0.05
  done
  return 1
}

# make_rig [loop-rig create args]: a fresh filesystem on a loop device, destroyed on every
# exit path; sets RIG to its mount. Without root or loop devices the test is skipped.
make_rig() {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices (CI runs as root)"
  [ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
  chmod 755 "$WORK"  # so that tests can run the binary on the rig as nobody
  RIG=$("$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig" create --base "$WORK" "$@") ||
    { echo "FAIL: loop-rig create $*" >&2; exit 1; }
  cleanup_hooks+=("'$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig' destroy '$RIG' >/dev/null 2>&1")
}

# Every loop device still on IMAGE, detached: registered before losetup runs, so a
# signal between the attach and its registration leaves nothing behind.
detach_image() {
  local dev
  for dev in $(losetup -n -O NAME -j "$1" 2> /dev/null); do losetup -d "$dev"; done
}

# stack NAME SIZE "LOSETUP ARGS" MKFS...: an image of SIZE on a loop device, MKFS run on
# the device (or its first partition where LOSETUP ARGS has -P; a NAME of partition gets
# one at sector 1), mounted at $WORK/NAME/mnt; sets DEV (what was formatted) and MNT. For
# stacks loop-rig does not make (an offset, a partition, mkfs's own options).
stack() {
  local name=$1 size=$2 args=$3 img dev
  shift 3
  mkdir -p "$WORK/$name/mnt"
  img=$WORK/$name/image
  truncate -s "$size" "$img"
  [ "$name" = partition ] &&
    { printf 'start=1, size=65536, type=83\n' | sfdisk -q "$img" > /dev/null 2>&1 ||
      { echo "FAIL: sfdisk on $img" >&2; exit 1; }; }
  cleanup_hooks+=("detach_image '$img'")
  # shellcheck disable=SC2086  # the losetup arguments are words
  dev=$(losetup -f --show $args "$img") || { echo "FAIL: losetup $args" >&2; exit 1; }
  DEV=$dev
  if [[ $args == *-P* ]]; then
    DEV=${dev}p1
    # The scan of losetup -P did not always find the table here: partx adds it.
    [ -b "$DEV" ] || sleep 0.2
    [ -b "$DEV" ] || partx -a "$dev" 2> /dev/null
    for _ in $(seq 100); do [ -b "$DEV" ] && break; sleep 0.02; done
  fi
  "$@" "$DEV" > /dev/null 2>&1 || { echo "FAIL: $* $DEV" >&2; exit 1; }
  MNT=$WORK/$name/mnt
  cleanup_hooks=("umount '$MNT' 2> /dev/null" "${cleanup_hooks[@]}")
  mount "$DEV" "$MNT" || { echo "FAIL: mount $DEV" >&2; exit 1; }
}

# unstack NAME: its mount and loop device gone now, so that the next fits beside them.
unstack() {
  umount "$WORK/$1/mnt"
  detach_image "$WORK/$1/image"
  rm -f "$WORK/$1/image"
}

# slow_reads IOPS: a known mechanism on the rig of make_rig. Sets SLOW to a command prefix
# that runs a command in a new cgroup limited to IOPS reads per second on the rig's
# device, while writes run at the disk's speed. The kernel grants reads per 100 ms slice,
# so at IOPS 10 every read waits about 100 ms (at 50, five pass at once and the sixth
# waits 100 ms: a mean, not a latency). A read-on-write then shows in every write's time by
# far more than a shared disk's noise. cgroup v1's blkio hierarchy is used where it is
# mounted or can be (a chroot mounts no cgroups), else cgroup v2's io controller. The
# cgroup, and a hierarchy mounted here, are removed on every exit path.
slow_reads() {
  local root rule device majmin
  device=$(findmnt -no SOURCE "$RIG") || { echo "FAIL: no device under $RIG" >&2; exit 1; }
  majmin=$(cat "/sys/class/block/${device#/dev/}/dev")
  root=$(findmnt -rn -t cgroup -O blkio -o TARGET | head -n1)
  if [ -z "$root" ] && mkdir "$WORK/blkio" &&
    mount -t cgroup -o blkio alignbench-test "$WORK/blkio" 2>/dev/null; then
    root=$WORK/blkio
    cleanup_hooks+=("umount '$root'")
  fi
  if [ -n "$root" ]; then
    rule=("blkio.throttle.read_iops_device" "$majmin $1")
  else
    root=$(findmnt -rn -t cgroup2 -o TARGET | head -n1)
    { [ -n "$root" ] && grep -qw io "$root/cgroup.subtree_control"; } ||
      skip "no cgroup blkio throttle (v1) nor io controller (v2): cannot make reads slow"
    rule=("io.max" "$majmin riops=$1")
  fi
  SLOW_CGROUP=$(mktemp -u "$root/alignbench-test.XXXXXX")
  mkdir "$SLOW_CGROUP" || { echo "FAIL: mkdir $SLOW_CGROUP" >&2; exit 1; }
  # First in the list, before the hierarchy's umount: a cgroup is removed through its mount.
  cleanup_hooks=("rmdir '$SLOW_CGROUP' 2>/dev/null" "${cleanup_hooks[@]}")
  echo "${rule[1]}" > "$SLOW_CGROUP/${rule[0]}" ||
    { echo "FAIL: cannot limit reads on $device in $SLOW_CGROUP" >&2; exit 1; }
  # shellcheck disable=SC2034,SC2016  # SLOW: the tests' own; $$ and $0 are sh -c's
  SLOW=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$SLOW_CGROUP")
}

# spin_every_cpu: a process spinning on every CPU until stop_spinners (also on every exit):
# a machine whose CPUs others keep busy.
spin_every_cpu() {
  spinners=()
  for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    spinners+=($!)
  done
  cleanup_hooks+=(stop_spinners)
}
stop_spinners() { kill "${spinners[@]}" 2> /dev/null; wait "${spinners[@]}" 2> /dev/null; }

# json_check FILE PYTHON-EXPRESSION...: each expression, with `a` the alignbench object
# and `pair(size, i)` the i-th pair of that size, must be true.
json_check() {
  local file=$1
  shift
  "$PY" - "$file" "$@" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
def pair(size, i=0):
    return [p for p in a["pairs"] if p["size_bytes"] == size][i]
ok = True
for expression in sys.argv[2:]:
    try:
        value = eval(expression)
    except Exception as e:
        value = "%s: %s" % (type(e).__name__, e)
    if value is not True:
        print("    not true: %s  (%s)" % (expression, value), file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
}

# ignored_on_entry SIGNAL: the signal was ignored when this test started (a background job
# of a shell ignores INT and QUIT), so it is ignored in every script the test starts, which
# rightly keeps it ignored (nohup): such a signal is not sent. Read from a child started as
# the scripts are (this shell's own mask says nothing: bash ignores QUIT itself and gives
# its children their inherited disposition back).
set -m
awk '/^SigIgn:/ {print $2}' /proc/self/status > "$WORK/sigign" &
wait $!
set +m
ignored_mask=$((16#$(cat "$WORK/sigign")))
ignored_on_entry() { (( (ignored_mask >> ($(kill -l "$1") - 1)) & 1 )); }

# A name no output may show raw: ESC with a terminal command, BEL, a newline that would
# forge a line, CR, the C1 control CSI, the bidi override U+202E and a byte outside UTF-8.
# HOSTILE_SHOWN is how alignbench and the scripts print it.
# shellcheck disable=SC2034  # this and the next: for the tests that source this file
HOSTILE=$'x\e]0;owned\a\n--- forged\r\xc2\x9b2J\xe2\x80\xaeevil\x9by'
# shellcheck disable=SC2034
HOSTILE_SHOWN='x\x1b]0;owned\x07\n--- forged\r\u009b2J\u202eevil\x9by'
# clean FILE: no C0 control but the tab and the newline, no DEL, no C1 or bidi control,
# valid UTF-8.
clean() {
  perl -e '
    local $/; my $s = <STDIN>;
    exit 1 if $s =~ /[\x00-\x08\x0b-\x1f\x7f]/;
    exit 1 if $s =~ /\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c/;
    utf8::decode($s) or exit 1;' < "$1"
}
