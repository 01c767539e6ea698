# The fleet playbook as fleets run it: over real SSH to hosts that share no filesystem with
# the controller (scripts/fleet/ssh-hosts: namespaces, an overlay of / each, an sshd and keys
# of their own, a user that is not root and becomes root with sudo for the install only).
# 1. Three hosts: the .deb installed with apt on each, the quick case run, every result
#    fetched to <fleet>/<host>/<dir-label>.json and the N-way table; the machine's own
#    /usr/bin/alignbench, /etc/hosts, /root/.ssh and /etc/ssh are as before.
# 2. The rerun is idempotent: nothing installed again, nothing left on the hosts.
# 3. Hosts that fail, all in one play with one that works: alignbench refusing its
#    directory, a full disk, sshd stopped mid-run, a host that cannot be reached; each is
#    listed with its error, the good host's result is fetched, and the host cut off
#    mid-run is left with no test file, no run and no temporary directory.
# 4. An interrupted play (TERM or INT to its process group): no test file, run, temporary
#    directory or half-fetched result anywhere.
# 5. down removes every namespace, sshd, key, loop device and mount (and does so from the
#    cleanup trap on every other exit path).
source "$(dirname "$0")/lib.sh"

: "${ALIGNBENCH_BUILD_DIR:?set ALIGNBENCH_BUILD_DIR to the build tree}"
source "$ALIGNBENCH_SOURCE_DIR/tests/integration/package_lib.sh"
fleet_test_rig ansible-playbook cpack dpkg-shlibdeps sudo unshare nsenter ip ssh ssh-keygen
[ -x /usr/sbin/sshd ] || skip "/usr/sbin/sshd missing (Debian package openssh-server)"
unshare --net --mount --pid --fork true 2> /dev/null || skip "cannot make namespaces here (unshare --net --mount --pid)"

start=$(date +%s)
deb=$(build_deb "$WORK/pkg") || { echo "FAIL: cpack -G DEB" >&2; exit 1; }
RIG=$ALIGNBENCH_SOURCE_DIR/scripts/fleet/ssh-hosts
PLAYBOOK=$ALIGNBENCH_SOURCE_DIR/scripts/fleet/playbook.yml
H=$WORK/hosts  # short: ssh's control sockets live under it
machine_state() {
  sha256sum /usr/bin/alignbench /etc/hosts 2>&1
  find /root/.ssh /etc/ssh -printf '%p %s %T@\n' 2>&1 | sort
}
machine_state > "$WORK/machine.before"

cleanup_hooks+=("'$RIG' down '$H' >&2")
"$RIG" up "$H" node-a node-b node-c node-d > "$WORK/up.log" 2>&1 ||
  { cat "$WORK/up.log" >&2; echo "FAIL: ssh-hosts up" >&2; exit 1; }
INVENTORY=$H/inventory.ini
on_host() { "$RIG" exec "$H" "$@"; }
# play INVENTORY FLEET [ARGS...]: the playbook from the controller's namespace, as a user
# runs it against real hosts.
play() {
  local inventory=$1 fleet=$2
  shift 2
  "$RIG" run "$H" ansible-playbook -i "$inventory" "$PLAYBOOK" -e "alignbench_deb=$deb" \
    -e "alignbench_controller=$ALIGNBENCH" -e "fleet_dir=$fleet" "$@"
}
clean_host() {  # clean_host NAME: no test file, no run, no temporary directory of the play
  # shellcheck disable=SC2016  # a command for the host's sh
  on_host "$1" sh -c '[ -z "$(find /srv/disk -maxdepth 1 -name ".alignbench-*" -print -quit)" ] &&
    ! pgrep -x alignbench > /dev/null && [ -z "$(find /tmp -maxdepth 1 -name "alignbench-fleet.*" -print -quit)" ]'
}

check "a host is reached over SSH as a user that is not root" \
  [ "$("$RIG" run "$H" ssh -F "$H/ssh/config" node-a id -u)" != 0 ]
check "a host has no checkout" on_host node-a test ! -e "$ALIGNBENCH_SOURCE_DIR/CMakeLists.txt"
check "a host has its own name" [ "$(on_host node-b hostname)" = node-b ]

# 1. Three hosts, the figures of docs/fleet.md.
sed -i '/^node-d /d' "$INVENTORY"
t0=$(date +%s)
play "$INVENTORY" "$WORK/fleet" > "$WORK/play.log" 2>&1
status=$?
seconds=$(($(date +%s) - t0))
check "three hosts over SSH: the play succeeds (exit $status)" [ $status -eq 0 ]
[ $status -eq 0 ] || grep -E 'fatal|FAILED|msg' "$WORK/play.log" | head -5 >&2
echo "three hosts over SSH: the play took $seconds s"
cat "$WORK/fleet/fleet-table.txt"
for host in node-a node-b node-c; do
  file=$WORK/fleet/$host/%2Fsrv%2Fdisk.json
  check "$host: its result was fetched to <fleet>/$host/<dir-label>.json" [ -f "$file" ]
  [ -f "$file" ] && check "$host: a complete quick run measured on $host" json_check "$file" \
    'a["complete"]' 'a["settings"]["case"]["name"] == "quick"' "a[\"environment\"][\"host\"][\"hostname\"] == \"$host\""
  check "$host: alignbench is installed there by apt" on_host "$host" dpkg-query -W alignbench
  check "$host: nothing is left in its /tmp or on its disk" clean_host "$host"
done
check "the table has a column group per host" grep -q '^\[3\] node-c ' "$WORK/fleet/fleet-table.txt"
check "no half-fetched result is left" [ -z "$(find "$WORK/fleet" -name '*.part' -print -quit)" ]
machine_state > "$WORK/machine.after"
check "the machine's /usr/bin/alignbench, /etc/hosts, /root/.ssh and /etc/ssh are as before" \
  cmp -s "$WORK/machine.before" "$WORK/machine.after"

# 2. The rerun: the package is not installed again, and the hosts end as they were.
short='{"alignbench_args": ["--sizes", "4K", "--writes", "4", "--repetitions", "2"]}'
play "$INVENTORY" "$WORK/fleet-rerun" -e "$short" > "$WORK/rerun.log" 2>&1
status=$?
check "the rerun succeeds (exit $status)" [ $status -eq 0 ]
check "the rerun installs nothing again" \
  bash -c "sed -n '/TASK \[Install the package\]/,/^\$/p' '$WORK/rerun.log' | grep -q '^ok: ' &&
    ! sed -n '/TASK \[Install the package\]/,/^\$/p' '$WORK/rerun.log' | grep -q '^changed: '"
check "the rerun fetched three results" [ "$(find "$WORK/fleet-rerun" -name '*.json' | wc -l)" -eq 3 ]
for host in node-a node-b node-c; do check "$host: clean after the rerun" clean_host "$host"; done

# 3. Failing hosts beside a good one, all at once.
on_host node-c sh -c 'cat /dev/zero > /srv/disk/fill 2> /dev/null; sync'
{
  echo "[alignbench]"
  echo "node-a alignbench_dirs='[\"/srv/disk\"]'"
  echo "node-b alignbench_dirs='[\"/srv/no-such-dir\"]'"
  echo "node-c alignbench_dirs='[\"/srv/disk\"]'"
  echo "node-d alignbench_dirs='[\"/srv/disk\"]'" \
    "alignbench_args='[\"--sizes\", \"4K\", \"--writes\", \"3000\", \"--repetitions\", \"4\"]'"
  echo "ghost alignbench_dirs='[\"/srv/disk\"]'"  # a name that does not resolve
  sed -n '/^\[alignbench:vars\]/,$p' "$INVENTORY"
  # Short runs but on node-d (a host's variable wins over its group's; -e would win over both).
  echo "alignbench_args='[\"--sizes\", \"4K\", \"--writes\", \"4\", \"--repetitions\", \"2\"]'"
} > "$WORK/failing.ini"
play "$WORK/failing.ini" "$WORK/fleet-failing" -e alignbench_serial=5 > "$WORK/failing.log" 2>&1 &
pid=$!
started=no
for _ in $(seq 600); do  # up to a minute: Ansible takes seconds to start
  on_host node-d sh -c 'find /srv/disk -maxdepth 1 -name ".alignbench-*" -size +0 | grep -q .' &&
    { started=yes; break; }
  sleep 0.1
done
check "node-d: its run started within a minute" [ $started = yes ]
"$RIG" stop-sshd "$H" node-d
wait $pid
status=$?
check "failing hosts fail the play (exit $status)" [ $status -ne 0 ]
check "the good host's result was still fetched" [ -f "$WORK/fleet-failing/node-a/%2Fsrv%2Fdisk.json" ]
grep -Eo '(node-[a-d]|ghost): [^"]*' "$WORK/failing.log" | sort -u | cut -c1-200
check "node-b: named with alignbench's refusal of its directory" \
  grep -Eq 'node-b: .*no-such-dir.*(ENOENT|No such file)' "$WORK/failing.log"
check "node-c: named with its full disk" grep -Eq 'node-c: .*(ENOSPC|No space)' "$WORK/failing.log"
check "node-d: named as lost mid-run" grep -Eq 'node-d: [^"]*(unreachable|Failed to connect to the host via ssh)' "$WORK/failing.log"
check "ghost: named as unreachable" grep -Eq 'ghost: .*unreachable' "$WORK/failing.log"
check "node-d: cut off mid-run, it is left clean" clean_host node-d
check "node-c: its full disk holds no test file" clean_host node-c
on_host node-c rm -f /srv/disk/fill

# 4. A signal to the play's process group while node-a measures: TERM (a supervisor) ends
# the play; INT (Ctrl-C) ends the run, whose connection it cuts, and the play goes on and
# lists node-a as lost.
interrupt() {
  local signal=$1 pid started=no status
  setsid bash -c "$(declare -f play); RIG='$RIG' H='$H' PLAYBOOK='$PLAYBOOK' deb='$deb' \
    ALIGNBENCH='$ALIGNBENCH' play '$INVENTORY' '$WORK/fleet-$signal' --limit node-a,localhost \
    -e '{\"alignbench_args\": [\"--sizes\", \"4K\", \"--writes\", \"3000\", \"--repetitions\", \"4\"]}'" \
    > "$WORK/$signal.log" 2>&1 &
  pid=$!
  cleanup_hooks=("kill -KILL -- -$pid 2> /dev/null" "${cleanup_hooks[@]}")
  for _ in $(seq 600); do
    on_host node-a sh -c 'find /srv/disk -maxdepth 1 -name ".alignbench-*" -size +0 | grep -q .' &&
      { started=yes; break; }
    sleep 0.1
  done
  check "$signal: the run started within a minute" [ $started = yes ]
  kill "-$signal" -- "-$pid"
  wait $pid
  status=$?
  if [ "$signal" = TERM ]; then
    check "TERM: the play ended on the signal (exit $status)" [ $status -eq 143 ]
  else
    check "INT: the play went on and failed for node-a (exit $status)" [ $status -eq 2 ]
    grep -Eo 'node-a: [^"]*' "$WORK/$signal.log" | sort -u | cut -c1-200
    check "INT: node-a is listed as lost" grep -Eq 'node-a: [^"]*(unreachable|Failed to connect to the host via ssh)' "$WORK/$signal.log"
  fi
  # The run ends when its terminal is hung up and its fsync returns: seconds on a busy disk.
  for _ in $(seq 300); do clean_host node-a && break; sleep 0.1; done
  clean_host node-a || on_host node-a sh -c 'ps -eo pid,stat,args; ls -a /tmp /srv/disk' >&2
  check "$signal: node-a has no test file, run or temporary directory" clean_host node-a
  check "$signal: no result, whole or half-fetched, on the controller" \
    [ -z "$(find "$WORK/fleet-$signal" -name '*.json*' -print -quit 2> /dev/null)" ]
}
interrupt TERM
interrupt INT

# 5. down leaves nothing of the rig: no process, namespace, loop device, mount or key.
"$RIG" down "$H"
check "down: it succeeds and removes the rig's directory" [ $? -eq 0 -a ! -e "$H" ]
# A function, not bash -c: the pattern would be on that shell's own command line.
no_rig_process() { ! pgrep -f "alignbench-fleet-(host|controller)|$H/" > /dev/null; }
check "down: no process of the hosts or the controller is left" no_rig_process
check "down: no loop device of the hosts is left" bash -c "! losetup -a | grep -qF '$H/'"
check "down: no mount of the hosts is left" bash -c "! grep -qF '$H/' /proc/self/mounts"
machine_state > "$WORK/machine.end"
check "the machine's /usr/bin/alignbench, /etc/hosts, /root/.ssh and /etc/ssh are as at the start" \
  cmp -s "$WORK/machine.before" "$WORK/machine.end"

echo "fleet over SSH: $(($(date +%s) - start)) s in all"
finish
