#!/usr/bin/env bash
# Every layer's unit on real stacks, held to what losetup, sfdisk and mkfs set: ext4 on
# a 4096-byte-sector loop device (nothing off grid), a loop device at offset 512 under
# ext4 (the off-grid sentence), a partition at sector 1 (its start in bytes), ext4 with
# bigalloc (its cluster), xfs with a stripe (sunit and swidth in bytes) and btrfs (its
# sector and node). Also as nobody, who cannot read the superblock: the cluster is then
# unknown and the reason says so. Every loop device and mount goes on every exit path.
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices and the ext4 superblock (CI runs as root)"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
for tool in losetup:util-linux sfdisk:fdisk mkfs.ext4:e2fsprogs mkfs.xfs:xfsprogs \
  mkfs.btrfs:btrfs-progs setpriv:util-linux; do
  command -v "${tool%%:*}" > /dev/null ||
    skip "${tool%%:*} missing (Debian package ${tool#*:})"
done
chmod 755 "$WORK"  # nobody runs env on a mount under it

# env_json NAME [COMMAND...]: env's JSON of the mount (by COMMAND, default alignbench) as
# json_check reads a result, with the host, target and device as a['h'], a['t'], a['d'].
env_json() {
  local name=$1
  shift
  [ $# -gt 0 ] || set -- "$ALIGNBENCH"
  "$@" env --format json "$MNT" | "$PY" -c '
import json, sys
e = json.load(sys.stdin)
t = e["target"]
json.dump({"alignbench": {"h": e["host"], "t": t, "d": t["device"] or {}}}, sys.stdout)
' > "$WORK/$name.json"
}

# probe NAME: env's JSON and text of the mount, and the units seen, for the log.
probe() {
  env_json "$1"
  "$ALIGNBENCH" env "$MNT" > "$WORK/$1.txt"
  "$PY" - "$WORK/$1.json" "$1" << 'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
t, d = a["t"], a["d"]
seen = {"page_bytes": a["h"].get("page_bytes")}
for k in ("logical_block_bytes", "physical_block_bytes", "alignment_offset_bytes",
          "partition_start_bytes", "loop_offset_bytes", "loop_direct_io",
          "loop_backing_block_bytes"):
    if k in d: seen[k] = d[k]
for k in ("fs_block_bytes", "fs_fragment_bytes", "ext4_bigalloc", "ext4_cluster_bytes",
          "xfs_sunit_bytes", "xfs_swidth_bytes", "btrfs_sectorsize_bytes",
          "btrfs_nodesize_bytes", "off_grid", "units_unknown"):
    if k in t: seen[k] = t[k]
print("%s: %s" % (sys.argv[2], ", ".join("%s=%s" % kv for kv in seen.items())))
PY
}

text_has() { grep -qF -- "$2" "$WORK/$1.txt"; }

page=$(getconf PAGESIZE)

stack ext4-4k 64M "-b 4096" mkfs.ext4 -q -F -b 4096
probe ext4-4k
check "ext4 on 4096-byte sectors: page, block, offset 0, cluster = block" \
  json_check "$WORK/ext4-4k.json" "a['h']['page_bytes'] == $page" \
  "a['t']['fs_block_bytes'] == 4096" "a['d']['logical_block_bytes'] == 4096" \
  "a['d']['alignment_offset_bytes'] == 0" "a['d']['loop_offset_bytes'] == 0" \
  "type(a['d']['loop_direct_io']) is bool" "a['t']['ext4_bigalloc'] is False" \
  "a['t']['ext4_cluster_bytes'] == 4096" "'off_grid' not in a['t']" \
  "'partition_start_bytes' not in a['d']" "'units_unknown' not in a['t']"
check "ext4 on 4096-byte sectors: no off-grid words" \
  bash -c "! grep -q 'OFF GRID' '$WORK/ext4-4k.txt'"
# nobody may not read /dev/loopN: the cluster is unknown, with the reason, never 0.
env_json ext4-nobody setpriv --reuid=nobody --regid=nogroup --clear-groups \
  "$(for_nobody "$ALIGNBENCH")" &&
  check "as nobody: ext4's cluster unknown, and why" \
    json_check "$WORK/ext4-nobody.json" "'ext4_cluster_bytes' not in a['t']" \
    "'ext4_bigalloc' not in a['t']" "a['t']['fs_block_bytes'] == 4096" \
    "'ext4 cluster: open $DEV: Permission denied' in a['t']['units_unknown']"
unstack ext4-4k

stack loop-offset 64M "-o 512" mkfs.ext4 -q -F -b 4096
probe loop-offset
below=$(stat -f -c %s "$WORK")
off_grid="loop offset 512 B: not a multiple of the $below-byte blocks below"
check "a loop device at offset 512: the offset, and the sentence" \
  json_check "$WORK/loop-offset.json" "a['d']['loop_offset_bytes'] == 512" \
  "a['d']['loop_backing_block_bytes'] == $below" "a['t']['fs_block_bytes'] == 4096" \
  "'$off_grid' in a['t']['off_grid']"
check "env's text says it is off grid" text_has loop-offset "OFF GRID: $off_grid"
unstack loop-offset

stack partition 64M "-b 512 -P" mkfs.ext4 -q -F -b 4096
probe partition
disk=${DEV%p1}
off_grid="partition start 512 B on ${disk##*/} (byte 512 of its backing file)"
check "a partition at sector 1: its start in bytes, off its backing file's blocks" \
  json_check "$WORK/partition.json" "a['d']['partition'] == '${DEV##*/}'" \
  "a['d']['partition_start_bytes'] == 512" "a['d']['logical_block_bytes'] == 512" \
  "a['d']['loop_offset_bytes'] == 0" "'$off_grid' in a['t']['off_grid']"
unstack partition

stack bigalloc 64M "-b 4096" mkfs.ext4 -q -F -b 4096 -O bigalloc -C 16384
probe bigalloc
check "ext4 with bigalloc: its 16384-byte cluster" \
  json_check "$WORK/bigalloc.json" "a['t']['ext4_bigalloc'] is True" \
  "a['t']['ext4_cluster_bytes'] == 16384" "a['t']['fs_block_bytes'] == 4096" \
  "'off_grid' not in a['t']"
check "env's text names the cluster" text_has bigalloc "ext4 cluster bytes (superblock): 16384"
unstack bigalloc

# xfsprogs 6.1 wants a log of 64 MiB beside a stripe, which fits the AGs of 1 GiB (sparse).
stack xfs 1G "-b 4096" mkfs.xfs -q -f -d su=64k,sw=2
probe xfs
check "xfs with su=64k,sw=2: sunit and swidth in bytes" \
  json_check "$WORK/xfs.json" "a['t']['xfs_sunit_bytes'] == 65536" \
  "a['t']['xfs_swidth_bytes'] == 131072" "a['t']['fs_block_bytes'] == 4096" \
  "'off_grid' not in a['t']"
unstack xfs

stack btrfs 128M "-b 4096" mkfs.btrfs -q -f -s 4096 -n 16384
probe btrfs
check "btrfs: its sectorsize and nodesize" \
  json_check "$WORK/btrfs.json" "a['t']['btrfs_sectorsize_bytes'] == 4096" \
  "a['t']['btrfs_nodesize_bytes'] == 16384" "'units_unknown' not in a['t']"
unstack btrfs

finish
