# The --out contract (docs/safety.md): a new file, or a regular file with
# --force; never a device, FIFO, symbolic link or the case file being run; everything that
# can be refused is refused before measuring; a result that cannot be written at the end
# is kept in a fallback file (exit 4) instead of being lost.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
run() {  # run OUT [options...]: a tiny run with --out OUT; status in $status, stderr in err
  local out=$1
  shift
  "$ALIGNBENCH" --dir "$target" --sizes 4K --writes 2 --repetitions 3 --out "$out" "$@" \
    > "$WORK/stdout" 2> "$WORK/err"
  status=$?
}
refused_before_measuring() {  # refused_before_measuring CODE PATTERN
  [ "$status" -eq "$1" ] || { echo "    exit $status, wanted $1: $(cat "$WORK/err")"; return 1; }
  grep -qE "$2" "$WORK/err" || { echo "    stderr: $(cat "$WORK/err")"; return 1; }
  ! grep -q "^measuring" "$WORK/err" || { echo "    it measured first"; return 1; }
}

mkfifo "$WORK/fifo"
run "$WORK/fifo"
check "a FIFO is refused" refused_before_measuring 2 "fifo.*is not a regular file"
check "the FIFO is still a FIFO" test -p "$WORK/fifo"

ln -s /proc/self/fd/1 "$WORK/link"
run "$WORK/link"
check "a symbolic link is refused" refused_before_measuring 2 "symbolic link"
check "the link is still a link" test -L "$WORK/link"

if [ "$(id -u)" -eq 0 ]; then
  run /dev/null
  check "/dev/null is refused (as root it could have been replaced)" \
    refused_before_measuring 2 "/dev/null.*is not a regular file"
  check "/dev/null is still a character device" test -c /dev/null
else
  echo "note: not root, /dev/null is not writable anyway; that row is covered by the FIFO" >&2
fi

echo "keep me" > "$WORK/old.json"
run "$WORK/old.json"
check "an existing file is refused without --force" refused_before_measuring 2 "exists.*--force"
check "and kept as it was" grep -qx "keep me" "$WORK/old.json"
run "$WORK/old.json" --force
check "--force replaces a regular file (exit $status)" [ "$status" -eq 0 ]
check "with a result" grep -q '"alignbench"' "$WORK/old.json"

cp "$ALIGNBENCH_SOURCE_DIR/cases/quick.json" "$WORK/case.json"
run "$WORK/case.json" --case "$WORK/case.json" --force
check "the case file being run is refused, even with --force" \
  refused_before_measuring 2 "is the case file being run"
check "the case file is unchanged" cmp -s "$WORK/case.json" "$ALIGNBENCH_SOURCE_DIR/cases/quick.json"

run "$WORK/old.json/r.json"
check "a parent that is a regular file: ENOTDIR before measuring" \
  refused_before_measuring 2 "ENOTDIR"
run "$WORK/$(printf 'n%.0s' $(seq 250)).json"
check "a name the temporary suffix makes too long: ENAMETOOLONG before measuring" \
  refused_before_measuring 2 "ENAMETOOLONG"
run ""
check "an empty --out is a usage error" refused_before_measuring 1 "option --out: needs a file name"
run /proc/alignbench.json
check "/proc/x.json is refused before measuring" refused_before_measuring 2 "/proc/alignbench.json"
# A temporary file an earlier process left behind (PID 1 again in a container) is not in
# the way: the temporary name carries a random part.
touch "$WORK/pid1.json.tmp-1" "$WORK/pid1.json.tmp-$$"
run "$WORK/pid1.json"
check "an old temporary file is not in the way (exit $status)" [ "$status" -eq 0 ]
check "no temporary file of ours is left" \
  bash -c "[ \$(ls '$WORK' | grep -c 'pid1.json.tmp-') -eq 2 ]"

# A filesystem that fills between the check and the end: the measurement is kept.
if [ "$(id -u)" -eq 0 ]; then
  small="$WORK/small"
  mkdir "$small"
  if mount -t tmpfs -o size=16k tmpfs "$small"; then
    cleanup_hooks+=("umount '$small'")
    (cd "$WORK" && "$ALIGNBENCH" --dir "$target" --sizes 1K..64K --writes 2 --repetitions 3 \
      --out "$small/r.json" > "$WORK/stdout" 2> "$WORK/err")
    status=$?
    check "a full --out filesystem at the end: exit 4 (got $status)" [ "$status" -eq 4 ]
    check "says where the measurement went, by absolute path" \
      grep -q "kept in $WORK/alignbench-result-[0-9]*-[0-9a-f]\{16\}\.json" "$WORK/err"
    fallback=$(compgen -G "$WORK/alignbench-result-*.json" | head -n 1)
    check "the fallback holds the whole result" \
      "$ALIGNBENCH" show "${fallback:-/nonexistent}" > /dev/null
    check "the table was printed all the same" grep -q "^ *64K |" "$WORK/stdout"
    check "no temporary file left on the full filesystem" \
      bash -c "[ -z \"\$(ls -A '$small')\" ]"
    # An unwritable working directory and a TMPDIR that does not exist: the
    # message names /tmp among the places, so /tmp must be tried too.
    rm -f "$small"/* "$WORK"/alignbench-result-*.json
    mkdir "$WORK/rocwd"
    if mount -t tmpfs -o ro,size=16k tmpfs "$WORK/rocwd"; then
      cleanup_hooks+=("umount '$WORK/rocwd'")
      (cd "$WORK/rocwd" && TMPDIR=/nonexistent-alignbench "$ALIGNBENCH" --dir "$target" \
        --sizes 1K..64K --writes 2 --repetitions 3 --out "$small/r.json" \
        > "$WORK/stdout" 2> "$WORK/err")
      status=$?
      kept=$(grep -o "kept in /tmp/alignbench-result-[0-9]*-[0-9a-f]\{16\}\.json" "$WORK/err" | cut -c9-)
      [ -z "$kept" ] || cleanup_hooks+=("rm -f '$kept'")
      check "cwd and TMPDIR unwritable: exit 4 (got $status)" [ "$status" -eq 4 ]
      check "the fallback went to /tmp: $(grep -m1 error "$WORK/err")" [ -n "$kept" ]
      check "the /tmp fallback holds the whole result" \
        "$ALIGNBENCH" show "${kept:-/nonexistent}" > /dev/null
    else
      echo "FAIL: could not mount a read-only tmpfs" >&2
      failed=$((failed + 1))
    fi
  else
    echo "FAIL: could not mount a small tmpfs" >&2
    failed=$((failed + 1))
  fi
else
  echo "SKIP (part): a full --out filesystem needs root to mount a small tmpfs" >&2
fi
check "no .alignbench-* left in the run directory" no_leftovers "$target"
finish
