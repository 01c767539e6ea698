# What the filesystem promises an atomic write, on real rigs: statx(STATX_WRITE_ATOMIC) on
# xfs (Linux 6.16 on: in software, 4 KiB to 1 MiB on a 4096-byte-sector rig) and on ext4
# (none), in `alignbench env --format json` and in a run's result, whose answer then says
# that the unaligned variant's writes can never be atomic; the device's queue limits
# beside them; `--atomic on`, whose shifted writes xfs refuses and ext4 all; and what an
# aligned atomic write costs on xfs against a plain one. A kernel that does not say (before
# 6.11) is a skip, said loudly.
source "$(dirname "$0")/lib.sh"

make_rig --fs xfs --sector 4096
XFS=$RIG
make_rig --fs ext4 --sector 4096
EXT4=$RIG

env_json() { "$ALIGNBENCH" env "$1" --format json > "$WORK/$2.json"; }
{ env_json "$XFS" xfs && env_json "$EXT4" ext4; } ||
  { echo "FAIL: alignbench env --format json" >&2; exit 1; }
atomic() {  # atomic FILE KEY...: the values at those keys of the target, or "absent"
  "$PY" - "$@" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc = doc.get("alignbench", {}).get("environment", doc)
target = doc["target"]
print(" ".join(str(target.get(k, "absent")) for k in sys.argv[2:]))
PY
}
keys=(atomic_write_unit_min_bytes atomic_write_unit_max_bytes atomic_write_segments_max)
xfs=$(atomic "$WORK/xfs.json" "${keys[@]}")
ext4=$(atomic "$WORK/ext4.json" "${keys[@]}")
[[ $xfs == absent* ]] && skip "statx says nothing of atomic writes here (kernel $(uname -r))"
[ "$xfs" = "0 0 0" ] && skip "xfs offers no atomic writes on kernel $(uname -r) (software ones came in 6.16)"
check "xfs: atomic writes from 4K to 1M in one segment (got $xfs)" [ "$xfs" = "4096 1048576 1" ]
check "ext4: none (got $ext4)" [ "$ext4" = "0 0 0" ]
check "the device's queue limits are there" \
  "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1]))["target"]["device"]
sys.exit(not all(k in d for k in ("atomic_write_unit_min_bytes", "atomic_write_unit_max_bytes",
                                  "atomic_write_max_bytes", "atomic_write_boundary_bytes")))' \
  "$WORK/xfs.json"
check "env prints them" \
  grep -q "atomic write unit max (statx, 0: none): 1048576" <("$ALIGNBENCH" env "$XFS")

# A run keeps them in its result and says what they mean.
for fs in xfs ext4; do
  dir=$XFS
  [ "$fs" = ext4 ] && dir=$EXT4
  "$ALIGNBENCH" --dir "$dir" --sizes 4K --writes 4 --repetitions 2 \
    --out "$WORK/run-$fs.json" > "$WORK/run-$fs.out" 2> "$WORK/run-$fs.err" ||
    { echo "FAIL: the run on $fs" >&2; cat "$WORK/run-$fs.err" >&2; exit 1; }
done
check "the xfs result holds them" [ "$(atomic "$WORK/run-xfs.json" "${keys[@]}")" = "$xfs" ]
check "the xfs answer: the unaligned writes can never be atomic" \
  grep -q "^answer: .*atomic writes (RWF_ATOMIC) of 4K to 1M, each at an offset aligned to its size: the unaligned variant's writes can never be atomic" \
  <("$ALIGNBENCH" show --details "$WORK/run-xfs.json")
# shellcheck disable=SC2016  # $1 is the inner bash's
check "the ext4 answer says nothing of atomic writes" \
  bash -c '! grep -q "atomic" "$1"' _ "$WORK/run-ext4.out"

# --atomic on: every write with RWF_ATOMIC. On xfs the aligned 4K writes are taken, the
# shifted ones refused (EINVAL): the pair says not measurable, with the reason, never a
# time. ext4 offers none (EOPNOTSUPP): the run stops and says so.
atomic_run() {
  "$ALIGNBENCH" --dir "$1" --io direct --atomic on --sizes 4K --writes 4 --repetitions 2 \
    --out "$WORK/atomic-$2.json" > /dev/null 2> "$WORK/atomic-$2.err"
}
atomic_run "$XFS" xfs ||
  { echo "FAIL: the atomic run on xfs" >&2; cat "$WORK/atomic-xfs.err" >&2; exit 1; }
if atomic_run "$EXT4" ext4; then ext4_status=0; else ext4_status=$?; fi
check "ext4: the atomic run stops (exit $ext4_status)" [ "$ext4_status" -ne 0 ]
check "ext4: and says the filesystem takes no atomic writes" \
  grep -q "(EOPNOTSUPP).*this filesystem takes no atomic writes" "$WORK/atomic-ext4.err"
sides() {  # sides FILE: each variant's repetitions and errno name, then atomic_writes
  "$PY" - "$1" << 'PY'
import json, sys
ab = json.load(open(sys.argv[1]))["alignbench"]
p = ab["pairs"][0]
print(" ".join("%s:%s" % (p[v]["repetitions"], p[v].get("error", {}).get("errno_name", "-"))
               for v in ("unaligned", "aligned")), ab["settings"].get("atomic_writes"))
PY
}
check "xfs: unaligned refused, aligned measured (got $(sides "$WORK/atomic-xfs.json"))" \
  [ "$(sides "$WORK/atomic-xfs.json")" = "0:EINVAL 2:- on" ]
check "the why says what RWF_ATOMIC takes" \
  grep -q "RWF_ATOMIC takes one write of a size the filesystem names" \
  <("$ALIGNBENCH" show --details "$WORK/atomic-xfs.json")

# Aligned atomic against aligned plain, on a prewritten log: xfs keeps an atomic write whole
# in software (out of place, then remapped), so each costs a second flush and its block
# written twice; compare names the setting and the aligned side's change. fdatasync, as a
# log syncs: fsync also forces the log for a new mtime, which a write gets whenever it
# lands in another clock tick than the one before, so on a busy machine (slower writes,
# more ticks crossed) plain writes counted 1.44-1.56 flushes and 5.75-6.25 KiB each.
for mode in off on; do
  "$ALIGNBENCH" --dir "$XFS" --io direct --layout prewritten --atomic "$mode" --sizes 4K \
    --sync fdatasync --writes 8 --repetitions 2 --out "$WORK/aligned-$mode.json" \
    > /dev/null 2>&1 ||
    { echo "FAIL: the aligned run with --atomic $mode" >&2; exit 1; }
done
aligned_io() {  # aligned_io FILE: the aligned side's flushes and KiB written per write
  "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))["alignbench"]["pairs"][0]["aligned"]["device_per_write"]
print(d["flushes"], d["written_kib"])' "$1"
}
read -r plain_fl plain_kib < <(aligned_io "$WORK/aligned-off.json")
read -r atomic_fl atomic_kib < <(aligned_io "$WORK/aligned-on.json")
echo "aligned 4K per write: plain $plain_fl flushes, $plain_kib KiB; atomic $atomic_fl, $atomic_kib"
within() { "$PY" -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$@"; }
check "plain: a flush per write (got $plain_fl)" within "$plain_fl" 0.9 1.2
check "atomic: two flushes per write (got $atomic_fl)" within "$atomic_fl" 1.8 2.3
check "plain: 4 KiB written per write (got $plain_kib)" within "$plain_kib" 3.9 4.5
check "atomic: 8 KiB written per write (got $atomic_kib)" within "$atomic_kib" 7.5 8.5
check "compare names the setting" \
  grep -q "atomic: off -> on" <("$ALIGNBENCH" compare "$WORK/aligned-off.json" "$WORK/aligned-on.json")
finish
