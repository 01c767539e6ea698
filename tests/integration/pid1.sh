# As PID 1 of a PID namespace (a container without an init) the kernel discards a re-raised
# default-action signal. A signal must still end the run: exit 128+N, no test file, no result;
# except a first SIGINT (Ctrl-C), which stops at the next write and saves what was measured,
# marked incomplete.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for unshare --pid (CI runs as root)"
unshare -pf --mount-proc true 2>/dev/null || skip "unshare -pf --mount-proc does not work here"

target="$WORK/target"
mkdir "$target"
for signal in TERM INT USR1; do
  set -m  # default signal dispositions, as from a terminal (else SIGINT is ignored)
  unshare -pf --mount-proc "$ALIGNBENCH" --dir "$target" --sizes 512 --writes 1000000 \
    --repetitions 1 --sync fsync --out "$WORK/result.json" > /dev/null 2> "$WORK/err" &
  outer=$!
  set +m
  wait_for_run_file "$target"
  inner=$(pgrep -P "$outer")
  kill "-$signal" "$inner"
  for _ in $(seq 100); do kill -0 "$outer" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$outer" 2>/dev/null; then
    kill -KILL "$inner"
    wait "$outer"
    status="still running 5 s after the signal"
  else
    wait "$outer"
    status=$?
  fi
  expected=$((128 + $(kill -l "$signal")))
  check "PID 1, SIG$signal: exit status $expected (got $status)" [ "$status" = "$expected" ]
  check "PID 1, SIG$signal: no .alignbench-* left" no_leftovers "$target"
  if [ "$signal" = INT ]; then
    check "PID 1, one SIGINT: the result saved, marked incomplete" \
      json_check "$WORK/result.json" 'a["complete"] is False'
  else
    check "PID 1, SIG$signal: no result file" [ ! -e "$WORK/result.json" ]
  fi
  rm -f "$target"/.alignbench-* "$WORK/result.json"
done
finish
