# --layout prealloc where the filesystem cannot preallocate: ext2 has no
# extents, so fallocate(2) answers EOPNOTSUPP. posix_fallocate(3) would have written zeros
# instead and measured a prewritten file under the name "prealloc"; alignbench refuses.
source "$(dirname "$0")/lib.sh"
command -v mkfs.ext2 >/dev/null || skip "mkfs.ext2 missing (package e2fsprogs)"
make_rig --sector 4096 --fs ext2 --size 64M

"$ALIGNBENCH" --dir "$RIG" --layout prealloc --sizes 4K --writes 4 --repetitions 6 \
  --sync fsync --out "$WORK/prealloc.json" > "$WORK/prealloc.out" 2> "$WORK/prealloc.err"
status=$?
check "prealloc on ext2: exit 2 (got $status)" [ "$status" -eq 2 ]
check "prealloc on ext2: fallocate refused with EOPNOTSUPP and the errno table's hint" \
  grep -Eq "^alignbench: error: fallocate $RIG/\.alignbench-[0-9]+-[0-9a-f]+: .*\(EOPNOTSUPP\).*; this filesystem cannot preallocate: use --layout prewritten" \
  "$WORK/prealloc.err"
check "prealloc on ext2: no .alignbench-* left" no_leftovers "$RIG"
[ "$failed" -eq 0 ] || cat "$WORK/prealloc.err" >&2

# A replay of a preallocated log (as etcd's), which takes its layout from the trace and
# refuses --layout: the hint says what to do instead.
"$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))
t["files"][0]["state"] = "preallocated"
json.dump(t, open(sys.argv[2], "w"))' "$ALIGNBENCH_SOURCE_DIR/tests/cli/fixtures/trace-sqlite-3.json" \
  "$WORK/prealloc-trace.json"
"$ALIGNBENCH" --replay "$WORK/prealloc-trace.json" --dir "$RIG" --repetitions 6 \
  > "$WORK/replay.out" 2> "$WORK/replay.err"
status=$?
check "replay of a preallocated log on ext2: exit 2 (got $status)" [ "$status" -eq 2 ]
check "replay of a preallocated log on ext2: the hint names the replay's way out" \
  grep -q "a --replay of a preallocated log needs a filesystem that can" "$WORK/replay.err"
check "replay on ext2: no .alignbench-* left" no_leftovers "$RIG"
[ "$failed" -eq 0 ] || cat "$WORK/replay.err" >&2

# The same rig measures the other layouts: the refusal is prealloc's alone.
"$ALIGNBENCH" --dir "$RIG" --layout prewritten --sizes 4K --writes 4 --repetitions 6 \
  --sync fsync > "$WORK/prewritten.out" 2> "$WORK/prewritten.err"
status=$?
check "prewritten on ext2: exit 0 (got $status)" [ "$status" -eq 0 ]
check "prewritten on ext2: no .alignbench-* left" no_leftovers "$RIG"
[ "$failed" -eq 0 ] || cat "$WORK/prewritten.err" >&2
finish
