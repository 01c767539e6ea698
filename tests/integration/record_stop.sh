# alignbench record stopped and started the right way, against a real writer under strace:
# 1. `record -- COMMAND` stopped by INT, TERM, HUP, USR1 or PIPE passes the stop on to the
#    command (SIGINT as SIGINT, any other as SIGTERM), saves the trace with the commits
#    made so far, and leaves no strace and no command behind;
# 2. INT, INT, TERM in a row to a command that ignores INT and TERM: the second kills it,
#    the trace is saved all the same;
# 3. `record --pid` says "attached" only once strace traces the process (TracerPid), and
#    a HUP then detaches: the trace is saved and the process runs on, traced by no one;
# 4. --pid of record's own ancestor (this shell) is refused before anything runs;
# 5. SIGINT while record looks the program's package up (a dpkg-query made slow through
#    PATH): one line says nothing was recorded, exit 130, the command never started;
# 6. a command whose first process ends and leaves its writer running: a stop reaches the
#    writer, as SIGTERM, and the trace is saved;
# 7. a stop signal while the trace is being saved abandons the save, and says so.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (scripts/lib/common.sh installs it)"

# A writer of small synced appends, every 20 ms, until it is stopped. IGNORE=1: it ignores
# SIGINT and SIGTERM.
cat > "$WORK/writer.py" << 'EOF'
import os, signal, sys, time
if os.environ.get("IGNORE"):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
while True:
    os.write(fd, b"x" * 100)
    os.fsync(fd)
    time.sleep(0.02)
EOF
commits() {  # commits TRACE: the commits a trace holds, or -1
  "$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["commits"]))' "$1" \
    2> /dev/null || echo -1
}
grown() {  # grown FILE BYTES: up to 10 s until FILE has BYTES
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
ended() {  # ended PID: up to 20 s until PID has ended (and was reaped)
  local i
  for ((i = 0; i < 200; i++)); do
    kill -0 "$1" 2> /dev/null || return 0
    sleep 0.1
  done
  return 1
}
left() { pgrep -f "$1" > /dev/null; }  # left MARK: a process whose command line has MARK

for sig in INT TERM HUP USR1 PIPE; do
  d=$WORK/cmd-$sig
  mkdir "$d"
  "$ALIGNBENCH" record --file "$d/log" --out "$d/t.json" -- "$PY" "$WORK/writer.py" "$d/log" \
    > "$d/out" 2> "$d/err" &
  rec=$!
  grown "$d/log" 1000
  kill -"$sig" "$rec"
  check "record -- COMMAND, SIG$sig: record ends" ended "$rec"
  kill -KILL "$rec" 2> /dev/null
  passed_on=$([ "$sig" = INT ] && echo SIGINT || echo SIGTERM)
  check "SIG$sig: one line says $passed_on is passed on to the command" \
    grep -q "^alignbench record: SIG$sig: stopping: $passed_on passed on to .*python3.* (PID [0-9]*)" "$d/err"
  check "SIG$sig: the trace is saved, with the commits so far ($(commits "$d/t.json"))" \
    [ "$(commits "$d/t.json")" -ge 5 ]
  check "SIG$sig: no writer and no strace left" eval "! left '$d/log'"
  [ "$failed" -eq 0 ] || cat "$d/err" >&2
done

d=$WORK/stubborn
mkdir "$d"
IGNORE=1 "$ALIGNBENCH" record --file "$d/log" --out "$d/t.json" -- "$PY" "$WORK/writer.py" "$d/log" \
  > "$d/out" 2> "$d/err" &
rec=$!
grown "$d/log" 1000
kill -INT "$rec"
sleep 0.3
kill -INT "$rec"
kill -TERM "$rec" 2> /dev/null
check "INT, INT, TERM to a command that ignores INT and TERM: record ends" ended "$rec"
kill -KILL "$rec" 2> /dev/null
check "INT, INT, TERM: the second kills the command, and says so" \
  grep -q "^alignbench record: SIGINT: SIGKILL to .*python3.* and its children; the trace is saved" "$d/err"
check "INT, INT, TERM: the trace is saved ($(commits "$d/t.json") commits)" [ "$(commits "$d/t.json")" -ge 5 ]
check "INT, INT, TERM: no writer and no strace left" eval "! left '$d/log'"
[ "$failed" -eq 0 ] || cat "$d/err" >&2

# Attaching to another process needs root where Yama restricts ptrace to descendants.
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2> /dev/null || echo 0)
if [ "$(id -u)" -ne 0 ] && [ "$scope" -ge 1 ]; then
  echo "SKIP (part): record --pid needs root here (kernel.yama.ptrace_scope=$scope)" >&2
else
  d=$WORK/attach
  mkdir "$d"
  "$PY" "$WORK/writer.py" "$d/log" &
  writer=$!
  cleanup_hooks+=("kill $writer 2> /dev/null")
  grown "$d/log" 200
  "$ALIGNBENCH" record --pid "$writer" --file "$d/log" --out "$d/t.json" > "$d/out" 2> "$d/err" &
  rec=$!
  for ((i = 0; i < 100; i++)); do
    grep -q "attached to" "$d/err" && break
    sleep 0.05
  done
  tracer=$(awk '/^TracerPid:/ {print $2}' "/proc/$writer/status")
  check "--pid: 'attached' is said (after $((i * 50)) ms)" grep -q "^alignbench record: attached to 1 process(es) of $writer" "$d/err"
  check "--pid: when it is said, strace traces the process (TracerPid $tracer)" [ "$tracer" -gt 0 ]
  sleep 0.5
  kill -HUP "$rec"
  check "--pid, SIGHUP: record ends" ended "$rec"
  kill -KILL "$rec" 2> /dev/null
  check "--pid, SIGHUP: one line says strace detaches" \
    grep -q "^alignbench record: SIGHUP: stopping: strace detaches and the trace is saved" "$d/err"
  check "--pid, SIGHUP: the trace is saved ($(commits "$d/t.json") commits)" [ "$(commits "$d/t.json")" -ge 5 ]
  check "--pid, SIGHUP: the process runs on" kill -0 "$writer"
  check "--pid, SIGHUP: traced by no one" \
    [ "$(awk '/^TracerPid:/ {print $2}' "/proc/$writer/status")" -eq 0 ]
  kill "$writer"
  [ "$failed" -eq 0 ] || cat "$d/err" >&2
fi

"$ALIGNBENCH" record --pid $$ --out "$WORK/self.json" > /dev/null 2> "$WORK/self.err"
status=$?
check "--pid of record's own ancestor: exit 1 (got $status)" [ "$status" -eq 1 ]
check "--pid of record's own ancestor: one line says why" \
  grep -q "^alignbench: error: option --pid: '$$' is record itself or one of its ancestors" "$WORK/self.err"
check "--pid of record's own ancestor: nothing saved" [ ! -e "$WORK/self.json" ]

d=$WORK/lookup
mkdir -p "$d/bin"
printf '#!/bin/sh\nsleep 3\nexec /usr/bin/dpkg-query "$@"\n' > "$d/bin/dpkg-query"
chmod +x "$d/bin/dpkg-query"
PATH=$d/bin:$PATH "$ALIGNBENCH" record --file "$d/log" --out "$d/t.json" -- touch "$d/log" \
  > "$d/out" 2> "$d/err" &
rec=$!
sleep 1
kill -INT "$rec"
wait "$rec"
status=$?
check "SIGINT during the package lookup: exit 130 (got $status)" [ "$status" -eq 130 ]
check "SIGINT during the package lookup: one line says nothing was recorded" \
  grep -q "^alignbench record: SIGINT before strace started: nothing was recorded" "$d/err"
check "SIGINT during the package lookup: the command never ran, nothing saved" \
  eval "[ ! -e '$d/log' ] && [ ! -e '$d/t.json' ]"
[ "$failed" -eq 0 ] || cat "$d/err" >&2

# 6. A command whose first process ends and leaves its writer running (a daemon's way):
# the stop reaches the writer, as SIGTERM (a shell's background job ignores SIGINT),
# said, and the trace is saved.
d=$WORK/left
mkdir -p "$d"
"$ALIGNBENCH" record --file "$d/log" --out "$d/t.json" -- \
  sh -c "\"$PY\" \"$WORK/writer.py\" \"$d/log\" > /dev/null 2>&1 & exit 0" \
  > "$d/out" 2> "$d/err" &
rec=$!
grown "$d/log" 1000
kill -INT "$rec"
check "a command's first process gone: record ends on SIGINT" ended "$rec"
ended "$rec" || kill -INT "$rec"  # never hang: the second one kills
wait "$rec"
check "a command's first process gone: the stop passed on to what it left, said" \
  grep -q "SIGINT: stopping: SIGTERM passed on to what sh left running (PID [0-9]*)" "$d/err"
check "a command's first process gone: the trace saved, its commits in it" \
  [ "$(commits "$d/t.json")" -ge 10 ]
check "a command's first process gone: no writer left" \
  eval "! pgrep -f '$d/log' > /dev/null"
[ "$failed" -eq 0 ] || cat "$d/err" >&2

# 7. A stop signal while the trace is being saved: record says it is reading strace's
# output (past 4 MiB: 9000 commits to a log under a 200-character directory on tmpfs,
# where a sync costs nothing), a SIGTERM then abandons the save, said; exit 143, no trace,
# no case file and no strace output left in TMPDIR.
shm=$(mktemp -d /dev/shm/alignbench-test.XXXXXX)
cleanup_hooks+=("rm -rf '$shm'")
long=$shm/$(printf 'd%.0s' {1..200})
d=$WORK/saving
mkdir -p "$long" "$d/tmp"
TMPDIR=$d/tmp "$ALIGNBENCH" record --file "$long/log" --out "$d/t.json" -- "$PY" -c '
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
for _ in range(9000):
    os.write(fd, b"x" * 10)
    os.fsync(fd)' "$long/log" > "$d/out" 2> "$d/err" &
rec=$!
for ((i = 0; i < 3000; i++)); do  # up to 60 s
  grep -q "a stop signal abandons the save" "$d/err" && break
  kill -0 "$rec" 2> /dev/null || break
  sleep 0.02
done
kill -TERM "$rec" 2> /dev/null
wait "$rec"
status=$?
check "SIGTERM while saving: record said it was reading strace's output" \
  grep -q "alignbench record: reading [0-9]* MiB of strace's output; a stop signal abandons the save" "$d/err"
check "SIGTERM while saving: exit 143 (exit $status)" [ "$status" -eq 143 ]
check "SIGTERM while saving: the save abandoned, said" \
  grep -q "SIGTERM while the trace was being saved: the save is abandoned, nothing is saved" "$d/err"
check "SIGTERM while saving: no trace and no case file" \
  eval "[ ! -e '$d/t.json' ] && [ ! -e '$d/t.case.json' ]"
check "SIGTERM while saving: no strace output left in TMPDIR" [ -z "$(ls -A "$d/tmp")" ]
[ "$failed" -eq 0 ] || cat "$d/err" >&2
finish
