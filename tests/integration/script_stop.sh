# A stop signal reaches what a script runs at once: scripts/test, scripts/seed-2013 and
# scripts/ci-time, each in the middle of a long child, get SIGINT and SIGTERM (scripts/test
# SIGHUP too) and must end within 20 s with status 128+N, leaving no process of theirs
# running (the child, nor a process under it), and nothing they made: scripts/test starts
# no further tier, seed-2013 leaves no rig, mount, loop device, veth or temporary
# directory, ci-time no clone (only the log it named).
# The long child is a stand-in that blocks, with a child of its own: ctest in a copy of
# scripts/test in a tree of its own (cmake, dpkg-query and ctest stubs: nothing is built
# or installed, and the real build tree is not touched), the alignbench that
# ALIGNBENCH names for seed-2013 (on a real sshfs rig of scripts/netfs-rig), and .ci/run
# in a git repository of a few files for ci-time, which clones it. It takes seconds.
source "$(dirname "$0")/lib.sh"
S=$ALIGNBENCH_SOURCE_DIR/scripts
[ "$(id -u)" -eq 0 ] || skip "needs root: scripts/seed-2013 and scripts/ci-time run as root only"

# ignored_on_entry (lib.sh): a signal this test's scripts ignore is not sent.

mkdir -p "$WORK/stubs" "$WORK/tmp" "$WORK/pids"
chmod 755 "$WORK"
# The blocking stand-in, under the name it stands for: it records its pid and its own
# child's, then waits for that child, a sleep whose command line names this test.
cat > "$WORK/block" << EOS
#!/bin/bash
(exec -a "$WORK/grandchild" sleep 600) &
echo "\$\$ \$!" > "$WORK/pids/\${0##*/}"
echo "\$*" >> "$WORK/calls-\${0##*/}"
wait
EOS
chmod 755 "$WORK/block"
for name in ctest alignbench; do ln -s "$WORK/block" "$WORK/stubs/$name"; done
printf '#!/bin/sh\nexit 0\n' > "$WORK/stubs/cmake"
printf '#!/bin/sh\necho "install ok installed"\n' > "$WORK/stubs/dpkg-query"
for tool in apt-get sudo; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls-install"\nexit 1\n' "$tool" "$WORK" > "$WORK/stubs/$tool"
done
chmod 755 "$WORK/stubs/"*

# scripts/test and common.sh in a tree of their own.
mkdir -p "$WORK/tree/scripts/lib"
cp "$S/test" "$WORK/tree/scripts/"
cp "$S/lib/common.sh" "$WORK/tree/scripts/lib/"

# A repository for ci-time: its .ci/run records itself and runs the stand-in.
mkdir -p "$WORK/repo/scripts/lib" "$WORK/repo/.ci"
cp "$S/ci-time" "$WORK/repo/scripts/"
cp "$S/lib/common.sh" "$WORK/repo/scripts/lib/"
printf '%s\n' '#!/bin/bash' "echo \$\$ > '$WORK/pids/ci-run'" "exec '$WORK/stubs/ci'" \
  > "$WORK/repo/.ci/run"
ln -s "$WORK/block" "$WORK/stubs/ci"
{ git -C "$WORK/repo" init -q && git -C "$WORK/repo" add -A &&
  git -C "$WORK/repo" -c user.name=test -c user.email=test@example.invalid commit -q -m test; } ||
  { echo "FAIL: no repository for ci-time" >&2; exit 1; }

SEEDING=yes
for tool in sshfs fusermount3 sftp ip unshare nsenter; do
  command -v "$tool" > /dev/null && continue
  echo "SKIP (part): $tool missing (Debian packages sshfs, fuse3, openssh-client, iproute2): seed-2013 is not signalled" >&2
  SEEDING=no
done
{ [ -x /usr/sbin/sshd ] && [ -c /dev/fuse ] && unshare --net true 2> /dev/null; } || {
  echo "SKIP (part): no sshd, FUSE or network namespace here: seed-2013 is not signalled" >&2
  SEEDING=no
}
for pkg in sshfs fuse3 openssh-client openssh-server iproute2 e2fsprogs xfsprogs btrfs-progs; do
  dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" && continue
  echo "SKIP (part): $pkg not installed, seed-2013 would install it: not signalled" >&2
  SEEDING=no
done
mkdir "$WORK/local"
shm_before=$(ls -d /dev/shm/alignbench-seed.* 2> /dev/null)
# Whatever a failed run leaves is undone before the work directory goes.
undo_seed() {
  local rig
  for rig in "$WORK"/tmp/alignbench-seed.*/alignbench-netfs.*; do
    [ -e "$rig" ] && "$S/netfs-rig" destroy "$rig"
  done > /dev/null 2>&1
  for rig in /dev/shm/alignbench-seed.*; do
    grep -qxF "$rig" <<< "$shm_before" || rm -rf "$rig"
  done
  return 0
}
cleanup_hooks=("pkill -KILL -f -- '$WORK/' 2> /dev/null; sleep 0.2" undo_seed "${cleanup_hooks[@]}")

no_run_left() { ! pgrep -f -- "$WORK/" > /dev/null; }
# recorded_gone: every pid a stand-in recorded has ended (a zombie, an orphan that init
# has not reaped yet, counts as ended).
recorded_gone() {
  local pid
  while read -r pid; do
    [[ $(ps -o stat= -p "$pid" 2> /dev/null) == Z* || ! -e /proc/$pid ]] || return 1
  done < <(cat "$WORK"/pids/* 2> /dev/null)
}
nothing_of_seed() {
  [ -z "$(ls -A "$WORK/tmp")" ] && ! grep -qF "$WORK/" /proc/mounts &&
    ! losetup -a | grep -qF "$WORK/" && ! cat /sys/class/net/*/ifalias 2> /dev/null | grep -qF "$WORK/" &&
    [ "$(ls -d /dev/shm/alignbench-seed.* 2> /dev/null)" = "$shm_before" ]
}
# Only the log whose path ci-time printed.
only_the_log() {
  local log
  log=$(sed -n 's/.*its output goes to \(.*\)$/\1/p' "$1")
  [ -n "$log" ] && [ "$(ls -d "$WORK"/tmp/*)" = "$log" ] && rm -f "$log"
}

# inject SCRIPT SIGNAL: the script started, its stand-in reached, SIGNAL sent, its traces.
inject() {
  local script=$1 sig=$2 what="$1 SIG$2" pid status gone='' out=$WORK/out-$1-$2 before=$failed
  rm -f "$WORK"/pids/* "$WORK"/calls-*
  # Job control: the script keeps SIGINT, which a background job would start with ignored.
  set -m
  case $script in
    test) env PATH="$WORK/stubs:$PATH" TMPDIR="$WORK/tmp" "$WORK/tree/scripts/test" \
            > "$out" 2> "$out.err" & ;;
    seed-2013) env ALIGNBENCH="$WORK/stubs/alignbench" TMPDIR="$WORK/tmp" \
                 "$S/seed-2013" "$WORK/local" "$out.results" > "$out" 2> "$out.err" & ;;
    ci-time) env PATH="$WORK/stubs:$PATH" TMPDIR="$WORK/tmp" "$WORK/repo/scripts/ci-time" \
               > "$out" 2> "$out.err" & ;;
  esac
  pid=$!
  set +m
  for _ in $(seq 600); do  # up to 60 s to reach the stand-in
    [ -s "$WORK/pids/ctest" ] || [ -s "$WORK/pids/alignbench" ] || [ -s "$WORK/pids/ci" ] && break
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  check "$what: the long child runs" bash -c "[ -s '$WORK/pids/ctest' ] || [ -s '$WORK/pids/alignbench' ] || [ -s '$WORK/pids/ci' ]"
  check "$what: the signal was sent" kill "-$sig" "$pid"
  # 20 s, by the clock: seed-2013 takes its sshfs rig down (unmount, ssh server, veth),
  # which took more than 5 s at a load of 16 on 2 vCPUs; a script that ignored the
  # signal would run its long child for 600 s.
  local stop_at=$((SECONDS + 20))
  while [ "$SECONDS" -lt "$stop_at" ]; do
    kill -0 "$pid" 2> /dev/null || { gone=1; break; }
    sleep 0.1
  done
  check "$what: ended within 20 s" [ -n "$gone" ]
  [ -n "$gone" ] || kill -KILL -- "-$pid" 2> /dev/null
  wait "$pid"
  status=$?
  check "$what: exit 128+$(kill -l "$sig") (got $status)" [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
  check "$what: the child and its own child ended" recorded_gone
  check "$what: no process of the run is left" no_run_left
  check "$what: nothing installed" [ ! -e "$WORK/calls-install" ]
  case $script in
    test)
      check "$what: no further tier started ($(tr '\n' ';' < "$WORK/calls-ctest"))" \
        [ "$(wc -l < "$WORK/calls-ctest")" -eq 1 ]
      check "$what: no temporary file left" [ -z "$(ls -A "$WORK/tmp")" ] ;;
    seed-2013)
      check "$what: no rig, mount, loop device, veth or temporary directory left" nothing_of_seed ;;
    ci-time)
      check "$what: no clone left, only the log it named" only_the_log "$out.err" ;;
  esac
  [ "$failed" -eq "$before" ] || sed "s/^/    ($what) /" "$out.err" >&2
  if [ "$failed" -ne "$before" ]; then
    pkill -KILL -f -- "$WORK/" 2> /dev/null
    undo_seed
    rm -rf "${WORK:?}"/tmp/*
  fi
  rm -rf "$out.results"
}

scripts=(test ci-time)
[ $SEEDING = yes ] && scripts+=(seed-2013)
for script in "${scripts[@]}"; do
  signals=(INT TERM)
  [ "$script" = test ] && signals+=(HUP)
  for sig in "${signals[@]}"; do
    if ignored_on_entry "$sig"; then
      echo "NOTE: SIG$sig was ignored when this test started (a background job?): not sent" >&2
      continue
    fi
    inject "$script" "$sig"
  done
done
finish
