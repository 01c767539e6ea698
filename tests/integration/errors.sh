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
