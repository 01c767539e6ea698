# Every line alignbench prints that names a path or a name escapes it: one hostile name
# (ESC with a terminal command, a newline, a carriage return, the C1 control CSI, the
# bidi override U+202E and a byte that is not UTF-8) put through every subcommand that
# echoes one: a run (its header, progress, "result saved to", its table in every format),
# env, show, compare, record (the trace, its case file or the line saying there is none),
# a replay of that trace, and the errors of a missing --dir, --case, --out and operand.
# No output may hold a raw control character (but the newline that ends a line), a C1 or
# bidi control or a byte outside UTF-8; the escaped name must be there instead.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (Debian package strace): record cannot run"

BAD=$HOSTILE SHOWN=$HOSTILE_SHOWN
D="$WORK/$BAD"
mkdir "$D"

# out NAME ARGS...: alignbench ARGS, its stdout and stderr each held to clean(); returns
# its exit status.
out() {
  local name=$1 status=0
  shift
  "$ALIGNBENCH" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" < /dev/null || status=$?
  check "$name: stdout clean" clean "$WORK/$name.out"
  check "$name: stderr clean" clean "$WORK/$name.err"
  return "$status"
}
shows() { grep -qF -- "$SHOWN" "$WORK/$1.out" "$WORK/$1.err"; }

out run --case quick --dir "$D" --out "$D/r.json"
check "run: exit 0" [ $? -eq 0 ]
check "run: the name escaped" shows run
for format in markdown csv derby ioping; do
  out "run-$format" --case quick --dir "$D" --sizes 4K --repetitions 2 --format "$format" \
    --out "$D/$format.json"
  check "run --format $format: the name escaped" shows "run-$format"
done
out env env "$D"
check "env: the name escaped" shows env
out show show "$D/r.json"
# A result file holds UTF-8 only: the stray byte was saved as U+FFFD.
check "show: the name escaped" grep -qF -- "${SHOWN%\\x9by}"$'\xef\xbf\xbdy' "$WORK/show.out"
out compare compare "$D/r.json" "$D/r.json"
check "compare: exit 0" [ $? -eq 0 ]

# A writer of COUNT synced appends to FILE, of the SIZEs given in turn.
cat > "$WORK/writer.py" << 'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
for i in range(int(sys.argv[2])):
    os.write(fd, b"c" * int(sys.argv[3 + i % (len(sys.argv) - 3)]))
    os.fsync(fd)
EOF
# Equal commits fit a case (a case file is saved beside the trace); unequal ones do not.
out record record --file "$D/log" --out "$D/t.json" -- "$PY" "$WORK/writer.py" "$D/log" 4 4096
check "record: exit 0" [ $? -eq 0 ]
check "record: the trace's path escaped" grep -qF "trace saved to $WORK/$SHOWN/t.json" "$WORK/record.out"
check "record: the case file's path escaped" grep -qF "case file saved to $WORK/$SHOWN/t.case.json" "$WORK/record.out"
rm -f "$D/log"
out record-odd record --file "$D/log" --out "$D/odd.json" -- "$PY" "$WORK/writer.py" "$D/log" 4 100 300
check "record: the no-case line escapes the path" \
  grep -qF -- "no case file: the commits fit no case's rules (alignbench --replay $WORK/$SHOWN/odd.json" \
  "$WORK/record-odd.out"
out replay --replay "$D/t.json" --dir "$D" --repetitions 2 --out "$D/replay.json"
check "replay: exit 0" [ $? -eq 0 ]

out no-dir --case quick --dir "$D/missing"
check "a missing --dir: the name escaped" shows no-dir
out no-case --case "$D/missing.json" --dir "$D"
check "a missing case file: the name escaped" shows no-case
out taken-out --case quick --dir "$D" --out "$D/r.json"
check "an --out that exists: the name escaped" shows taken-out
out no-show show "$D/missing.json"
check "show of a missing file: the name escaped" shows no-show
out record-missing record --out "$D/x.json" -- "$D/no-such-program"
check "record of a missing program: the name escaped" shows record-missing
check "no test file left" no_leftovers "$D"
finish
