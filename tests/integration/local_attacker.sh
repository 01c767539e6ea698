# A hostile local user prepares what they can, then root runs alignbench and its scripts
# beside it: nothing of the user's runs as root, nothing of theirs is read in place of
# root's, replaced or followed (docs/safety.md, "Another user on the machine").
# 1. sshfs: as nobody, processes called sshfs that name root's mount (with -F of their
#    config file, with -o ProxyCommand), one started before root bound that mount at a
#    second path, each with a ProxyCommand that would leave a file behind if run. env and
#    a measuring run on both paths run none of it; on the real mount the server is still
#    asked (root's own sshfs), on the bound one its fsync is said to be unknown.
# 2. A world-writable sticky directory (the run's --dir and working directory): nobody's
#    .alignbench-* symlink to a root file, FIFO and regular file, a case file named
#    "quick", and programs named dpkg-query, sftp, hdparm, strace and the ones the scripts
#    call first (dirname, stat, perl, ...) on a PATH entry "." and on an entry of theirs;
#    a Python module named matplotlib. A run, env, record,
#    scripts/derby and scripts/plot as root there: the shipped case is measured, nobody's
#    files stay as they were, none of their programs runs.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to act beside an unprivileged user (CI runs as root)"
command -v setpriv > /dev/null || skip "setpriv missing (Debian package util-linux)"
id nobody > /dev/null 2>&1 || skip "no user nobody to play the neighbour"
chmod 755 "$WORK"
EVIL=$WORK/evil PWNED=$WORK/evil/pwned-by-root
mkdir -m 777 "$EVIL"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# Anything of the user's that runs leaves the file PWNED with who ran it.
as_nobody sh -c "cat > '$EVIL/config'" << EOF
Host *
  ProxyCommand sh -c 'id -un >> $PWNED; exec false'
EOF
untouched() { [ ! -e "$PWNED" ] || { echo "    ran: $(cat "$PWNED")" >&2; return 1; }; }
fakes=()
# shellcheck disable=SC2016  # lib.sh's cleanup evals it at the end
cleanup_hooks+=('for p in "${fakes[@]}"; do kill "$p"; done 2> /dev/null')
# fake_sshfs ARGS...: a process of nobody's whose command line is "sshfs - ARGS..." (its
# PID is $!: setpriv, bash and python3 each exec the next).
fake_sshfs() {
  setpriv --reuid=nobody --regid=nogroup --clear-groups \
    bash -c 'exec -a sshfs python3 - "$@" <<< "import time; time.sleep(600)"' _ "$@" &
  fakes+=($!)
}

# --- 1. sshfs ---------------------------------------------------------------------------
sshfs_part() {
  local base=$WORK/base rig mount bound addr
  mkdir "$base"
  mount=$("$ALIGNBENCH_SOURCE_DIR/scripts/netfs-rig" create --base "$base" 2> "$WORK/rig.err") ||
    { check "netfs-rig create ($(tail -n 1 "$WORK/rig.err"))" false; return; }
  rig=${mount%/mnt}
  cleanup_hooks+=("'$ALIGNBENCH_SOURCE_DIR/scripts/netfs-rig' destroy '$rig' > /dev/null 2>&1")
  addr=$(sed -n 's/^ADDR=//p' "$rig/rig.env")
  bound=$WORK/bound
  mkdir "$bound"
  fake_sshfs -F "$EVIL/config" "root@$addr:$rig/served" "$bound"
  fake_sshfs -o "ProxyCommand=sh -c 'id -un >> $PWNED'" "root@$addr:$rig/served" "$bound"
  fake_sshfs -F "$EVIL/config" "root@$addr:$rig/served" "$mount"
  sleep 0.5
  mount --bind "$mount" "$bound"
  cleanup_hooks=("umount '$bound'" "${cleanup_hooks[@]}")
  "$ALIGNBENCH" env "$mount" > "$WORK/env-mount.out" 2>&1
  check "env on root's mount: its server asked, as before ($(grep -o 'sshfs sends.*' "$WORK/env-mount.out" | head -c 200))" \
    grep -q 'the server offers fsync@openssh.com' "$WORK/env-mount.out"
  "$ALIGNBENCH" env "$bound" > "$WORK/env-bound.out" 2>&1
  check "env on the bound mount: fsync said unknown, and why" \
    grep -q 'whether this server does is not known: no sshfs process of the mount' "$WORK/env-bound.out"
  "$ALIGNBENCH" --case quick --sizes 4K --repetitions 2 --dir "$bound" --out "$WORK/bound.json" \
    > "$WORK/run-bound.out" 2>&1
  check "a run on the bound mount: exit 0 ($(tail -n 1 "$WORK/run-bound.out"))" [ $? -eq 0 ]
  check "sshfs: nothing of nobody's ran" untouched
  check "sshfs: nobody's processes were only read" kill -0 "${fakes[@]}"
}

# --- 2. a world-writable directory ------------------------------------------------------
SHARED=$WORK/shared
mkdir -m 1777 "$SHARED"
echo precious > "$WORK/root-file"
# Programs and a module of nobody's: each leaves PWNED if it runs.
as_nobody sh -c "
  mkdir '$SHARED/bin'
  for p in dpkg-query sftp hdparm strace dirname readlink realpath stat id hostname date \
    mkdir chown perl cmake apt-get; do
    printf '#!/bin/sh\nid -un >> $PWNED\n' > '$SHARED/bin/'\$p
    cp '$SHARED/bin/'\$p '$SHARED/'\$p
    chmod 755 '$SHARED/bin/'\$p '$SHARED/'\$p
  done
  printf 'import os\nos.system(\"id -un >> $PWNED\")\n' > '$SHARED/matplotlib.py'
  printf '{\"name\": \"quick\", \"sizes\": \"8K\", \"writes\": 4}' > '$SHARED/quick'
  cp '$SHARED/quick' '$SHARED/quick.json'
  ln -s '$WORK/root-file' '$SHARED/.alignbench-4194301-deadbeef'
  mkfifo '$SHARED/.alignbench-4194302-cafebabe'
  echo mine > '$SHARED/.alignbench-4194303-0000c0de'"
# nobody's files: each one's type, size, time, link target and bytes.
theirs() {
  find "$SHARED" -user nobody -printf '%p %y %s %T@ %l\n' | sort
  find "$SHARED" -user nobody -type f -exec md5sum {} + | sort
}
before=$(theirs)
PATH_ROOT=".:$SHARED/bin:$PATH"

(cd "$SHARED" && PATH=$PATH_ROOT "$ALIGNBENCH" --case quick --repetitions 2 --dir "$SHARED" \
  --out "$WORK/shared.json") > "$WORK/run.out" 2> "$WORK/run.err"
check "a run in the shared directory: exit 0 ($(tail -n 1 "$WORK/run.err"))" [ $? -eq 0 ]
check "the shipped case ran, not nobody's file called quick" \
  json_check "$WORK/shared.json" \
  '[p["size_bytes"] for p in a["pairs"]] == [65536, 4096, 1024]'
check "nobody's test-file names are left in place, each said" \
  [ "$(grep -c 'left .*/.alignbench-419430[123]-.* in place' "$WORK/run.err")" -eq 3 ]
(cd "$SHARED" && PATH=$PATH_ROOT "$ALIGNBENCH" env "$SHARED") > "$WORK/env.out" 2>&1
check "env in the shared directory: exit 0" [ $? -eq 0 ]
cat > "$WORK/writer.py" << 'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
for i in range(3):
    os.pwrite(fd, b"r" * 4096, i * 4096)
    os.fsync(fd)
EOF
(cd "$SHARED" && PATH=$PATH_ROOT "$ALIGNBENCH" record --file "$WORK/log" --out "$WORK/t.json" \
  -- "$PY" "$WORK/writer.py" "$WORK/log") > "$WORK/record.out" 2>&1
check "record with nobody's strace and dpkg-query on PATH: exit 0 ($(tail -n 1 "$WORK/record.out"))" \
  grep -q 'trace saved to' "$WORK/record.out"
check "record: Debian's own dpkg-query named the package" \
  grep -q 'Debian package of' "$WORK/record.out"
(cd "$SHARED" && PATH=$PATH_ROOT ALIGNBENCH=$ALIGNBENCH "$ALIGNBENCH_SOURCE_DIR/scripts/derby" \
  "$SHARED" --case quick --repetitions 2 --out "$WORK/derby.json") > "$WORK/derby.out" 2>&1
check "scripts/derby in the shared directory: exit 0 ($(tail -n 1 "$WORK/derby.out"))" [ $? -eq 0 ]
(cd "$SHARED" && PATH=$PATH_ROOT "$ALIGNBENCH_SOURCE_DIR/scripts/derby" "$SHARED/missing" \
  --out "$WORK/none.json") > "$WORK/derby-usage.out" 2>&1
check "scripts/derby's usage error in the shared directory: exit 1" [ $? -eq 1 ]
if "$PY" -c 'import matplotlib' 2> /dev/null; then
  (cd "$SHARED" && PATH=$PATH_ROOT "$PY" "$ALIGNBENCH_SOURCE_DIR/scripts/plot" "$WORK/shared.json" \
    --out "$WORK/plot") > "$WORK/plot.out" 2>&1
  check "scripts/plot in the shared directory: exit 0 ($(tail -n 1 "$WORK/plot.out"))" [ $? -eq 0 ]
else
  echo "SKIP (part): scripts/plot: python3-matplotlib missing" >&2
fi
check "the shared directory: nothing of nobody's ran" untouched
check "the shared directory: nobody's files as they were" \
  [ "$(theirs)" = "$before" ]
check "the file nobody's symlink points at: unchanged" grep -qx precious "$WORK/root-file"
check "the shared directory: no test file of root's left" \
  [ "$(find "$SHARED" -maxdepth 1 -name '.alignbench-*' -user root | wc -l)" -eq 0 ]

if [ -c /dev/fuse ] && [ -x /usr/sbin/sshd ] && command -v sshfs > /dev/null &&
  unshare --net true 2> /dev/null; then
  sshfs_part
else
  echo "SKIP (part): sshfs: no /dev/fuse, sshd, sshfs or network namespace here" >&2
fi
check "nothing of nobody's ran" untouched
finish
