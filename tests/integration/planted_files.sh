# Another user (nobody) plants files, links and FIFOs where root's scripts look, and
# re-points links of theirs; then root runs the scripts (docs/safety.md, "Another user on
# the machine"). Nothing of theirs may be read in place of root's, run, written through or
# waited on:
# 1. loop-rig list and netfs-rig list in a TMPDIR anyone may write: look-alike rigs of
#    nobody's (a 200 GB sparse rig.env, one that links to a file of root's, one whose
#    last line is not KEY=VALUE) are skipped with a warning and never read; root's own
#    rigs are all listed, one with a malformed line too, that line skipped and named.
# 2. PATH: an entry of nobody's that links to /usr/bin when a script judges it and to
#    their own programs after (common.sh sourced, then awk; loop-rig create, then its
#    mktemp, mkfs.ext4, mount...): none of their programs runs as root.
# 3. cache-matrix on a loop rig: in /run/lock, which anyone may write, a planted state
#    file "restored" first, links at the lock and at the state's temporary file, a lock
#    nobody holds, a FIFO, a state naming hdparm; and CACHE_MATRIX_LOCK_DIR in a directory
#    anyone may write, as a link and with mode 0755. Each run ends with the rig's true
#    setting, and nothing of nobody's or root's changed; each bad state directory is
#    refused in one line that names it.
# Where fs.protected_symlinks or fs.protected_regular is 1 the kernel also refuses some
# of the links and FIFOs; the checks hold either way.
# shellcheck disable=SC2016  # the sh -c programs below expand their own arguments
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to act beside an unprivileged user (CI runs as root)"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
command -v setpriv > /dev/null || skip "setpriv missing (Debian package util-linux)"
id nobody > /dev/null 2>&1 || skip "no user nobody to play the neighbour"
S=$ALIGNBENCH_SOURCE_DIR/scripts
export ALIGNBENCH  # cache-matrix runs the binary under test
chmod 755 "$WORK"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
EVIL=$WORK/evil PWNED=$WORK/evil/pwned-by-root
mkdir -m 777 "$EVIL"
untouched() { [ ! -e "$PWNED" ] || { echo "    ran: $(sort -u "$PWNED" | tr '\n' ' ')" >&2; return 1; }; }
# root's files, which links of nobody's name
for f in secret lock-target state-target; do echo "precious $f" > "$WORK/root-$f"; done
precious() { grep -qx "precious $1" "$WORK/root-$1"; }
# theirs DIR PATTERN: nobody's files there, each one's type, size, time, link and bytes.
theirs() {
  find "$1" -maxdepth 2 -user nobody -name "$2" -printf '%p %y %s %T@ %l\n' | sort
  find "$1" -maxdepth 2 -user nobody -name "$2" -type f -exec md5sum {} + | sort
}

# --- 1. list ---------------------------------------------------------------------------------
TMPD=$WORK/tmp
mkdir -m 1777 "$TMPD"
# root_rig NAME LINE...: a rig directory as root's scripts leave it (not mounted).
root_rig() { mkdir "$TMPD/$1" && printf '%s\n' "${@:2}" > "$TMPD/$1/rig.env"; }
# plant KIND: nobody's look-alikes of KIND (rig or netfs), sorted before root's.
plant() {
  as_nobody sh -c '
    mkdir "$1/alignbench-$2.0-sparse" "$1/alignbench-$2.1-link" "$1/alignbench-$2.2-bad"
    truncate -s 200G "$1/alignbench-$2.0-sparse/rig.env"
    ln -s "$3" "$1/alignbench-$2.1-link/rig.env"
    printf "MOUNT=/nobody/mnt\nnot a key value" > "$1/alignbench-$2.2-bad/rig.env"' \
    _ "$TMPD" "$1" "$WORK/root-secret"
}
echo "MOUNT=/root-secret" >> "$WORK/root-secret"
# listed SCRIPT KIND LINES...: SCRIPT list ends within 30 s, exit 0, prints exactly LINES,
# warns of each of nobody's three and of root's malformed line.
listed() {
  local script=$1 kind=$2 rc=0 warned
  shift 2
  timeout 30 env TMPDIR="$TMPD" "$S/$script" list > "$WORK/$script.out" 2> "$WORK/$script.err" ||
    rc=$?
  check "$script list: exit 0 within 30 s (got $rc)" [ "$rc" -eq 0 ]
  check "$script list: root's rigs, and only those ($(tr '\t\n' ' ;' < "$WORK/$script.out"))" \
    [ "$(cat "$WORK/$script.out")" = "$(printf '%s\n' "$@")" ]
  warned="^$script: warning: not listed: $TMPD/alignbench-$kind\.[0-2]-[a-z]*: owned by nobody"
  warned=$(grep -c "$warned" "$WORK/$script.err")
  check "$script list: a warning for each of nobody's ($warned of 3)" [ "$warned" -eq 3 ]
  check "$script list: the malformed line of root's rig.env named" \
    grep -q "^$script: warning: skipped 1 line(s) of $TMPD/alignbench-$kind\.root-a/rig.env" \
    "$WORK/$script.err"
}
plant rig
root_rig alignbench-rig.root-a "MOUNT=/a/mnt" "DEVICE=" "FS=ext4" "SECTOR=4096" "garbage"
root_rig alignbench-rig.root-z "MOUNT=/z/mnt" "FS=xfs" "SECTOR=512"
listed loop-rig rig $'/a/mnt\t-\text4\t4096\tunmounted,detached' \
  $'/z/mnt\t-\txfs\t512\tunmounted,detached'
plant netfs
root_rig alignbench-netfs.root-a "MOUNT=/a/mnt" "ADDR=198.19.0.1" "FSYNC=on" "garbage"
root_rig alignbench-netfs.root-z "MOUNT=/z/mnt" "ADDR=198.19.0.5" "FSYNC=off"
listed netfs-rig netfs $'/a/mnt\t198.19.0.1\tfsync-on\tunmounted,stopped' \
  $'/z/mnt\t198.19.0.5\tfsync-off\tunmounted,stopped'
check "list: root's file behind nobody's link unread" bash -c "! grep -q root-secret '$WORK'/*-rig.out"

# --- 2. PATH ---------------------------------------------------------------------------------
# nobody's programs, each of which notes who ran it and then runs the real one, and links of
# theirs to the system's directories that they re-point to those programs at will.
cat > "$WORK/fake" << EOS
#!/bin/sh
id -un >> $PWNED
for d in /usr/sbin /usr/bin; do [ -x "\$d/\${0##*/}" ] && exec "\$d/\${0##*/}" "\$@"; done
exit 127
EOS
as_nobody sh -c '
  mkdir "$1/fake"
  for p in awk mktemp chmod truncate losetup mkfs.ext4 mkdir mount cat perl; do
    cp "$2" "$1/fake/$p" && chmod 755 "$1/fake/$p"
  done
  ln -s /usr/bin "$1/bin"
  ln -s /usr/sbin "$1/sbin"' _ "$EVIL" "$WORK/fake"
# The hook or command that re-points them, as nobody, with nothing looked up on PATH.
cat > "$WORK/repoint" << EOS
#!/bin/bash
[ "\${2:-start}" = start ] || exit 0
exec /usr/bin/setpriv --reuid=nobody --regid=nogroup --clear-groups \
  /bin/sh -c '/bin/ln -sfn "\$0/fake" "\$0/bin" && /bin/ln -sfn "\$0/fake" "\$0/sbin"' "$EVIL"
EOS
chmod 755 "$WORK/repoint"
point_back() { as_nobody sh -c 'ln -sfn /usr/bin "$1/bin" && ln -sfn /usr/sbin "$1/sbin"' _ "$EVIL"; }

# common.sh, as every script sources it: nobody's entries are kept as the directories they
# named then, once each.
out=$(env PATH="$EVIL/sbin:$EVIL/bin:/usr/sbin:/usr/bin:/sbin:/bin" bash -c \
  'source "$1/lib/common.sh"; printf "%s\n" "$PATH"; "$2"; awk "BEGIN { exit 0 }"' \
  _ "$S" "$WORK/repoint" 2>&1)
want=$(realpath /usr/sbin /usr/bin /sbin /bin | awk '!seen[$0]++' | paste -sd:)
check "common.sh: PATH resolved, once each (got $out, want $want)" [ "$out" = "$want" ]
check "common.sh: nobody's awk did not run after the re-pointing" untouched
rm -f "$PWNED"
point_back

# loop-rig create, re-pointed at its first hook, then mktemp, losetup, mkfs.ext4, mount...
mkdir "$WORK/lr"
cleanup_hooks+=("for r in '$WORK/lr'/alignbench-rig.*; do
  [ -e \"\$r\" ] && '$S/loop-rig' destroy \"\$r\"; done > /dev/null 2>&1")
rc=0
env PATH="$EVIL/sbin:$EVIL/bin:$PATH" ALIGNBENCH_TEST_HOOK="$WORK/repoint" \
  "$S/loop-rig" create --base "$WORK/lr" --size 16M > "$WORK/lr.out" 2> "$WORK/lr.err" || rc=$?
check "loop-rig create: exit 0 (got $rc: $(tail -n 1 "$WORK/lr.err"))" [ "$rc" -eq 0 ]
check "loop-rig create: nobody's programs did not run" untouched
rm -f "$PWNED"
[ "$rc" -ne 0 ] || "$S/loop-rig" destroy "$(cat "$WORK/lr.out")" > /dev/null 2>&1
point_back

# --- 3. cache-matrix -------------------------------------------------------------------------
make_rig --sector 4096 --fs ext4 --size 64M
disk=$(findmnt -no SOURCE "$RIG")
disk=${disk#/dev/}
WC=/sys/block/$disk/queue/write_cache
[ -w "$WC" ] || { echo "FAIL: no write_cache for '$disk' under $RIG" >&2; exit 1; }
OLD=/run/lock/alignbench-cache-matrix-$disk
holder=''
cleanup_hooks=("echo '$(cat "$WC")' > '$WC'" "rm -f '$OLD'.* /run/alignbench/cache-matrix-'$disk'.*"
  '[ -z "$holder" ] || kill "$holder"' "${cleanup_hooks[@]}")
# Not the kernel's default, so that "restoring" the default is caught.
echo "write through" > "$WC"
wc_is() { [ "$(cat "$WC")" = "$1" ]; }
identity=$(cat "/sys/block/$disk/dev" "/sys/block/$disk/loop/backing_file" | tr '\n' ' ')
# a state file of nobody's that names this very device
state_of() { printf 'method=%s\nsetting=write back\nidentity=%s\n' "$1" "$identity"; }
n=0
# matrix WHAT: cache-matrix on the rig, up to 60 s (a FIFO would hang it); sets rc.
matrix() {
  n=$((n + 1))
  rc=0
  timeout 60 "$S/cache-matrix" "$RIG" --out-dir "$WORK/m$n" -- --sizes 4K --writes 8 \
    --repetitions 2 > "$WORK/m$n.out" 2> "$WORK/m$n.err" || rc=$?
  [ "$rc" -eq 0 ] || tail -n 3 "$WORK/m$n.err" | while IFS= read -r l; do echo "    ($1) $l"; done >&2
}
# survives WHAT: after a run beside nobody's files, it measured, and ended as it began.
survives() {
  local before
  before=$(theirs /run/lock "${OLD##*/}.*")
  matrix "$1"
  check "$1: exit 0 within 60 s (got $rc)" [ "$rc" -eq 0 ]
  check "$1: write back measured under write back" json_check "$WORK/m$n/write-back.json" \
    'a["environment"]["target"]["device"]["write_cache"] == "write back"'
  check "$1: the rig's own setting restored, write through" wc_is "write through"
  check "$1: nobody's files as they were" [ "$(theirs /run/lock "${OLD##*/}.*")" = "$before" ]
  rm -f "$OLD".*
}

as_nobody sh -c 'cat > "$1.state"; ln -s "$2/root-lock-target" "$1.lock"
  ln -s "$2/root-state-target" "$1.state.tmp"' _ "$OLD" "$WORK" < <(state_of sysfs)
survives "a planted state, links at the lock and at the state's .tmp"
check "the lock's link: root's file it names unchanged" precious lock-target
check "the state's .tmp link: root's file it names unchanged" precious state-target

# setpriv, bash and sleep are one process, $! (as_nobody, a function, would be a subshell).
as_nobody touch "$OLD.lock"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
  bash -c 'exec 8>> "$1.lock"; flock 8; exec sleep 600' _ "$OLD" &
holder=$!
held() { grep -q ":$(stat -c %i "$OLD.lock") " /proc/locks; }
for _ in $(seq 50); do held && break; sleep 0.1; done
check "nobody holds a lock on their file" held
survives "a lock nobody holds"
kill "$holder"
holder=''

as_nobody mkfifo "$OLD.lock"
survives "a FIFO at the lock"

as_nobody sh -c 'cat > "$1.state"' _ "$OLD" < <(state_of hdparm)
survives "a planted state naming hdparm"

check "/run/alignbench: root's, mode 0700 ($(stat -c '%U %a %F' /run/alignbench))" \
  [ "$(stat -c '%u %a %F' /run/alignbench)" = "0 700 directory" ]
check "no state file left" [ ! -e "/run/alignbench/cache-matrix-$disk.state" ]

# CACHE_MATRIX_LOCK_DIR: in a directory anyone may write, where nobody made it first with
# a state file; a link of root's to that; a directory of root's of mode 0755.
SHARED=$WORK/shared
mkdir -m 1777 "$SHARED"
as_nobody sh -c 'mkdir -m 700 "$1/locks" && cat > "$1/locks/cache-matrix-$2.state"' \
  _ "$SHARED" "$disk" < <(state_of sysfs)
ln -s "$SHARED/locks" "$WORK/link-locks"
mkdir -m 755 "$WORK/open-locks"
# refused DIR WHAT: exit 2 and one line naming DIR and saying WHAT, nothing switched.
refused() {
  local before
  before=$(theirs "$SHARED" '*')
  CACHE_MATRIX_LOCK_DIR=$1 matrix "CACHE_MATRIX_LOCK_DIR=$1"
  check "CACHE_MATRIX_LOCK_DIR=$1: exit 2 (got $rc)" [ "$rc" -eq 2 ]
  check "CACHE_MATRIX_LOCK_DIR=$1: one line, naming it ($(head -c 300 "$WORK/m$n.err"))" \
    bash -c "[ \$(wc -l < '$WORK/m$n.err') -eq 1 ] &&
      grep -qF 'cache-matrix: error: state directory $1: $2' '$WORK/m$n.err'"
  check "CACHE_MATRIX_LOCK_DIR=$1: the rig untouched" wc_is "write through"
  check "CACHE_MATRIX_LOCK_DIR=$1: nobody's files as they were" [ "$(theirs "$SHARED" '*')" = "$before" ]
}
refused "$SHARED/locks" "the directory above it is missing or others may change it"
refused "$WORK/link-locks" "a symbolic link (ELOOP)"
refused "$WORK/open-locks" "of mode 0755"
check "nothing of nobody's ran" untouched
finish
