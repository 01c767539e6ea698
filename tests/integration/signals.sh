# Every signal whose default action ends the process must remove the test file and end the
# run with the signal's status; a signal the caller ignores stays ignored. A first SIGINT
# (Ctrl-C) is the exception: it stops the measuring at the next write and saves what was
# measured, marked incomplete; a second one aborts. No root needed: the runs write into the
# test's own directory.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
start_run() {  # a run that lasts until it is signalled; its pid in $pid
  set -m  # the job gets default signal dispositions, as from a terminal
  "$ALIGNBENCH" --dir "$target" --sizes 512 --writes 1000000 --repetitions 1 \
    --sync fsync --out "$WORK/result.json" > /dev/null 2> "$WORK/stderr" &
  pid=$!
  set +m
}
ended_within() {  # ended_within SECONDS: $pid ended; its status in $status
  local _
  for _ in $(seq $(($1 * 20))); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid"; status=$?; return 0; }
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null; wait "$pid"; status=killed
  return 1
}

for signal in TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PIPE ABRT IO PWR SYS; do
  start_run
  wait_for_run_file "$target"
  kill "-$signal" "$pid"
  ended_within 5
  expected=$((128 + $(kill -l "$signal")))
  check "SIG$signal: exit status $expected (got $status)" [ "$status" = "$expected" ]
  check "SIG$signal: no .alignbench-* left" no_leftovers "$target"
  check "SIG$signal: no result file" [ ! -e "$WORK/result.json" ]
  rm -f "$target"/.alignbench-*  # so that one failure does not fail every later row
done

# One Ctrl-C: the run stops at its next write, the result is saved and says so.
start_run
wait_for_run_file "$target"
kill -INT "$pid"
ended_within 5
check "one SIGINT: exit status 130 (got $status)" [ "$status" = 130 ]
check "one SIGINT: no .alignbench-* left" no_leftovers "$target"
check "one SIGINT: a result marked incomplete, its error says interrupted" \
  json_check "$WORK/result.json" 'a["complete"] is False' \
  'any("interrupted" in e for e in a["errors"])'
check "one SIGINT: stderr says what happens and what happened" \
  grep -q "interrupted: stopping at the next write" "$WORK/stderr"
rm -f "$WORK/result.json" "$target"/.alignbench-*

# Two: the second aborts as any other signal does, and saves nothing.
start_run
wait_for_run_file "$target"
kill -INT "$pid"
kill -INT "$pid"
ended_within 5
check "two SIGINTs: exit status 130 (got $status)" [ "$status" = 130 ]
check "two SIGINTs: no .alignbench-* left" no_leftovers "$target"
rm -f "$WORK/result.json" "$target"/.alignbench-*

# Ignored by the caller (nohup, trap ''): still ignored, the run goes on.
set -m
(trap '' USR1 HUP && exec "$ALIGNBENCH" --dir "$target" --sizes 512 --writes 1000000 \
  --repetitions 1 --sync fsync > /dev/null 2>&1) &
pid=$!
set +m
wait_for_run_file "$target"
kill -USR1 "$pid"
kill -HUP "$pid"
sleep 0.3
check "ignored SIGUSR1 and SIGHUP stay ignored: the run goes on" kill -0 "$pid"
kill -TERM "$pid"
ended_within 5
check "then SIGTERM: exit status 143 (got $status)" [ "$status" = 143 ]
check "then SIGTERM: no .alignbench-* left" no_leftovers "$target"
finish
