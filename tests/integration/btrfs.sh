# btrfs, copy-on-write, beside the ext4 and xfs rigs: the device is found under a btrfs
# mount (its files carry an anonymous device number, the mount source names the disk), and
# a shifted write over a cold, prewritten file reads the block it partly overwrites first,
# as on ext4; every synced write there costs several device writes in both variants (the
# data written to a new place, then new copies of the trees that point to it), which the
# why-lines name. Derby's extending sweep runs on it too.
source "$(dirname "$0")/lib.sh"
command -v mkfs.btrfs > /dev/null || skip "mkfs.btrfs missing (Debian package btrfs-progs)"
make_rig --sector 4096 --fs btrfs --size 256M

run() {  # run NAME alignbench-args...: result in $WORK/NAME.json, table in $WORK/NAME.txt
  local name=$1
  shift
  "$ALIGNBENCH" --dir "$RIG" --out "$WORK/$name.json" "$@" > "$WORK/$name.txt" 2> "$WORK/$name.err"
}

run cold --case "$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json" --sizes 4K --writes 32 \
  --repetitions 2
check "cold-rmw on btrfs runs" [ $? -eq 0 ]
check "btrfs on the rig's loop device" json_check "$WORK/cold.json" \
  'a["environment"]["target"]["fs_type"] == "btrfs"' \
  'a["environment"]["target"]["device"]["disk"].startswith("loop")'
check "cold-rmw: unaligned reads a block per write, aligned none; both write often" \
  json_check "$WORK/cold.json" \
  'pair(4096)["unaligned"]["device_per_write"]["reads"] >= 0.9' \
  'pair(4096)["aligned"]["device_per_write"]["reads"] <= 0.1' \
  'pair(4096)["aligned"]["device_per_write"]["writes"] >= 4' \
  'pair(4096)["unaligned"]["device_per_write"]["writes"] >= 4' \
  '"read-on-write" in pair(4096)["explanation"]' \
  '"metadata commits" in pair(4096)["explanation"]'

run derby --case derby-2004 --sizes 4K,64K,512K --repetitions 2
check "Derby's sweep on btrfs runs" [ $? -eq 0 ]
check "Derby's sweep: three sizes measured, no reads" json_check "$WORK/derby.json" \
  'len(a["pairs"]) == 3' \
  'all(p["unaligned"]["repetitions"] == 2 for p in a["pairs"])' \
  'all(p["unaligned"]["device_per_write"]["reads"] <= 0.1 for p in a["pairs"])'
check "no test file left" no_leftovers "$RIG"
finish
