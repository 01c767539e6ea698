# scripts/loop-rig create interrupted by a closed terminal (SIGHUP), SIGQUIT, and signals
# whose default action would end it untrapped (USR1, ALRM, XCPU), during mkfs: it must wait
# for mkfs before detaching, and leave no loop device, mount, rig directory or child process
# behind. Then its inputs: every bad value refused up front with nothing made, and a --base
# whose path rig.env could not hold refused, while an odd but valid one (a trailing '=')
# gives a rig that destroy takes back.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices (CI runs as root)"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
LR=$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig
base="$WORK/base"
mkdir "$base"
# Whatever happens below, nothing of ours may outlive the test.
cleanup_hooks+=("for r in '$base'/alignbench-rig.*; do [ -e \"\$r\" ] && '$LR' destroy \"\$r\"; done >/dev/null 2>&1")
# A rig that destroy refuses (the defect under test) is taken down by hand: every loop
# device backed by a file of this test, its mounts first.
release_ours() {
  local f d
  for f in /sys/block/loop*/loop/backing_file; do
    { [ -r "$f" ] && [[ $(< "$f") == "$WORK/"* ]]; } || continue
    d=/dev/${f#/sys/block/}
    d=${d%%/loop/backing_file}
    while umount "$d" 2> /dev/null; do :; done
    losetup -d "$d"
  done
}
cleanup_hooks+=("release_ours")

# A slow, stubborn mkfs, as on a big disk: it ignores the signals and takes a second before
# the real mkfs runs; when it ends it notes whether our loop device was still attached.
mkdir "$WORK/bin"
cat > "$WORK/bin/mkfs.ext4" <<EOS
#!/bin/bash
trap '' TERM HUP INT QUIT
sleep 1
/usr/sbin/mkfs.ext4 "\$@"
rc=\$?
if losetup "\${@: -1}" 2>/dev/null | grep -qF "$base/"; then state=attached; else state=detached; fi
echo "\$state" > "$WORK/mkfs-ended"
exit \$rc
EOS
chmod +x "$WORK/bin/mkfs.ext4"

mkfs_child() {  # the pid of a mkfs.* process under $1, if any
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    case $(cat "/proc/$child/comm" 2>/dev/null) in mkfs*) echo "$child"; return 0 ;; esac
    mkfs_child "$child" && return 0
  done
  return 1
}

nothing_left() {
  ! losetup -a | grep -qF "$base/" &&
    ! grep -qF "$base/" /proc/mounts &&
    [ -z "$(ls -A "$base")" ]
}

for signal in HUP QUIT TERM USR1 ALRM XCPU; do
  rm -f "$WORK/mkfs-ended"
  set -m
  PATH="$WORK/bin:$PATH" "$LR" create --base "$base" --size 64M > /dev/null \
    2> "$WORK/$signal.err" &
  pid=$!
  set +m
  mkfs=
  for _ in $(seq 200); do  # up to 10 s for mkfs to start
    mkfs=$(mkfs_child "$pid") && break
    sleep 0.05
  done
  check "SIG$signal: mkfs started (pid ${mkfs:-none})" [ -n "$mkfs" ]
  kill "-$signal" "$pid"
  wait "$pid"
  status=$?
  check "SIG$signal during mkfs: create fails (exit $status)" [ "$status" -ne 0 ]
  check "SIG$signal during mkfs: mkfs has ended" [ ! -e "/proc/${mkfs:-none}" ]
  check "SIG$signal during mkfs: the device stayed attached until mkfs ended" \
    grep -qx attached "$WORK/mkfs-ended"
  check "SIG$signal during mkfs: no loop device, mount or rig directory left" nothing_left
  [ "$failed" -eq 0 ] || { losetup -a; ls -A "$base"; cat "$WORK/$signal.err"; } >&2
done

# refused CASE ARGS...: create exits 1 with one error line, and nothing is made anywhere.
refused() {
  local what=$1 status
  shift
  timeout 120 "$LR" create "$@" > "$WORK/refused.out" 2> "$WORK/refused.err"
  status=$?
  [ -s "$WORK/refused.out" ] && "$LR" destroy "$(cat "$WORK/refused.out")" > /dev/null 2>&1
  check "$what: exit 1 (got $status)" [ "$status" -eq 1 ]
  check "$what: says what is wrong" grep -q "^loop-rig: error: " "$WORK/refused.err"
  check "$what: prints no mount" [ ! -s "$WORK/refused.out" ]
  check "$what: nothing made" nothing_left
}
refused "--size ''" --base "$base" --size ''
refused "--size 1.5M" --base "$base" --size 1.5M
refused "--size -1" --base "$base" --size -1
refused "--size 0" --base "$base" --size 0
refused "--size 64Q" --base "$base" --size 64Q
refused "--size ' 64M'" --base "$base" --size ' 64M'
refused "--size 2T (above the cap)" --base "$base" --size 2T
newline="$WORK/a
b"
mkdir "$newline"
refused "--base with a newline" --base "$newline" --size 64M
check "--base with a newline: no rig under it" [ -z "$(ls -A "$newline")" ]
rmdir "$newline"
# A symlink to such a directory: rig.env would hold the resolved path.
mkdir "$WORK/c
d"
ln -s "$WORK/c
d" "$WORK/link"
refused "--base linking to a path with a newline" --base "$WORK/link" --size 64M
check "nothing under the link's target" [ -z "$(ls -A "$WORK/c
d")" ]

# A trailing '=' is a valid path: the rig must be one that destroy accepts.
mkdir "$base/e="
rig=$("$LR" create --base "$base/e=" --size 64M 2> "$WORK/eq.err")
check "--base ending in '=': created (${rig:-$(tail -n1 "$WORK/eq.err")})" [ -n "$rig" ]
"$LR" destroy "$rig" > /dev/null 2> "$WORK/eq-destroy.err"
status=$?
check "--base ending in '=': destroy accepts it (exit $status: $(cat "$WORK/eq-destroy.err"))" [ "$status" -eq 0 ]
check "--base ending in '=': nothing left" [ -z "$(ls -A "$base/e=")" ]
losetup -a | grep -qF "$base/e=/" && { echo "FAIL: loop device left" >&2; failed=$((failed + 1)); }
rmdir "$base/e="
finish
