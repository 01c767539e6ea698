# The mechanism behind the gain, on a real ext4 with 4 KiB sectors: a
# unaligned write over a cold, prewritten file reads the partly overwritten block first; an
# extending file reads nothing; unaligned O_DIRECT writes are refused with the alignment
# required, and staged ones are measured; in a preallocated file, a replay padded to a block
# per commit converts an unwritten extent at every commit, and the why-line says so; in a
# new file the recorded appends change its size at every commit, whole blocks rarely.
source "$(dirname "$0")/lib.sh"
make_rig --sector 4096 --fs ext4 --size 256M

run() {  # run NAME alignbench-args...: result in $WORK/NAME.json, table in $WORK/NAME.txt
  local name=$1
  shift
  "$ALIGNBENCH" --dir "$RIG" --out "$WORK/$name.json" "$@" > "$WORK/$name.txt" 2> "$WORK/$name.err"
}

run cold --case "$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json" --sizes 4K --writes 48 \
  --repetitions 2
check "cold-rmw runs" [ $? -eq 0 ]
check "cold-rmw: unaligned reads ~1 block per write, aligned none, one more block written" \
  json_check "$WORK/cold.json" \
  'pair(4096)["unaligned"]["device_per_write"]["reads"] >= 0.9' \
  'pair(4096)["aligned"]["device_per_write"]["reads"] <= 0.1' \
  'pair(4096)["unaligned"]["device_per_write"]["read_kib"] >= 3.6' \
  '7.0 <= pair(4096)["unaligned"]["device_per_write"]["written_kib"] <= 9.0' \
  '3.5 <= pair(4096)["aligned"]["device_per_write"]["written_kib"] <= 5.0' \
  'pair(4096)["unaligned"]["resident_pages_after_drop"] == 0' \
  '"read-on-write" in pair(4096)["explanation"]'
check "cold-rmw: the table shows the reads" grep -q "read-modify-write" "$WORK/cold.txt"

run extend --sizes 4K --writes 48 --repetitions 2 --sync fdatasync --layout extend
check "extend: no device reads in either variant" json_check "$WORK/extend.json" \
  'pair(4096)["unaligned"]["device_per_write"]["reads"] <= 0.1' \
  'pair(4096)["aligned"]["device_per_write"]["reads"] <= 0.1'

run direct --sizes 4K,64K --writes 16 --repetitions 2 --io direct --layout prewritten
check "direct: refused rows are not a failure (exit 0)" [ $? -eq 0 ]
check "direct: unaligned rows not measured, with EINVAL and the alignment" \
  json_check "$WORK/direct.json" \
  'pair(4096)["unaligned"]["repetitions"] == 0' \
  'pair(4096)["unaligned"]["error"]["errno_name"] == "EINVAL"' \
  '"multiples of 4096" in pair(4096)["unaligned"]["error"]["message"]' \
  'pair(4096)["aligned"]["repetitions"] == 2' \
  '"gain_pct" not in pair(4096)' \
  '"not measurable" in pair(65536)["explanation"]'
check "direct: the table says not measurable" grep -q "not measurable" "$WORK/direct.txt"

# Cold, so that a read of the partly filled head block would have to go to the device:
# staged writes keep it in memory, as a database's log buffer does.
run staged --sizes 4K --writes 16 --repetitions 2 --io direct --layout prewritten \
  --cache cold --direct-unaligned stage
check "staged: unaligned direct writes measured and labelled staged" \
  json_check "$WORK/staged.json" \
  'pair(4096)["unaligned"]["repetitions"] == 2' \
  'pair(4096)["unaligned"]["staged"] is True' \
  'pair(4096)["aligned"]["staged"] is False' \
  '"gain_pct" in pair(4096)' \
  '"staged" in pair(4096)["explanation"]' \
  'pair(4096)["unaligned"]["device_per_write"]["reads"] <= 0.1' \
  'pair(4096)["unaligned"]["device_per_write"]["written_kib"] >= 7.5'

# MariaDB's way: an O_DIRECT redo log that writes its partly filled 4 KiB block again at
# every commit until it is full (512 bytes more each time), recycled. Moved by the shift,
# each staged write spans two blocks, and the next starts in the first of them again: the
# writer holds it, as the log buffer does, and reads nothing (it read the block every
# commit when it held only the last one).
"$PY" - "$WORK/redo.trace.json" << 'PY'
import json, sys
commits = []
for k in range(64):
    commits.append({"ops": [{"op": "write", "file": 0, "offset": k // 8 * 4096, "length": 4096},
                            {"op": "sync", "file": 0, "call": "fsync"}]})
json.dump({"schema": "alignbench-trace", "version": 2,
           "program": {"argv": ["redo"], "version": "test"}, "recorder": "test",
           "commit_rule": "a commit ends at each fsync, fdatasync or sync_file_range of a "
           "traced file, and at each write to a traced file opened with O_SYNC or O_DSYNC",
           "files": [{"path": "/redo", "flags": ["O_WRONLY", "O_DIRECT"], "state": "recycled",
                      "size_at_open": 1 << 20}],
           "header": None, "commits": commits, "after_last_commit": [], "limits": []},
          open(sys.argv[1], "w"))
PY
run redo --replay "$WORK/redo.trace.json" --repetitions 2
check "a rewritten block, staged and moved: no device read per commit; aligned, said first" \
  json_check "$WORK/redo.json" \
  'pair(4096)["io"] == "direct"' \
  'pair(4096)["unaligned"]["staged"] is True' \
  'pair(4096)["unaligned"]["device_per_write"]["reads"] <= 0.1' \
  '"writes its log on 4096-byte boundaries already (64 of 64" in a["warnings"][0]'

# etcd's way: 100-byte appends, each synced, into a preallocated segment. Padded, every
# commit reaches an unwritten block (a journal commit at its sync); as recorded, one in
# about 40; whole blocks reach the same blocks as the recorded commits.
"$PY" - "$WORK/prealloc.trace.json" << 'PY'
import json, sys
commits, at = [], 0
for _ in range(200):
    commits.append({"ops": [{"op": "write", "file": 0, "offset": at, "length": 100},
                            {"op": "sync", "file": 0, "call": "fdatasync"}]})
    at += 100
json.dump({"schema": "alignbench-trace", "version": 1,
           "program": {"argv": ["appender"], "version": "test"}, "recorder": "test",
           "commit_rule": "a commit ends at each fsync, fdatasync or sync_file_range of a "
           "traced file, and at each write to a traced file opened with O_SYNC or O_DSYNC",
           "files": [{"path": "/log", "flags": ["O_WRONLY"], "state": "preallocated",
                      "size_at_open": 1 << 20}],
           "header": None, "commits": commits, "after_last_commit": [], "limits": []},
          open(sys.argv[1], "w"))
PY
run padded --replay "$WORK/prealloc.trace.json" --replay-aligned padded --repetitions 2
check "padded in a preallocated file: extent conversions, with the device writes" \
  json_check "$WORK/padded.json" \
  'pair(100)["layout"] == "prealloc"' \
  'pair(100)["per_commit"]["aligned"]["new_block_share"] == 1' \
  'pair(100)["per_commit"]["unaligned"]["new_block_share"] <= 0.05' \
  '"extent conversions" in pair(100)["mechanisms"]' \
  'pair(100)["aligned"]["device_per_write"]["writes"] >= pair(100)["unaligned"]["device_per_write"]["writes"] + 0.5' \
  '"converts an unwritten extent" in pair(100)["explanation"]'
run whole --replay "$WORK/prealloc.trace.json" --repetitions 2
check "whole blocks in a preallocated file: the same new blocks, no conversions said" \
  json_check "$WORK/whole.json" \
  'pair(100)["per_commit"]["aligned"]["new_block_share"] == pair(100)["per_commit"]["unaligned"]["new_block_share"]' \
  '"extent conversions" not in pair(100)["mechanisms"]'

# The same appends to a new file: every recorded commit changes its size, one in about 40
# of the stream in whole blocks does (it grows a block at a time), and the recorded side
# makes the more device writes.
sed 's/"preallocated"/"new"/' "$WORK/prealloc.trace.json" > "$WORK/new.trace.json"
run grows --replay "$WORK/new.trace.json" --repetitions 2
check "whole blocks in a new file: size changes, with the device writes, and no shift's block" \
  json_check "$WORK/grows.json" \
  'pair(100)["layout"] == "extend"' \
  'pair(100)["per_commit"]["unaligned"]["growth_share"] == 1' \
  'pair(100)["per_commit"]["aligned"]["growth_share"] <= 0.05' \
  '"size changes" in pair(100)["mechanisms"]' \
  '"one more block written" not in pair(100)["mechanisms"]' \
  'pair(100)["unaligned"]["device_per_write"]["writes"] >= pair(100)["aligned"]["device_per_write"]["writes"] + 0.5'
check "a replay's table says what its size and device rows are" \
  grep -q "^size: bytes per recorded commit" "$WORK/grows.txt"

check "no .alignbench-* left on the rig" no_leftovers "$RIG"
finish
