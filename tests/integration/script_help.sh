# Every script in scripts/ is safe to try: with --help it prints its usage and exits 0, and
# with an option it does not know it prints its usage line and exits 1; either way before
# it installs, builds, mounts or writes anything. apt-get, dpkg, losetup, mount, cmake and
# their kind are replaced on PATH by stubs that record any call; none may be called, and
# the source tree, the mounts and the loop devices must be as before.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR

stubs=$WORK/stubs
mkdir -p "$stubs"
for tool in apt-get apt dpkg dpkg-query dpkg-deb debootstrap losetup mount umount mkfs \
  mkfs.ext4 mkfs.ext2 mkfs.xfs cmake cpack ctest make sudo chroot ansible-playbook fio \
  hdparm; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$tool" "$WORK" > "$stubs/$tool"
  chmod +x "$stubs/$tool"
done

# The tree without the build directories (ctest writes its log there meanwhile).
tree_state() {
  (cd "$SRC" && find . \( -path './build*' -o -path ./.git \) -prune -o -printf '%p %s %T@\n' |
    sort)
}
system_state() {
  cat /proc/self/mounts
  cat /sys/block/loop*/loop/backing_file 2> /dev/null || true
}
tree_state > "$WORK/tree.before"
system_state > "$WORK/system.before"

# Every executable, and every Python helper that runs as a program (it must be executable
# to be run as the others are).
scripts=$(cd "$SRC" && { find scripts -type f -perm -u+x
  grep -l '^if __name__ == "__main__":' scripts/lib/*.py; } | sort -u)
check "scripts found" [ -n "$scripts" ]

# The argument each script must refuse as not its own. scripts/derby's options all go to
# alignbench, which refuses an unknown one itself; what derby refuses is a DIR that is not
# there.
bad_args() {
  case $1 in
    scripts/derby) echo /no/such/dir ;;
    scripts/loop-rig) echo create --no-such-option ;;
    *) echo --no-such-option ;;
  esac
}
for script in $scripts; do
  rm -f "$WORK/calls"
  out=$(cd "$WORK" && env -u ALIGNBENCH PATH="$stubs:$PATH" "$SRC/$script" --help 2> "$WORK/err")
  status=$?
  check "$script --help: exit 0 (got $status)" [ "$status" -eq 0 ]
  check "$script --help: its usage on stdout" [ "$(printf '%s\n' "$out" | wc -l)" -ge 3 ]
  check "$script --help: nothing called ($(cat "$WORK/calls" 2> /dev/null))" \
    [ ! -e "$WORK/calls" ]

  want=1
  # shellcheck disable=SC2046  # bad_args is words on purpose
  (cd "$WORK" && env -u ALIGNBENCH PATH="$stubs:$PATH" "$SRC/$script" $(bad_args "$script") \
    > "$WORK/out" 2> "$WORK/err")
  status=$?
  check "$script $(bad_args "$script"): exit $want (got $status)" [ "$status" -eq "$want" ]
  check "$script $(bad_args "$script"): the usage line on stderr" grep -qi 'usage' "$WORK/err"
  check "$script $(bad_args "$script"): nothing called ($(cat "$WORK/calls" 2> /dev/null))" \
    [ ! -e "$WORK/calls" ]
done

# A bad operand of the scripts that build, make a rig and keep results: refused before any
# of it, with nothing left behind in results/runs/.
for bad in "scripts/aa-check $WORK abc" "scripts/aa-check $WORK/none 2" "scripts/power-check abc" \
  "scripts/power-check --busy fast 2" "scripts/answer-check $WORK 0" "scripts/aa-check --busy x"; do
  rm -f "$WORK/calls"
  # shellcheck disable=SC2086  # the words of $bad on purpose
  (cd "$WORK" && env -u ALIGNBENCH PATH="$stubs:$PATH" "$SRC"/$bad > /dev/null 2> "$WORK/err")
  status=$?
  check "$bad: exit 1 (got $status)" [ "$status" -eq 1 ]
  check "$bad: says why, then the usage line" grep -q '^usage: ' "$WORK/err"
  check "$bad: nothing called ($(cat "$WORK/calls" 2> /dev/null))" [ ! -e "$WORK/calls" ]
done

tree_state > "$WORK/tree.after"
system_state > "$WORK/system.after"
check "the source tree is unchanged: $(diff "$WORK/tree.before" "$WORK/tree.after" | head -5)" \
  cmp -s "$WORK/tree.before" "$WORK/tree.after"
check "mounts and loop devices are unchanged" cmp -s "$WORK/system.before" "$WORK/system.after"
finish
