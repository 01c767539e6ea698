# A log writer's group commit (--commits-per-sync, --writers) on a known mechanism: ext4
# on a loop device with 4096-byte sectors, a prewritten log whose pages are dropped
# (cases/cold-rmw), 4K commits. One sync per commit against one per four, from one writer
# and from four writer threads: the unaligned variant reads its partly written block on
# every write in all three, while the flush is shared by four commits, so the shift costs
# relatively more; its gain with four commits per sync is larger. The device rows are per
# commit: about one read per unaligned write, one flush per commit against one per four.
# The results record the settings and read back.
source "$(dirname "$0")/lib.sh"

make_rig --sector 4096
for run in "1 --commits-per-sync 1" "4 --commits-per-sync 4" "w4 --writers 4"; do
  read -r -a args <<< "$run"
  set -- "${args[@]}"
  name=$1; shift
  "$ALIGNBENCH" --case "$ALIGNBENCH_SOURCE_DIR/cases/cold-rmw.json" --dir "$RIG" --sizes 4K \
    "$@" --out "$WORK/g$name.json" > "$WORK/g$name.out" 2> "$WORK/g$name.err" ||
    { echo "FAIL: the run with $*" >&2; cat "$WORK/g$name.err" >&2; exit 1; }
done
figures() {  # figures FILE: estimate verdict unaligned-reads flushes-per-commit group writers
  "$PY" - "$1" << 'PY'
import json, sys
ab = json.load(open(sys.argv[1]))["alignbench"]
p = ab["pairs"][0]
u = p["unaligned"]["device_per_write"]
print(p["gain_interval_pct"]["estimate_pct"], p["verdict"].replace(" ", "_"),
      u["reads"], u["flushes"], ab["settings"].get("commits_per_sync", 1),
      ab["settings"].get("writers", 1))
PY
}
read -r e1 v1 r1 f1 n1 _ < <(figures "$WORK/g1.json")
read -r e4 v4 r4 f4 n4 _ < <(figures "$WORK/g4.json")
read -r ew vw rw fw _ w < <(figures "$WORK/gw4.json")
echo "1 per sync: gain $e1 $v1, unaligned reads $r1, flushes $f1 per commit"
echo "4 per sync: gain $e4 $v4, unaligned reads $r4, flushes $f4 per commit"
echo "4 writer threads: gain $ew $vw, unaligned reads $rw, flushes $fw per commit"
within() { "$PY" -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$@"; }
check "the results record the settings (got $n1, $n4, $w)" [ "$n1 $n4 $w" = "1 4 4" ]
check "all three: aligned faster (got $v1, $v4, $vw)" \
  [ "$v1 $v4 $vw" = "aligned_faster aligned_faster aligned_faster" ]
larger() { "$PY" -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$@"; }
check "four commits per sync: a larger gain ($e4 against $e1)" larger "$e4" "$e1"
check "four writer threads: a larger gain ($ew against $e1)" larger "$ew" "$e1"
check "a read per unaligned commit alone (got $r1)" within "$r1" 0.9 1.15
check "a read per unaligned commit in a group (got $r4)" within "$r4" 0.9 1.15
check "a flush per commit alone (got $f1)" within "$f1" 0.9 1.3
check "a flush per four commits in a group (got $f4)" within "$f4" 0.2 0.35
check "a read per unaligned commit of a writer thread (got $rw)" within "$rw" 0.9 1.15
check "a flush per four writer threads' commits (got $fw)" within "$fw" 0.2 0.35
check "the settings line says the threads" \
  grep -q "32 synced writes per run, 4 writer threads per group" "$WORK/gw4.out"
check "the settings line says it" grep -q "32 synced writes per run, 4 commits per sync" "$WORK/g4.out"
check "the result reads back" "$ALIGNBENCH" show "$WORK/g4.json" > /dev/null
finish
