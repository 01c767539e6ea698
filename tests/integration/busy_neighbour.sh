# scripts/busy-neighbour, the reproducible noise of the A/A and power checks: its file
# exists while the command runs and is gone after, on every exit path; the command's
# status is its status; its rate is a ceiling; a signal reaches the command first. No root.
source "$(dirname "$0")/lib.sh"

BN="$ALIGNBENCH_SOURCE_DIR/scripts/busy-neighbour"
target="$WORK/target"
mkdir "$target"
neighbour_files() { find "$target" -maxdepth 1 -name '.busy-neighbour-*' | wc -l; }

"$BN" --rate 40 "$target" -- sh -c "sleep 1; ls -A '$target' > '$WORK/during'" 2> "$WORK/err"
status=$?
check "the command's status: 0 (got $status)" [ "$status" -eq 0 ]
check "its file exists while the command runs" grep -q '^\.busy-neighbour-' "$WORK/during"
check "and is gone after" [ "$(neighbour_files)" -eq 0 ]
writes=$(sed -n 's/^busy-neighbour: \([0-9]*\) writes.*/\1/p' "$WORK/err")
check "it wrote (got ${writes:-none})" [ "${writes:-0}" -ge 1 ]
check "at most its rate: 40/s for about 1 s (got ${writes:-none})" [ "${writes:-999}" -le 60 ]

"$BN" "$target" -- sh -c 'exit 7' 2> /dev/null
status=$?
check "a failing command's status: 7 (got $status)" [ "$status" -eq 7 ]
check "no file after a failing command" [ "$(neighbour_files)" -eq 0 ]

# The trap stops the sleep too: left running, it would hold CTest's output pipe for 30 s.
"$BN" --rate 10 "$target" -- sh -c 'sleep 30 & trap "kill \$!; exit 42" TERM; wait' 2> /dev/null &
pid=$!
for _ in $(seq 100); do [ "$(neighbour_files)" -eq 1 ] && break; sleep 0.05; done
sleep 0.3
kill -TERM "$pid"
wait "$pid"
status=$?
check "SIGTERM reaches the command first, whose status it ends with: 42 (got $status)" \
  [ "$status" -eq 42 ]
check "no file after a signal" [ "$(neighbour_files)" -eq 0 ]

"$BN" --rate -1 "$target" -- true 2> "$WORK/err"
status=$?
check "a rate out of bounds is a usage error: exit 1, as every script's (got $status)" \
  [ "$status" -eq 1 ]
check "and says which" grep -q '^busy-neighbour: error: --rate -1.0: must be from 0' "$WORK/err"

"$BN" --rate 10 "$WORK/missing" -- true 2> "$WORK/err"
status=$?
check "a missing directory: exit 2 (got $status)" [ "$status" -eq 2 ]
check "and one error line" grep -q '^busy-neighbour: error: .*not a directory' "$WORK/err"
finish
