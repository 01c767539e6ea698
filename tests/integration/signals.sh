# Every signal whose default action ends the process must remove the test file and end the
# run with the signal's status; a signal the caller ignores stays ignored. No root needed:
# the runs write into the test's own directory.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
start_run() {  # a run that lasts until it is signalled; its pid in $pid
  set -m  # the job gets default signal dispositions, as from a terminal
  "$ALIGNBENCH" --dir "$target" --sizes 512 --writes 1000000 --repetitions 1 \
    --sync fsync --out "$WORK/result.json" > /dev/null 2>&1 &
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

for signal in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PIPE ABRT IO PWR SYS; do
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
