# scripts/netfs-rig: an sshfs mount of a directory that an sshd serves from a network
# namespace of its own over a veth pair.
# 1. Two rigs side by side, one with --no-fsync: each mount is fuse.sshfs of
#    root@ADDR:RIGDIR/served (its own address each); a file written and fsynced through it
#    is in served/ with the same bytes, also one written as nobody; server-extensions
#    lists fsync@openssh.com on the one and not on the other, and the server's own fsync(2)
#    calls (strace) follow; list shows both; alignbench runs on the mount and leaves no
#    test file.
# 2. destroy leaves no mount, namespace, process, veth or rig directory; again, it is
#    harmless. So also after the rig's sshd was killed.
# 3. create ended by SIGTERM at each of its phases (and by INT or HUP) leaves nothing.
# 4. Bad arguments are refused before anything is made; a user who is not root is told.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces and mounts (CI runs as root)"
[ -c /dev/fuse ] || skip "no /dev/fuse: this kernel has no FUSE"
[ -x /usr/sbin/sshd ] || skip "/usr/sbin/sshd missing (Debian package openssh-server)"
for tool in sshfs fusermount3 sftp ip unshare nsenter setpriv strace; do
  command -v $tool > /dev/null ||
    skip "$tool missing (Debian packages sshfs, fuse3, openssh-client, iproute2, util-linux, strace)"
done
unshare --net true 2> /dev/null || skip "cannot make a network namespace here (unshare --net)"
NR=$ALIGNBENCH_SOURCE_DIR/scripts/netfs-rig
base=$WORK/base
mkdir "$base"
chmod 755 "$WORK"
# Whatever happens below, no rig of this test outlives it.
cleanup_hooks+=("for r in '$base'/alignbench-netfs.*; do [ -e \"\$r\" ] && '$NR' destroy \"\$r\"; done >/dev/null 2>&1")

env_of() { sed -n "s/^$2=//p" "$1/rig.env"; }  # env_of RIGDIR KEY
# Alive: neither gone nor a zombie, read in one look at /proc/PID/stat (a zombie reaped
# between two looks read as alive, and failed a destroy that had left nothing).
alive() {
  local stat
  [ -n "$1" ] && stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}
# The processes of a rig's namespace, read while its veth (alias: the rig) shows it is ours.
ns_pids() {
  grep -qxF "$1" /sys/class/net/*/ifalias 2> /dev/null || return 0
  ps -e -o pid=,netns= | awk -v ns="$(env_of "$1" NETNS)" '$2 == ns { print $1 }'
}
# rig_pids RIGDIR: every process of the rig, to be checked gone after its destroy.
rig_pids() {
  { ns_pids "$1"; env_of "$1" SSHD_PID; env_of "$1" SSHFS_PID; } | grep .
}

# nothing_left RIGDIR PID...: no mount under the rig, none of its processes (the namespace
# ends with its last one), no process naming it, no veth with its alias, no directory.
nothing_left() {
  local rig=$1 pid
  shift
  grep -qF " $rig/" /proc/self/mountinfo && { echo "    a mount under $rig is left" >&2; return 1; }
  for pid in "$@"; do
    alive "$pid" && { echo "    process $pid is left: $(ps -o args= -p "$pid")" >&2; return 1; }
  done
  pgrep -f -- "$rig/" > /dev/null && { echo "    a process naming $rig is left" >&2; return 1; }
  grep -qxF "$rig" /sys/class/net/*/ifalias 2> /dev/null && { echo "    its veth is left" >&2; return 1; }
  [ ! -e "$rig" ] || { echo "    $rig is left" >&2; return 1; }
}

# create ARGS...: a rig under the base; its mount path goes to $WORK/mount.
create() {
  local out
  out=$("$NR" create --base "$base" "$@" 2> "$WORK/create.err")
  check "create $*: exit 0 ($(tail -n1 "$WORK/create.err"))" [ -n "$out" ]
  [ -n "$out" ] || return 1
  check "create $*: only the mount path on stdout" [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]
  echo "$out" > "$WORK/mount"
}

# server_fsyncs RIGDIR: the fsync(2) calls the server's SFTP session makes while three
# writes through the mount are each fsynced.
server_fsyncs() {
  local rig=$1 session tracer
  session=$(for p in $(ns_pids "$rig"); do
    [[ $(ps -o args= -p "$p") == *internal-sftp* ]] && echo "$p"; done)
  [ -n "$session" ] || { echo "no SFTP session in the rig's namespace" >&2; return 1; }
  strace -f -e trace=fsync,fdatasync -o "$WORK/strace.out" -p "$session" 2> /dev/null &
  tracer=$!
  sleep 0.5  # attached
  "$PY" -c 'import os, sys
fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY)
for i in range(3):
    os.pwrite(fd, b"x" * 4096, i * 4096)
    os.fsync(fd)' "$rig/mnt/traced"
  sleep 0.2
  kill -INT "$tracer"
  wait "$tracer"
  grep -c 'sync(' "$WORK/strace.out"
}

# --- 1. two rigs side by side --------------------------------------------------------------
create || { finish; exit 1; }
A=$(cat "$WORK/mount") ARIG=$(dirname "$(cat "$WORK/mount")")
create --no-fsync || { finish; exit 1; }
B=$(cat "$WORK/mount") BRIG=$(dirname "$(cat "$WORK/mount")")

for rig in "$ARIG" "$BRIG"; do
  m=$rig/mnt
  addr=$(env_of "$rig" ADDR)
  mountinfo=$(awk -v m="$m" '$5 == m { for (i = 6; i <= NF; i++) if ($i == "-") print $(i + 1), $(i + 2) }' /proc/self/mountinfo)
  check "$m: mounted as fuse.sshfs of root@$addr:$rig/served (mountinfo: $mountinfo)" \
    [ "$mountinfo" = "fuse.sshfs root@$addr:$rig/served" ]
  check "$m: mode 1777" [ "$(stat -c %a "$m")" = 1777 ]
  head -c 100000 /dev/urandom > "$WORK/bytes"
  "$PY" -c 'import os, sys
fd = os.open(sys.argv[2], os.O_CREAT | os.O_WRONLY | os.O_TRUNC)
os.write(fd, open(sys.argv[1], "rb").read())
os.fsync(fd)
os.close(fd)' "$WORK/bytes" "$m/written"
  check "$m: a file written and fsynced there is in served/ with the same bytes" \
    cmp -s "$WORK/bytes" "$rig/served/written"
  setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "echo mine > '$m/by-nobody'"
  check "$m: nobody can write there too" grep -qx mine "$rig/served/by-nobody"
  check "$rig: server-extensions lists what the server offers" \
    grep -qx 'posix-rename@openssh.com' "$rig/server-extensions"
done
check "the two rigs have addresses of their own" [ "$(env_of "$ARIG" ADDR)" != "$(env_of "$BRIG" ADDR)" ]
check "the server offers fsync@openssh.com" grep -qx 'fsync@openssh.com' "$ARIG/server-extensions"
check "--no-fsync: the server does not offer fsync@openssh.com" \
  bash -c "! grep -q fsync '$BRIG/server-extensions'"
n=$(server_fsyncs "$ARIG")
check "the server fsyncs what is fsynced through the mount (3 fsync, server: $n)" [ "${n:-0}" -ge 3 ]
n=$(server_fsyncs "$BRIG")
check "--no-fsync: the server fsyncs nothing (3 fsync, server: $n)" [ "$n" = 0 ]
TMPDIR=$base "$NR" list > "$WORK/list"
check "list: a line each ($(tr '\t\n' ' ;' < "$WORK/list"))" \
  bash -c "grep -q '^$A	.*	fsync-on	mounted,serving\$' '$WORK/list' &&
    grep -q '^$B	.*	fsync-off	mounted,serving\$' '$WORK/list'"

start=$SECONDS
"$ALIGNBENCH" --dir "$A" --sizes 4K,1M --repetitions 6 --out "$WORK/R.json" > "$WORK/run.out" 2>&1
status=$?
echo "alignbench on the sshfs rig ($((SECONDS - start)) s, exit $status):"
sed 's/^/  /' "$WORK/run.out"
check "alignbench on the sshfs mount: exit 0 (got $status)" [ "$status" -eq 0 ]
check "alignbench on the sshfs mount: a result" [ -s "$WORK/R.json" ]
check "alignbench on the sshfs mount: no test file left" no_leftovers "$A"

# --- 2. destroy ------------------------------------------------------------------------------
mapfile -t apids < <(rig_pids "$ARIG")
"$NR" destroy "$A" 2> "$WORK/destroy.err"
check "destroy MOUNT: exit 0 ($(cat "$WORK/destroy.err"))" [ $? -eq 0 ]
check "destroy MOUNT: nothing left" nothing_left "$ARIG" "${apids[@]}"
"$NR" destroy "$A" 2> /dev/null
check "destroy again: harmless (exit $?)" [ $? -eq 0 ]

# The sshd killed (every process of its namespace): destroy still removes the rest.
mapfile -t bpids < <(rig_pids "$BRIG")
mapfile -t server < <(ns_pids "$BRIG")
check "the rig's namespace has its sshd (${#server[@]} processes)" [ "${#server[@]}" -ge 1 ]
kill -KILL "${server[@]}"
"$NR" destroy "$BRIG" 2> "$WORK/destroy.err"
check "destroy RIGDIR after its sshd was killed: exit 0 ($(cat "$WORK/destroy.err"))" [ $? -eq 0 ]
check "destroy after its sshd was killed: nothing left" nothing_left "$BRIG" "${bpids[@]}"

# --- 3. SIGTERM during create --------------------------------------------------------------
cat > "$WORK/hook" << EOS
#!/bin/bash
# Pauses at the phase named in want: long enough to be signalled.
[ "\$1 \$2" = "netfs-rig \$(cat "$WORK/want")" ] || exit 0
echo \$\$ > "$WORK/hooked"
exec sleep 60
EOS
chmod +x "$WORK/hook"
# SIGTERM at every phase; INT and HUP (a Ctrl-C, a closed terminal) at two of them.
for point in start:TERM sshd:TERM network:TERM mounted:TERM network:INT mounted:HUP; do
  phase=${point%:*} sig=${point#*:} what="SIG${point#*:} at ${point%:*}"
  echo "$phase" > "$WORK/want"
  rm -f "$WORK/hooked"
  # Job control: create keeps SIGINT, which a background job would start with ignored.
  set -m
  ALIGNBENCH_TEST_HOOK=$WORK/hook "$NR" create --base "$base" > "$WORK/term.out" 2> "$WORK/term.err" &
  pid=$!
  set +m
  for _ in $(seq 300); do [ -s "$WORK/hooked" ] && break; sleep 0.1; done
  check "$what: the phase was reached ($(tail -n1 "$WORK/term.err"))" [ -s "$WORK/hooked" ]
  rig=$(find "$base" -mindepth 1 -maxdepth 1 -name 'alignbench-netfs.*')
  pids=()
  [ -z "$rig" ] || mapfile -t pids < <(rig_pids "$rig")
  kill "-$sig" "$pid"
  wait "$pid"
  status=$?
  check "$what: create exits 128+$(kill -l "$sig") (got $status)" [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
  check "$what: no mount path printed" [ ! -s "$WORK/term.out" ]
  check "$what: the paused hook ended" [ ! -e "/proc/$(cat "$WORK/hooked" 2> /dev/null)" ]
  check "$what: nothing left (${#pids[@]} processes were running)" \
    nothing_left "${rig:-$base/none}" "${pids[@]}"
  check "$what: the base is empty" [ -z "$(ls -A "$base")" ]
done

# --- 4. refusals -----------------------------------------------------------------------------
refused() {  # refused WANT ARGS...: exit WANT, one error line, nothing made
  local want=$1 status
  shift
  "$NR" "$@" > "$WORK/refused.out" 2> "$WORK/refused.err"
  status=$?
  check "$*: exit $want (got $status)" [ "$status" -eq "$want" ]
  check "$*: says why" grep -q "^netfs-rig: error: " "$WORK/refused.err"
  check "$*: nothing made, nothing printed" \
    bash -c "[ -z \"\$(ls -A '$base')\" ] && [ ! -s '$WORK/refused.out' ]"
}
refused 1 create --base "$base" --bogus
refused 1 create --base
refused 1 create --base "$WORK/a b"
refused 1 destroy
refused 1 list extra
refused 2 create --base "$WORK/none"
refused 2 destroy "$WORK"
nr=$(for_nobody "$NR")
# With the libraries it sources from beside it (common.sh, ssh.sh).
mkdir -p "${nr%/*}/lib" && install -m 644 "$ALIGNBENCH_SOURCE_DIR"/scripts/lib/*.sh "${nr%/*}/lib/"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$nr" create --base "$base" \
  > /dev/null 2> "$WORK/user.err"
status=$?
check "not root: exit 2 (got $status)" [ "$status" -eq 2 ]
check "not root: one line says so ($(cat "$WORK/user.err"))" \
  [ "$(grep -c 'must run as root' "$WORK/user.err"):$(wc -l < "$WORK/user.err")" = 1:1 ]
finish
