# Leftovers are never silent: a run removes the stale test files of dead
# processes in its --dir (one line each) and names the ones it must leave; a test file it
# cannot remove is said on stderr with its errno.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
tiny() { "$ALIGNBENCH" --dir "$target" --sizes 4K --writes 8 --repetitions 2; }
dead=$(bash -c 'echo $$')  # a pid that has just ended
stale=$target/.alignbench-$dead-0badf00d
echo "left by kill -9" > "$stale"
live=$target/.alignbench-$$-0000beef  # this shell is alive
echo "in use" > "$live"
locked=$target/.alignbench-$dead-1234abcd  # pid unseen (another namespace) but locked
echo "in use elsewhere" > "$locked"
exec {lockfd}<"$locked"
flock -x "$lockfd"  # the lock belongs to this shell's open file, held until it is closed
echo "keep" > "$WORK/keep"
ln -s "$WORK/keep" "$target/.alignbench-$dead-5555aaaa"  # a symlink is never followed
echo "not ours" > "$target/.alignbench-notapid"

tiny > "$WORK/a.out" 2> "$WORK/a.err"
status=$?
check "run with stale files: exit 0 (got $status)" [ "$status" -eq 0 ]
check "the dead process's file is removed" [ ! -e "$stale" ]
check "its removal is said, one line" \
  [ "$(grep -cxF "alignbench: removed stale test file $stale (process $dead is gone)" "$WORK/a.err")" -eq 1 ]
check "a live process's file is left" [ -e "$live" ]
check "and named" grep -qxF "alignbench: note: left $live in place: process $$ is running" "$WORK/a.err"
check "a locked file is left" [ -e "$locked" ]
check "and named" grep -qxF "alignbench: note: left $locked in place: another process holds it open and locked" "$WORK/a.err"
check "a symlink is left" [ -L "$target/.alignbench-$dead-5555aaaa" ]
check "its target untouched" grep -qx keep "$WORK/keep"
check "a name that is not ours is not touched" [ -e "$target/.alignbench-notapid" ]
exec {lockfd}<&-
rm -f "$live" "$locked" "$target/.alignbench-$dead-5555aaaa" "$target/.alignbench-notapid"

if [ "$(id -u)" -eq 0 ]; then
  other=$target/.alignbench-$dead-77777777
  echo "nobody's" > "$other"
  chown nobody "$other"
  tiny > /dev/null 2> "$WORK/b.err"
  check "as root, another user's stale file is left" [ -e "$other" ]
  check "and named" grep -qxF "alignbench: note: left $other in place: owned by uid $(id -u nobody)" "$WORK/b.err"
  rm -f "$other"

  # A test file that cannot be removed (the directory made immutable mid-run) is said.
  imm="$WORK/immutable"
  mkdir "$imm"
  if chattr +i "$imm" 2>/dev/null && chattr -i "$imm"; then
    cleanup_hooks+=("chattr -i '$imm' 2>/dev/null")
    "$ALIGNBENCH" --dir "$imm" --sizes 1K --writes 3000 --repetitions 1 --sync fsync \
      > /dev/null 2> "$WORK/c.err" &
    pid=$!
    wait_for_run_file "$imm"
    chattr +i "$imm"
    wait "$pid"
    status=$?
    chattr -i "$imm"
    check "undeletable test file: exit non-zero (got $status)" [ "$status" -ne 0 ]
    check "undeletable test file: one warning naming it and EPERM" \
      [ "$(grep -Ec "^alignbench: warning: could not remove $imm/\.alignbench-[0-9]+-[0-9a-f]{8}: Operation not permitted \(EPERM\); remove it by hand$" "$WORK/c.err")" -eq 1 ]
    rm -f "$imm"/.alignbench-*
  else
    echo "note: chattr +i unsupported under $WORK: the failed-removal check did not run" >&2
  fi
fi
[ "$failed" -eq 0 ] || cat "$WORK/a.err" "$WORK"/c.err >&2
finish
