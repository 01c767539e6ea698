# Untrusted input: a huge case or result file is refused unread, a
# --dir beyond PATH_MAX says so, compare of two large results is not quadratic, and no
# control character from a result file or a directory name reaches the terminal.
source "$(dirname "$0")/lib.sh"

# A stuck run is cut off at 20 s. AddressSanitizer makes reading 30,000 pairs about 13
# times slower (compare of two such files: 1.9 s, and 26 s sanitized, on this project's
# machine), so a sanitized binary gets 120 s; the quadratic check below is a ratio and
# holds in both.
LIMIT=20
[ -n "${ALIGNBENCH_SANITIZED:-}" ] && LIMIT=120
run() {  # run NAME alignbench-args...: exit status in $status, stderr in $WORK/NAME.err
  local name=$1
  shift
  timeout "$LIMIT" "$ALIGNBENCH" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"
  status=$?
}

truncate -s 2M "$WORK/huge-case.json"
run huge-case --case "$WORK/huge-case.json" --dir "$WORK"
check "2 MiB case file: usage exit 1 (got $status)" [ "$status" -eq 1 ]
check "2 MiB case file: refused with the bound" \
  grep -q "^alignbench: error: read case file $WORK/huge-case.json: 2097152 bytes is too large; at most 1048576 bytes are read" "$WORK/huge-case.err"

truncate -s 65M "$WORK/huge-result.json"
run huge-result show "$WORK/huge-result.json"
check "65 MiB result file: usage exit 1 (got $status)" [ "$status" -eq 1 ]
check "65 MiB result file: refused with the bound" \
  grep -q "^alignbench: error: read result file $WORK/huge-result.json: 68157440 bytes is too large; at most 67108864 bytes are read" "$WORK/huge-result.err"

mkfifo "$WORK/fifo"
run fifo --case "$WORK/fifo" --dir "$WORK"
check "a FIFO as case file: refused without waiting for a writer (exit $status)" [ "$status" -eq 1 ]

long=$WORK/$(printf 'd%.0s' $(seq 4100))
run long-dir --dir "$long" --sizes 4K --writes 8 --repetitions 2
check "--dir of 4100+ bytes: usage exit 1 (got $status)" [ "$status" -eq 1 ]
check "--dir of 4100+ bytes: says it is too long" \
  grep -Eq "^alignbench: error: option --dir: is [0-9]+ bytes long; at most [0-9]+ leave room for the test file's name \(PATH_MAX\)" "$WORK/long-dir.err"

# 30,000 distinct pairs in each file. Matching by a scan of NEW was quadratic: compare took
# about 5 times as long as show of one file; loading two files is about twice as long.
"$PY" - "$ALIGNBENCH_SOURCE_DIR/tests/cli/fixtures/result-good.json" "$WORK/many.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pair = doc["alignbench"]["pairs"][0]
doc["alignbench"]["pairs"] = [dict(pair, size_bytes=i + 1) for i in range(30000)]
json.dump(doc, open(sys.argv[2], "w"))
PY
elapsed_ms() {  # elapsed_ms NAME alignbench-args...: run it, its wall time in $ms
  local start
  start=$(date +%s%N)
  run "$@"
  ms=$((($(date +%s%N) - start) / 1000000))
}
elapsed_ms show-many show "$WORK/many.json"
show_ms=$ms
elapsed_ms many compare "$WORK/many.json" "$WORK/many.json"
check "compare of 2 x 30,000 pairs: exit 0 (got $status)" [ "$status" -eq 0 ]
check "compare of 2 x 30,000 pairs: every pair matched" \
  [ "$(grep -c '| no interval: cannot tell$' "$WORK/many.out")" -eq 30000 ]
check "compare of 2 x 30,000 pairs: under 3 x show of one ($ms ms, show $show_ms ms)" \
  [ "$((ms * 10))" -lt "$((show_ms * 30))" ]
# A trace of many small commits (600,000 in 64 MiB: inside the trace's bounds; 150,000 and
# 600,000 sanitized, a quarter of each) replayed for 3 writes: reading it is linear. The
# parser's duplicate-key check with a callback looked through every commit before at the
# end of each one: 64 s for 600,000 on this project's machine, 3.7 s now.
trace_of() {  # trace_of N FILE: a trace of N commits of 100 bytes and an fdatasync
  "$PY" - "$1" "$2" <<'PY'
import json, sys
n = int(sys.argv[1])
commits = [{"ops": [{"op": "write", "file": 0, "offset": i * 100, "length": 100},
                    {"op": "sync", "file": 0, "call": "fdatasync"}]} for i in range(n)]
json.dump({"schema": "alignbench-trace", "version": 1,
           "program": {"argv": ["writer"], "version": "unknown"}, "recorder": "strace",
           "commit_rule": "a commit ends at each sync",
           "files": [{"path": "/log", "flags": ["O_WRONLY", "O_CREAT"], "state": "new",
                      "size_at_open": 0}],
           "header": None, "commits": commits, "after_last_commit": [], "limits": []},
          open(sys.argv[2], "w"), separators=(",", ":"))
PY
}
big=600000
[ -n "${ALIGNBENCH_SANITIZED:-}" ] && big=150000
mkdir "$WORK/replays"
trace_of $((big / 4)) "$WORK/quarter.json"
trace_of "$big" "$WORK/whole.json"
elapsed_ms replay-quarter --replay "$WORK/quarter.json" --writes 3 --repetitions 2 \
  --dir "$WORK/replays" --out "$WORK/quarter-result.json"
quarter_ms=$ms
elapsed_ms replay-whole --replay "$WORK/whole.json" --writes 3 --repetitions 2 \
  --dir "$WORK/replays" --out "$WORK/whole-result.json"
check "--replay of $big commits for 3 writes: exit 0 within $LIMIT s (got $status)" [ "$status" -eq 0 ]
check "--replay of $big commits: under 8 x the time of a quarter ($ms ms, a quarter $quarter_ms ms)" \
  [ "$ms" -lt "$((quarter_ms * 8))" ]
# ESC, CR, BEL and a newline in a result file's strings: escaped by show and compare.
"$PY" - "$ALIGNBENCH_SOURCE_DIR/tests/cli/fixtures/result-good.json" "$WORK/hostile.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
a = doc["alignbench"]
a["settings"]["case"] = {"name": "x\x1b]0;owned\x07\ry", "description": "", "expect": ""}
a["warnings"] = ["w\nerror: forged line\x7f"]
a["environment"]["target"]["dir"] = "/d\x1b[2J"
json.dump(doc, open(sys.argv[2], "w"))
PY
no_control() {  # no C0 control but newline, no DEL, in the file
  ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1"
}
run show-hostile show "$WORK/hostile.json"
check "show of control characters: exit 0 (got $status)" [ "$status" -eq 0 ]
check "show: no control character on stdout" no_control "$WORK/show-hostile.out"
check "show: a newline in a string cannot forge a line" \
  grep -qF 'warning: w\nerror: forged line\x7f' "$WORK/show-hostile.out"
run compare-hostile compare "$WORK/hostile.json" "$WORK/hostile.json"
check "compare: no control character on stdout" no_control "$WORK/compare-hostile.out"
mkdir "$WORK/e"$'\x1b'"[2J"$'\r'
run env-hostile env "$WORK/e"$'\x1b'"[2J"$'\r'
check "env: no control character on stdout" no_control "$WORK/env-hostile.out"
check "env: the name escaped in the header" grep -qF 'e\x1b[2J\r (' "$WORK/env-hostile.out"
# A newline in --dir cannot split the run's header or forge one.
nl_dir="$WORK/n
--- forged (ext4 sda) ---"
mkdir "$nl_dir"
run nl-dir --dir "$nl_dir" --sizes 4K --writes 8 --repetitions 2
check "--dir with a newline: exit 0 (got $status)" [ "$status" -eq 0 ]
check "--dir with a newline: one header line" [ "$(grep -c '^--- ' "$WORK/nl-dir.err")" -eq 1 ]
check "--dir with a newline: the name escaped" \
  grep -qF -- "--- $WORK/n\n--- forged (ext4 sda) --- (" "$WORK/nl-dir.err"
check "--dir with a newline: no .alignbench-* left" no_leftovers "$nl_dir"
finish
