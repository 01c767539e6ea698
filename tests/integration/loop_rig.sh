# scripts/loop-rig create interrupted by a closed terminal (SIGHUP) or SIGQUIT, also during
# mkfs: it must wait for mkfs before detaching, and leave no loop device,
# mount, rig directory or child process behind.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices (CI runs as root)"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
LR=$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig
base="$WORK/base"
mkdir "$base"
# Whatever happens below, nothing of ours may outlive the test.
cleanup_hooks+=("for r in '$base'/alignbench-rig.*; do [ -e \"\$r\" ] && '$LR' destroy \"\$r\"; done >/dev/null 2>&1")

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

for signal in HUP QUIT TERM; do
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
finish
