# Every error line names an operation and says what to do: where memory runs
# out (ulimit -v) and where the working directory, the default --dir, was
# deleted while alignbench was started in it.
source "$(dirname "$0")/lib.sh"

# A deleted working directory: the default --dir . cannot take a test file.
mkdir "$WORK/gone"
(cd "$WORK/gone" && rmdir "$WORK/gone" &&
  exec "$ALIGNBENCH" --sizes 4K --writes 2 --repetitions 2) > /dev/null 2> "$WORK/err"
status=$?
check "deleted cwd: exit 2 (got $status)" [ "$status" -eq 2 ]
check "deleted cwd: an operation, ENOENT and a hint: $(cat "$WORK/err")" \
  grep -qE "^alignbench: error: create test file \./\.alignbench-.*\(ENOENT\); the directory does not exist, or was deleted" "$WORK/err"

# A memory limit: AddressSanitizer reserves terabytes of address space, so
# under it no ulimit -v can be set at all.
if [ -n "${ALIGNBENCH_SANITIZED:-}" ]; then
  echo "SKIP (part): ulimit -v cannot be used under AddressSanitizer (ALIGNBENCH_SANITIZED=1)" >&2
else
  mkdir "$WORK/target"
  (ulimit -v 400000 &&
    exec "$ALIGNBENCH" --dir "$WORK/target" --sizes 512M --writes 1 --repetitions 2) \
    > /dev/null 2> "$WORK/err"
  status=$?
  check "ulimit -v: exit 2 (got $status)" [ "$status" -eq 2 ]
  check "ulimit -v: no 'internal error': $(cat "$WORK/err")" \
    bash -c "! grep -q 'internal error' '$WORK/err'"
  check "ulimit -v: says out of memory, for what and what to do" \
    grep -qE "^alignbench: error: allocate .*; out of memory: raise the limit .* or use smaller --sizes" "$WORK/err"
  check "ulimit -v: no test file left" no_leftovers "$WORK/target"
fi

# A limit on threads (ulimit -u: root is exempt from it, so as root the run is nobody's):
# --writers cannot start its threads. That is the machine's refusal, before anything is
# timed: exit 2 with what to raise, never 3, "an I/O error", which blames the disk.
threads_limited() {
  local dir=$WORK/limited
  mkdir -m 1777 "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    id nobody > /dev/null 2>&1 || return 77
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
      bash -c 'ulimit -u 1 && exec "$@"' _ "$(for_nobody "$ALIGNBENCH")" --dir "$dir" --writers 4 \
      --sizes 4K --writes 8 --repetitions 2
  else
    (ulimit -u 1 && exec "$ALIGNBENCH" --dir "$dir" --writers 4 --sizes 4K --writes 8 \
      --repetitions 2)
  fi
}
# Under AddressSanitizer the limit would meet its own threads first: the errno is the
# plain build's to hold.
if [ -n "${ALIGNBENCH_SANITIZED:-}" ]; then
  status=78
else
  threads_limited > /dev/null 2> "$WORK/err"
  status=$?
fi
if [ "$status" -eq 78 ]; then
  echo "SKIP (part): ulimit -u is checked in the plain build, not under the sanitizers" >&2
elif [ "$status" -eq 77 ]; then
  echo "SKIP (part): as root the thread limit needs the user nobody" >&2
else
  check "ulimit -u: exit 2 (got $status): $(head -c 300 "$WORK/err")" [ "$status" -eq 2 ]
  check "ulimit -u: the threads, EAGAIN and what to raise" \
    grep -qE "^alignbench: error: start 4 writer threads.*\(EAGAIN\); no more threads may be started \(ulimit -u" \
    "$WORK/err"
fi

# env --format json with C1 and bidirectional controls in the directory's name: they reach
# the terminal as \u escapes, never raw (a raw U+202E reorders what the terminal shows).
odd="$WORK/$(printf 'a\xe2\x80\xaeb\xc2\x85c')"
mkdir "$odd"
"$ALIGNBENCH" env --format json "$odd" > "$WORK/env.json" 2> /dev/null
check "env json: the bidi control escaped" grep -q 'a\\u202eb' "$WORK/env.json"
check "env json: no raw U+202E or U+0085" \
  bash -c "! LC_ALL=C grep -q \$'\\xe2\\x80\\xae\\|\\xc2\\x85' '$WORK/env.json'"
check "env json: still JSON" "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$WORK/env.json"
finish
