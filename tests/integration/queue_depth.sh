# Direct-I/O writes in flight (--queue-depth) on real rigs: ext4 on 4096- and 512-byte
# sectors and xfs, a prewritten log, 4K commits, the shifted variant staged in whole blocks
# as a database's log buffer writes them. Four writes are submitted at once through
# io_uring, then one fdatasync for the batch. Each pair answers with a verdict; the device
# rows are per commit: no read on either side, one sector's worth more written by the
# shifted side (4 KiB on 4096-byte sectors, about 0.5 KiB on 512), one flush per four
# commits. strace counts the io_uring_enter calls, so the writes did go through the ring.
source "$(dirname "$0")/lib.sh"

make_rig --fs ext4 --sector 4096
EXT4_4K=$RIG
make_rig --fs ext4 --sector 512
EXT4_512=$RIG
make_rig --fs xfs --sector 4096
XFS=$RIG

in_flight() {  # in_flight DIR NAME [OPTION...]: a 4K pair with 4 writes in flight
  local dir=$1 name=$2
  shift 2
  "$ALIGNBENCH" --dir "$dir" --sizes 4K --io direct --direct-unaligned stage \
    --layout prewritten --sync fdatasync --queue-depth 4 --out "$WORK/$name.json" "$@" \
    > "$WORK/$name.out" 2> "$WORK/$name.err" ||
    { echo "FAIL: the run on $name" >&2; cat "$WORK/$name.err" >&2; exit 1; }
}
figures() {  # figures FILE: verdict, the shift's extra KiB and both sides' reads and flushes
  "$PY" - "$1" << 'PY'
import json, sys
ab = json.load(open(sys.argv[1]))["alignbench"]
p = ab["pairs"][0]
u, a = p["unaligned"]["device_per_write"], p["aligned"]["device_per_write"]
print(p["verdict"].replace(" ", "_"), u["written_kib"] - a["written_kib"],
      u["reads"] + a["reads"], u["flushes"], a["flushes"],
      ab["settings"].get("queue_depth", 1))
PY
}
within() { "$PY" -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$@"; }

in_flight "$EXT4_4K" ext4-4k
in_flight "$EXT4_512" ext4-512
in_flight "$XFS" xfs
for rig in ext4-4k ext4-512 xfs; do
  read -r verdict extra reads fu fa depth < <(figures "$WORK/$rig.json")
  echo "$rig: $verdict, shifted writes +$extra KiB, reads $reads, flushes $fu / $fa per commit"
  check "$rig: a verdict (got $verdict)" \
    grep -qxE "aligned_faster|unaligned_faster|leans_aligned|leans_unaligned|no_significant_difference" <<< "$verdict"
  check "$rig: the result records 4 in flight (got $depth)" [ "$depth" = 4 ]
  check "$rig: no read on either side (got $reads)" within "$reads" 0 0.05
  check "$rig: a flush per four commits, shifted (got $fu)" within "$fu" 0.2 0.35
  check "$rig: a flush per four commits, aligned (got $fa)" within "$fa" 0.2 0.35
  case $rig in
    ext4-512) check "$rig: the shift writes about 0.5 KiB more (got $extra)" within "$extra" 0.4 0.8 ;;
    *) check "$rig: the shift writes 4 KiB more (got $extra)" within "$extra" 3.9 4.2 ;;
  esac
done
check "the settings line says it" \
  grep -q "4 writes in flight per batch (io_uring)" "$WORK/ext4-4k.out"
check "the result reads back" "$ALIGNBENCH" show "$WORK/ext4-4k.json" > /dev/null

# The ring, seen from outside: 2 variants x 2 runs x 8 batches of 4, each at least one
# io_uring_enter.
if command -v strace > /dev/null; then
  strace -f -c -e trace=io_uring_enter -o "$WORK/strace.txt" \
    "$ALIGNBENCH" --dir "$EXT4_4K" --sizes 4K --io direct --direct-unaligned stage \
    --sync fdatasync --queue-depth 4 --repetitions 2 --precision 100 > /dev/null 2>&1 || true
  calls=$(awk '$NF == "io_uring_enter" { print $4 }' "$WORK/strace.txt")
  echo "io_uring_enter calls: ${calls:-none}"
  check "the writes went through io_uring (got ${calls:-no} calls)" [ "${calls:-0}" -ge 32 ]
else
  check "strace, to see the ring from outside (the test installs it)" false
fi
finish
