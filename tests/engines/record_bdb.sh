# alignbench record by --pid on Berkeley DB 5.3 (Debian's python3-bsddb3 over libdb5.3),
# whose log file is made 10 MiB long at once and written into (a sparse file: 24 KiB in
# blocks after the first commits), single-row transactions each a write and fdatasync:
# 1. recorded by --pid after COMMITS transactions: the log is new, not recycled, with a
#    truncate to its size before its first write, and the trace says why ("sparse:");
# 2. the trace replayed on a fresh ext4 4K rig: the as-recorded variant within 5 % of the
#    untraced program's device writes and KiB per commit on the same kind of rig (recorded
#    as recycled, the replay prewrote the log and no commit allocated: 2.0 writes and 4.3
#    KiB per commit against 2.08 and 5.90 on 2026-12-07).
# Program and replay pinned to one CPU (taskset -c 0: docs/record-replay.md says why).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
COMMITS=${COMMITS:-200}
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: ptrace of a running program, a loop rig"
command -v strace > /dev/null || skip "strace missing (Debian package strace)"
"$PY" -c 'import bsddb3' 2> /dev/null || skip "$PY has no bsddb3 (Debian package python3-bsddb3)"
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")

# The program: COMMITS transactions, then ready, then (after go) COMMITS more, then done.
cat > "$WORK/bdb.py" << 'EOF'
import os, sys, time
from bsddb3 import db
home, n = sys.argv[1], int(sys.argv[2])
env = db.DBEnv()
env.open(home, db.DB_CREATE | db.DB_INIT_TXN | db.DB_INIT_LOG | db.DB_INIT_MPOOL
         | db.DB_INIT_LOCK)
d = db.DB(env)
d.open("t.db", dbtype=db.DB_BTREE, flags=db.DB_CREATE | db.DB_AUTO_COMMIT)
def commits(tag):
    for i in range(n):
        t = env.txn_begin()
        d.put(("%s%d" % (tag, i)).encode(), b"v" * 50, txn=t)
        t.commit()
commits("a")
open(home + "/ready", "w").close()
while not os.path.exists(home + "/go"):
    time.sleep(0.01)
commits("b")
open(home + "/done", "w").close()
while not os.path.exists(home + "/end"):
    time.sleep(0.01)
d.close()
env.close()
EOF

# run RECORD: the program on a fresh rig, its second COMMITS transactions counted (and,
# with RECORD=1, recorded by --pid into $WORK/trace.json); sets REAL_W and REAL_KIB.
run() {
  engine_rig
  local env=$RIG/env p
  mkdir "$env"
  taskset -c 0 "$PY" "$WORK/bdb.py" "$env" "$COMMITS" &
  p=$!
  check "bdb: ready" wait_for 60 test -e "$env/ready"
  if [ "$1" = 1 ]; then
    "$ALIGNBENCH" record --pid "$p" --file "$env/log.*" --out "$WORK/trace.json" \
      > "$WORK/record.out" 2> "$WORK/record.err" &
    REC=$!
    check "bdb by --pid: 'attached' is said" wait_for 60 grep -q "attached to" "$WORK/record.err"
  fi
  cp "$STAT" "$WORK/before"
  touch "$env/go"
  check "bdb: done" wait_for 60 test -e "$env/done"
  cp "$STAT" "$WORK/after"
  if [ "$1" = 1 ]; then
    kill -INT "$REC"
    ended "bdb by --pid: record" "$REC" 60
    check "bdb by --pid: record ends on SIGINT, exit 0" [ $? -eq 0 ]
  fi
  touch "$env/end"
  wait "$p"
  read -r REAL_W REAL_KIB _ < <(per_commit "$WORK/before" "$WORK/after" "$COMMITS")
}

# 1. Recorded by --pid.
run 1
cat "$WORK/record.out"
check "bdb by --pid: the log new, its size a truncate before its first write, said" "$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))
f, first = t["files"][0], t["commits"][0]["ops"][0]
sparse = any(l.startswith("sparse: ") for l in t["limits"])
sys.exit(0 if len(t["files"]) == 1 and f["state"] == "new" and first["op"] == "truncate"
         and first["length"] == f["size_at_open"] > 0 and sparse else 1)' "$WORK/trace.json"
check "bdb by --pid: every transaction after 'attached' a commit ($COMMITS)" "$PY" -c '
import json, sys
sys.exit(0 if len(json.load(open(sys.argv[1]))["commits"]) == int(sys.argv[2]) else 1)' \
  "$WORK/trace.json" "$COMMITS"
destroy_rig

# 2. Untraced on a fresh rig, then the trace replayed on another.
run 0
destroy_rig
real_w=$REAL_W real_kib=$REAL_KIB
engine_rig
out=$WORK/replay
mkdir "$RIG/replay"
taskset -c 0 "$ALIGNBENCH" --replay "$WORK/trace.json" --dir "$RIG/replay" --repetitions 2 \
  --out "$out.json" > "$out.txt" 2> "$out.err"
check "bdb replayed: exit 0 ($(tail -n 1 "$out.err"))" [ $? -eq 0 ]
read -r replay_w replay_kib < <("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["alignbench"]["pairs"][0]["unaligned"]["device_per_write"]
print("%.2f %.2f" % (d["writes"], d["written_kib"]))' "$out.json")
echo "bdb, per commit: real $real_w device writes, $real_kib KiB; replay as recorded $replay_w, $replay_kib"
replay_row bdb --pid "$real_w" "$real_kib" "$replay_w" "$replay_kib"
check "bdb replayed: device writes per commit within 5 % ($replay_w against $real_w)" \
  within 5 "$real_w" "$replay_w"
check "bdb replayed: KiB per commit within 5 % ($replay_kib against $real_kib)" \
  within 5 "$real_kib" "$replay_kib"
finish
