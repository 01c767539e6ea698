# Where the files land, provoked: an ext4 rig whose free space is all 4 KiB holes, so
# every run's growing file is cut into many extents and keeps an extent-tree block (the
# mechanism of docs/methodology.md, "Where the file lands"). The result must record that
# placement for both variants, and both must land alike: the aligned variant writes the
# unaligned one's header padded to a block, so both ask the allocator for the same
# blocks, and placement is never told as alignment. The same run on the rig before it was
# cut up records fewer extents (3 to 4 a file; a tree block in some runs, on a busy
# machine in half of them): the figures come from the files.
source "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (package e2fsprogs)"
make_rig --sector 4096 --fs ext4 --size 128M

run_on_rig() {  # NAME: Derby's 16K pair, 8 blocks
  "$ALIGNBENCH" --dir "$RIG" --case derby-2004 --sizes 16K --repetitions 8 \
    --out "$WORK/$1.json" > "$WORK/$1.out" 2> "$WORK/$1.err"
  check "$1: exit 0" [ $? -eq 0 ]
}

# FILE EXPRESSION over u, a (the variants' file_placement), p (the pair) and w (the
# file_placement of both variants of whole.json, the rig before it was cut up)
placement() {
  "$PY" - "$@" "$WORK/whole.json" <<'PY'
import json, sys
def pair(path):
    return json.load(open(path))["alignbench"]["pairs"][0]
p = pair(sys.argv[1])
u, a = p["unaligned"]["file_placement"], p["aligned"]["file_placement"]
w = [pair(sys.argv[3])[v]["file_placement"] for v in ("unaligned", "aligned")]
ok = eval(sys.argv[2])
if not ok:
    print(f"unaligned {u}, aligned {a}, before cutting {w}, mechanisms {p.get('mechanisms')}",
          file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

run_on_rig whole

# A spacer takes every free block, then gives back every other one: 4 KiB holes only.
"$PY" - "$RIG/spacer" <<'PY' || { echo "FAIL: could not cut up the rig's free space" >&2; exit 1; }
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
PUNCH_HOLE_KEEP_SIZE = 0x02 | 0x01
block = os.statvfs(os.path.dirname(sys.argv[1])).f_frsize
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
# Every block root can have, the reserved ones too (alignbench runs as root here and
# would find whole free space there): a MiB at a time, then a block at a time, until
# the filesystem says ENOSPC.
size = 0
for chunk in (256 * block, block):
    while True:
        try:
            os.posix_fallocate(fd, size, chunk)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
            break
        size += chunk
for offset in range(0, size, 2 * block):
    if libc.fallocate(fd, PUNCH_HOLE_KEEP_SIZE, offset, block) != 0:
        sys.exit(f"fallocate punch hole: {os.strerror(ctypes.get_errno())}")
os.close(fd)
PY
run_on_rig holes
check "in 4 KiB holes, every run's file keeps an extent-tree block" \
  placement "$WORK/holes.json" "u['extents'] >= 5 and a['extents'] >= 5 and u['tree_blocks'] >= 1 and a['tree_blocks'] >= 1"
check "in more extents than on the rig before it was cut up" \
  placement "$WORK/holes.json" "u['extents'] > w[0]['extents'] and a['extents'] > w[1]['extents']"
check "both variants land alike (tree blocks within half a block)" \
  placement "$WORK/holes.json" "abs(u['tree_blocks'] - a['tree_blocks']) < 0.5"
check "so no why-line tells placement as the pair's difference" \
  placement "$WORK/holes.json" "'where the files landed' not in p.get('mechanisms', [])"
check "no .alignbench-* left" no_leftovers "$RIG"
[ "$failed" -eq 0 ] || cat "$WORK/holes.err" >&2
finish
