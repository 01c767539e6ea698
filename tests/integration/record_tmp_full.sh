# alignbench record where $TMPDIR, which holds strace's raw output, fills up while the
# program runs: the recording is refused as cut short, with what to do, and nothing is
# saved as if it were the whole (before, 2,023 of 20,000 commits were saved with exit 0).
# Root: a 256 KiB tmpfs as TMPDIR, unmounted on every exit path.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (scripts/lib/common.sh installs it)"
[ "$(id -u)" -eq 0 ] || skip "needs root: mounts a small tmpfs as TMPDIR"
mkdir "$WORK/tmp" "$WORK/log"
mount -t tmpfs -o size=256k alignbench-test "$WORK/tmp" ||
  skip "cannot mount a tmpfs here"
cleanup_hooks=("umount '$WORK/tmp'" "${cleanup_hooks[@]}")

# 3000 appends, each fsync'd: about 400 KiB of strace output, more than the tmpfs holds.
cat > "$WORK/appender.py" << 'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
for _ in range(3000):
    os.write(fd, b"x" * 40)
    os.fsync(fd)
EOF
TMPDIR=$WORK/tmp "$ALIGNBENCH" record --file "$WORK/log/log" --out "$WORK/t.json" -- \
  "$PY" "$WORK/appender.py" "$WORK/log/log" > "$WORK/out" 2> "$WORK/err"
status=$?
check "TMPDIR full: record fails (exit $status)" [ "$status" -ne 0 ]
check "TMPDIR full: no trace saved" [ ! -e "$WORK/t.json" ]
check "TMPDIR full: said, with what to do" \
  grep -q "was cut short (its filesystem is full).*set TMPDIR to a directory on a filesystem with room" \
  "$WORK/err"
check "TMPDIR full: strace's output and its directory removed" \
  [ -z "$(ls -A "$WORK/tmp")" ]
[ "$failed" -eq 0 ] || cat "$WORK/err" >&2

# A TMPDIR another user may write (theirs, or one they were given): strace opens its
# output by name, so they could swap it for a link to a file of root's; record passes
# over that TMPDIR and leaves nothing in it.
if id nobody > /dev/null 2>&1; then
  mkdir -m 1777 "$WORK/theirs"
  mkdir -m 777 "$WORK/theirs/tmp"
  chown nobody "$WORK/theirs/tmp"
  # The program looks into that TMPDIR while it is traced, then writes its log.
  # shellcheck disable=SC2016  # the traced sh's own $TMPDIR and arguments
  TMPDIR=$WORK/theirs/tmp "$ALIGNBENCH" record --file "$WORK/log/log" \
    --out "$WORK/t2.json" -- /bin/sh -c 'ls -A "$TMPDIR" > "$1"; exec "$2" "$3" "$4"' \
    _ "$WORK/seen" "$PY" "$WORK/appender.py" "$WORK/log/log" > "$WORK/out" 2> "$WORK/err"
  status=$?
  check "another user's TMPDIR: recorded all the same (exit $status)" [ -s "$WORK/t2.json" ]
  check "another user's TMPDIR: nothing of record's in it while tracing ($(cat "$WORK/seen" 2> /dev/null))" \
    test -f "$WORK/seen" -a ! -s "$WORK/seen"
else
  echo "SKIP (part): no user nobody to own a TMPDIR" >&2
fi

# The same with room: recorded whole.
"$ALIGNBENCH" record --file "$WORK/log/log" --out "$WORK/t.json" -- \
  "$PY" "$WORK/appender.py" "$WORK/log/log" > "$WORK/out" 2> "$WORK/err"
status=$?
check "TMPDIR with room: exit 0 (got $status), 3000 commits" \
  "$PY" -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))["commits"]) != 3000)' \
  "$WORK/t.json"
finish
