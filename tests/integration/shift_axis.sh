# Shifts as an axis, on a real ext4 with 4 KiB sectors, cold and prewritten (the page
# cache's read-on-write): one run of --shift 512,2K,4K,8K measures a pair per shift against
# one aligned variant, aligned to 8K. The shifts below the page read the block they partly
# overwrite, those of whole pages read nothing: the unit shows in the counters. Each pair
# says its shift in the JSON, the table groups the pairs by shift, and show, compare and
# every format read the result back.
source "$(dirname "$0")/lib.sh"
make_rig --sector 4096 --fs ext4 --size 256M

"$ALIGNBENCH" --dir "$RIG" --case "$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json" --sizes 4K \
  --shift 512,2K,4K,8K --writes 32 --repetitions 2 --out "$WORK/r.json" \
  > "$WORK/r.txt" 2> "$WORK/r.err"
status=$?
check "the run (exit $status: $(tail -n 1 "$WORK/r.err"))" [ "$status" -eq 0 ]
check "a pair per shift, each saying its own, in the order given" json_check "$WORK/r.json" \
  'a["settings"]["shift_bytes"] == [512, 2048, 4096, 8192]' \
  '[p["shift_bytes"] for p in a["pairs"]] == [512, 2048, 4096, 8192]'
check "below the page: each unaligned write reads the block it partly overwrites" \
  json_check "$WORK/r.json" \
  'pair(4096, 0)["unaligned"]["device_per_write"]["reads"] >= 0.9' \
  'pair(4096, 1)["unaligned"]["device_per_write"]["reads"] >= 0.9'
check "whole pages: no read, as aligned; the aligned variant reads nothing anywhere" \
  json_check "$WORK/r.json" \
  'pair(4096, 2)["unaligned"]["device_per_write"]["reads"] <= 0.1' \
  'pair(4096, 3)["unaligned"]["device_per_write"]["reads"] <= 0.1' \
  'all(p["aligned"]["device_per_write"]["reads"] <= 0.1 for p in a["pairs"])'
check "the settings line names the shifts" grep -q "shifts 512, 2048, 4096, 8192 B" "$WORK/r.txt"
check "the table groups the pairs by shift" \
  test "$(grep -c '^\[fdatasync buffered prewritten cold, shift [0-9]* B\]$' "$WORK/r.txt")" -eq 4
for format in table derby markdown csv ioping; do
  "$ALIGNBENCH" show --format "$format" "$WORK/r.json" > /dev/null 2> "$WORK/show.err"
  check "show --format $format reads it back ($(head -c 200 "$WORK/show.err"))" [ $? -eq 0 ]
done
"$ALIGNBENCH" compare "$WORK/r.json" "$WORK/r.json" > "$WORK/compare.txt" 2>&1
check "compare matches every pair by its shift" \
  test "$(grep -c '^ *4K |' "$WORK/compare.txt")" -eq 4
finish
