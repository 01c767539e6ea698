# Root running scripts/test in a clone another user owns (the README's first hour) leaves
# build/ and build-sanitize/ wholly that owner's on every way out: the end of a run with a
# failed tier, a SIGINT while the build runs and a SIGTERM while a tier runs. The owner's
# next scripts/derby then builds in build/, not in a second tree build-USER/ beside it.
# What the tests write there as root (ctest's Testing/, the tiers' logs, a test's output,
# a symbolic link to a file of root's outside the tree) is the owner's afterwards, and
# the file that link names is still root's. A clone of root's stays root's.
# Nothing is built or installed: cmake, ctest and dpkg-query are stand-ins on PATH that
# make, as root, the files the real ones would; the clone is a copy of scripts/test and
# common.sh owned by nobody. It takes a few seconds.
source "$(dirname "$0")/lib.sh"
S=$ALIGNBENCH_SOURCE_DIR/scripts
[ "$(id -u)" -eq 0 ] || skip "needs root: the hand-over is what root does in another user's clone"
owner=nobody
id -u "$owner" > /dev/null 2>&1 || skip "no user $owner to own the clone"
chmod 755 "$WORK"
runuser -u "$owner" -- test -x "$WORK" ||
  skip "$owner cannot reach $WORK (TMPDIR under a private directory?)"

# The stand-ins. BLOCK=cmake or BLOCK=ctest makes that one record its pid and wait, as a
# long build or tier does, until the script's stop ends it.
mkdir -p "$WORK/stubs" "$WORK/pids" "$WORK/tmp"
cat > "$WORK/stubs/cmake" << EOS
#!/bin/bash
if [ "\$1" = --build ]; then
  mkdir -p "\$2/bench" && : > "\$2/bench/alignbench" && : > "\$2/.ninja_log"
else
  while [ "\$1" != -B ]; do shift; done
  mkdir -p "\$2/CMakeFiles" && : > "\$2/CMakeCache.txt"
fi
[ "\${BLOCK:-}" != cmake ] || { echo \$\$ > "$WORK/pids/cmake"; sleep 600 & wait; }
EOS
cat > "$WORK/stubs/ctest" << EOS
#!/bin/bash
mkdir -p Testing/Temporary test-output
echo "\$*" > Testing/Temporary/LastTest.log
: > "test-output/\$2"
ln -sfn "$WORK/outside" test-output/link-out
ln -sfn "$WORK/outside" link-out  # at the top too, where own_build_dir looks
[ "\${BLOCK:-}" != ctest ] || { echo \$\$ > "$WORK/pids/ctest"; sleep 600 & wait; }
[ "\$2" != '^fast\$' ] || exit 8  # a failed tier
EOS
printf '#!/bin/sh\necho "install ok installed"\n' > "$WORK/stubs/dpkg-query"
for tool in apt-get sudo; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$tool" "$WORK" > "$WORK/stubs/$tool"
done
chmod 755 "$WORK/stubs/"*
: > "$WORK/outside"  # root's, outside every clone

# new_clone NAME [USER]: scripts/test and common.sh in a tree of USER's (default the
# owner); sets CLONE.
new_clone() {
  CLONE=$WORK/$1
  mkdir -p "$CLONE/scripts/lib"
  cp "$S/test" "$CLONE/scripts/"
  cp "$S/lib/common.sh" "$CLONE/scripts/lib/"
  chown -R "${2:-$owner}": "$CLONE"
}
# scripts_test NAME ARGS...: the clone's scripts/test as root, in the background as its own
# job (it keeps SIGINT), output in NAME.out/.err; sets PID.
scripts_test() {
  local name=$1
  shift
  set -m
  env PATH="$WORK/stubs:$PATH" TMPDIR="$WORK/tmp" "$CLONE/scripts/test" "$@" \
    > "$WORK/$name.out" 2> "$WORK/$name.err" &
  PID=$!
  set +m
}
# stop_at STAND-IN SIGNAL: once the stand-in waits, SIGNAL to the script; its status.
stop_at() {
  local _
  for _ in $(seq 100); do
    [ -s "$WORK/pids/$1" ] && break
    kill -0 "$PID" 2> /dev/null || break
    sleep 0.1
  done
  kill "-$2" "$PID"
  for _ in $(seq 100); do kill -0 "$PID" 2> /dev/null || break; sleep 0.1; done
  kill -KILL -- "-$PID" 2> /dev/null
  wait "$PID"
}
# said NAME: the script's stderr from the run NAME, on stderr, ending with a newline (a
# stop can cut its line short).
said() { printf '%s\n' "$(< "$WORK/$1.err")" >&2; }
# owners_only DIR: every file in DIR, links themselves included, is the owner's.
owners_only() { [ -d "$1" ] && [ -z "$(find "$1" ! -user "$owner" -print -quit)" ]; }
# picked DIR: as the owner, what own_build_dir picks for DIR; its note in WORK/note.
picked() {
  # shellcheck disable=SC2016  # expanded by the owner's bash
  runuser -u "$owner" -- bash -c 'source "$1/scripts/lib/common.sh" && own_build_dir "$2"' \
    _ "$CLONE" "$1" 2> "$WORK/note"
}
# handed_over WHAT DIR: DIR is wholly the owner's, who builds there; the linked file is not.
handed_over() {
  local got
  check "$1: ${2#"$CLONE"/}/ is wholly $owner's ($(find "$2" ! -user "$owner" | head -3 | tr '\n' ' '))" \
    owners_only "$2"
  got=$(picked "$2")
  check "$1: as $owner, own_build_dir picks ${2#"$CLONE"/}/ (got $got; $(cat "$WORK/note"))" \
    test "$got" = "$2" -a ! -s "$WORK/note"
  check "$1: the file a link in it names is still root's" [ "$(stat -c %U "$WORK/outside")" = root ]
}

# The normal end, with a failed tier: exit 1 after every tier, both trees handed over.
new_clone end
scripts_test end --sanitize --slow
wait "$PID"
status=$?
check "end with a failed tier: exit 1 (got $status)" [ "$status" -eq 1 ]
check "end: every tier ran in build/" test -e "$CLONE/build/ctest-fast.out" \
  -a -e "$CLONE/build/test-output/^slow\$"
handed_over "end" "$CLONE/build"
handed_over "end" "$CLONE/build-sanitize"
[ "$failed" -eq 0 ] || said end

# SIGINT while cmake builds: build() never reaches its own hand-over.
before=$failed
new_clone int
BLOCK=cmake scripts_test int
stop_at cmake INT
status=$?
check "SIGINT in the build: exit 130 (got $status)" [ "$status" -eq 130 ]
handed_over "SIGINT in the build" "$CLONE/build"
[ "$failed" -eq "$before" ] || said int

# SIGTERM while the first tier runs: ctest's files are root's until the stop hands them over.
before=$failed
new_clone term
BLOCK=ctest scripts_test term
stop_at ctest TERM
status=$?
check "SIGTERM in a tier: exit 143 (got $status)" [ "$status" -eq 143 ]
check "SIGTERM in a tier: ctest had written there" [ -e "$CLONE/build/Testing/Temporary/LastTest.log" ]
handed_over "SIGTERM in a tier" "$CLONE/build"
[ "$failed" -eq "$before" ] || said term

# A clone of root's stays root's.
before=$failed
new_clone roots root
scripts_test roots
wait "$PID"
check "a clone of root's: build/ is still wholly root's" \
  test -z "$(find "$CLONE/build" ! -user root -print -quit)" -a -e "$CLONE/build/ctest-package.out"
[ "$failed" -eq "$before" ] || said roots

check "nothing installed ($(cat "$WORK/calls" 2> /dev/null))" [ ! -e "$WORK/calls" ]
finish
