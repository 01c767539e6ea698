# tests/sim/stop_replay on a real run: every pair's blocks are read back in the order
# measured, the totals add up to the run's blocks, the rounds replayed stay within them,
# a first round larger than the record runs out, a file without blocks is named as such
# rather than counted as nothing, and a bad option is refused.
source "$(dirname "$0")/lib.sh"
REPLAY="$ALIGNBENCH_BUILD_DIR/tests/stop_replay"

target="$WORK/target"
mkdir "$target"
"$ALIGNBENCH" --dir "$target" --sizes 4K,8K --writes 8 --repetitions 20 \
  --out "$WORK/run.json" > /dev/null 2> "$WORK/run.err"
check "the run: exit 0" [ $? -eq 0 ]
"$REPLAY" --precision 5 "$WORK/run.json" > "$WORK/replay.txt" 2>&1
check "replay: exit 0" [ $? -eq 0 ]
check "each pair's 20 blocks read back" grep -q "^2 pairs: 40 blocks spent" "$WORK/replay.txt"
check "a line per pair" [ "$(grep -c ' spent ' "$WORK/replay.txt")" -eq 2 ]
# The rounds replayed: each pair its first round, the run's 20 blocks, and no more.
check "the rounds replayed on the 40 blocks" \
  grep -q "^the rounds replayed on the recorded blocks: 40 blocks" "$WORK/replay.txt"
# A first round of 30 wants more than the 20 recorded: every pair runs out.
"$REPLAY" --first-round 30 "$WORK/run.json" > "$WORK/first30.txt" 2>&1
check "--first-round 30: both pairs ran out of recorded blocks" \
  grep -q "40 blocks, .*; 2 pairs ran out of recorded blocks" "$WORK/first30.txt"
[ "$failed" -eq 0 ] || cat "$WORK/run.err" "$WORK/replay.txt" "$WORK/first30.txt" >&2

"$REPLAY" "$ALIGNBENCH_SOURCE_DIR/results/vm-loop/derby-ext4-4k-write-back.json" \
  > "$WORK/old.txt" 2>&1
check "a file without blocks: said, pair by pair" \
  [ "$(grep -c 'no blocks recorded' "$WORK/old.txt")" -eq 13 ]
"$REPLAY" --precision x "$WORK/run.json" > /dev/null 2>&1
check "a bad number: exit 2" [ $? -eq 2 ]
"$REPLAY" --first-round 0 "$WORK/run.json" > /dev/null 2>&1
check "a first round of 0 blocks: exit 2" [ $? -eq 2 ]
"$REPLAY" "$WORK/missing.json" > /dev/null 2>&1
check "a missing file: exit 2" [ $? -eq 2 ]
finish
