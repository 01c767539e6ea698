# alignbench record on programs no case models, as a storage engineer records them, each
# trace held against the program's own log file (the independent witness: what is on
# disk, and the count of operations this test made):
# 1. Redis 7 (appendonly, appendfsync always), recorded from its start: OPS SETs are OPS
#    commits, no header taken from its first one, the writes back to back from 0, their
#    end the AOF file's size;
# 2. the same by --pid while two busy loops load both CPUs, after SETs made before:
#    "attached" is said only once strace traces it, so every SET after it is a commit,
#    the first at the size the file had;
#    Its trace replayed on a loop rig writes as Redis does there (device writes and KiB
#    per commit within 10 %);
# 3. etcd 3.4, recorded from its start: its WAL segment, made and preallocated under
#    wal.tmp/ and renamed to wal/, is the one traced file, preallocated, with the flags it
#    was opened with and nothing "open before the trace began"; every put is a commit.
# Root (the servers' own files, ptrace of a process that is not a child); skipped under
# the sanitizers and where a program is missing (scripts/test installs them as root:
# ENGINE_PACKAGES in scripts/lib/common.sh).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
OPS=${OPS:-300}
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: ptrace of a running server, a loop rig"
for tool in strace redis-server redis-cli etcd etcdctl; do
  command -v "$tool" > /dev/null ||
    skip "$tool missing (Debian packages strace, redis-server, etcd-server, etcd-client)"
done
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")

# checked TRACE LOG WHAT...: the trace against the file LOG; python prints what differs.
checked() {
  "$PY" - "$@" << 'PY'
import json, os, sys
trace, log, start, ops, prealloc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
t = json.load(open(trace))
bad = []
if [f["path"] for f in t["files"]] != [log]:
    bad.append("files %s, not %s" % ([f["path"] for f in t["files"]], log))
writes = [op for c in t["commits"] for op in c["ops"] if op["op"] == "write"]
# A commit of an operation writes; a sync with nothing written since the one before
# (Redis's at shutdown) is kept in the trace and left out of a replay.
writing = [c for c in t["commits"] if any(op["op"] == "write" for op in c["ops"])]
if len(writing) < ops or (not prealloc and len(writing) != ops):
    bad.append("%d commits that write, for %d operations" % (len(writing), ops))
if t["header"] is not None:
    bad.append("a header was taken: %s" % t["header"])
if any("open before the trace began" in l for l in t["limits"]):
    bad.append("limits say a file was open before the trace began: %s" % t["limits"])
state = t["files"][0]["state"] if t["files"] else None
if prealloc and state != "preallocated":
    bad.append("state %s, not preallocated" % state)
if not prealloc:
    at = start
    for op in writes:
        if op["offset"] != at:
            bad.append("a write at %d, not %d (back to back from %d)" % (op["offset"], at, start))
            break
        at += op["length"]
    if at != os.path.getsize(log):
        bad.append("the writes end at %d, the file at %d" % (at, os.path.getsize(log)))
print("%s: %d commits (%d that write), %d writes, %s, limits %s" % (trace, len(t["commits"]),
      len(writing), len(writes), state, t["limits"]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}
wait_for() {  # wait_for SECONDS COMMAND...: until COMMAND succeeds
  local limit=$(($1 * 10)) i
  shift
  for ((i = 0; i < limit; i++)); do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}
sets() {  # sets SOCKET FROM COUNT: one SET per redis-cli line, each its own command
  seq "$2" $(($2 + $3 - 1)) | sed 's/.*/SET key& value&/' | redis-cli -s "$1" > /dev/null
}
redis() {  # redis DIR: the server's command line, appendfsync always, on a socket in DIR
  echo redis-server --port 0 --unixsocket "$1/sock" --dir "$1" --appendonly yes \
    --appendfsync always --save "" --daemonize no --logfile "$1/redis.log"
}

# 1. Redis from its start.
r=$WORK/redis-start
mkdir "$r"
set -m
# shellcheck disable=SC2046
"$ALIGNBENCH" record --file "$r/appendonlydir/*.incr.aof" --out "$r/trace.json" -- \
  $(redis "$r") > "$r/record.out" 2> "$r/record.err" &
rec=$!
set +m
check "redis from its start: the server answers" wait_for 20 redis-cli -s "$r/sock" ping
sets "$r/sock" 1 "$OPS"
redis-cli -s "$r/sock" shutdown nosave > /dev/null 2>&1
wait "$rec"
check "redis from its start: record ends with the server" [ $? -eq 0 ]
aof=$(ls "$r"/appendonlydir/*.incr.aof 2> /dev/null)
check "redis from its start: $OPS SETs, $OPS commits back to back, the AOF's size" \
  checked "$r/trace.json" "$aof" 0 "$OPS" 0
[ "$failed" -eq 0 ] || tail -n 5 "$r/record.err" >&2

# 2. Redis by --pid, on a loaded machine.
r=$WORK/redis-pid
mkdir "$r"
# shellcheck disable=SC2046
$(redis "$r") &
server=$!
check "redis by --pid: the server answers" wait_for 20 redis-cli -s "$r/sock" ping
sets "$r/sock" 1 50
aof=$(ls "$r"/appendonlydir/*.incr.aof)
before=$(stat -c %s "$aof")
for _ in 1 2; do (while :; do :; done) & done
set -m
"$ALIGNBENCH" record --pid "$server" --file "$r/appendonlydir/*.incr.aof" --out "$r/trace.json" \
  > "$r/record.out" 2> "$r/record.err" &
rec=$!
set +m
check "redis by --pid, loaded: 'attached' is said" wait_for 60 grep -q "attached to" "$r/record.err"
sets "$r/sock" 51 "$OPS"
kill -INT "$rec"
wait "$rec"
check "redis by --pid, loaded: record ends on SIGINT, exit 0" [ $? -eq 0 ]
stop_descendants  # the busy loops and the server
check "redis by --pid, loaded: every SET after 'attached' a commit, from the file's size ($before)" \
  checked "$r/trace.json" "$aof" "$before" "$OPS" 0
# Redis rewrites its title: no trailing empty strings from the old command line, and the
# package of redis-server, not of redis-check-rdb (the file its link points to).
check "redis by --pid: its argv without the title's padding, its own package" "$PY" -c '
import json, sys
p = json.load(open(sys.argv[1]))["program"]
print(p)
sys.exit(0 if p["argv"] and p["argv"][-1] and p["version"].startswith("redis-server ") else 1)
' "$r/trace.json"

[ "$failed" -eq 0 ] || tail -n 5 "$r/record.err" >&2

# 2b. Its trace replayed: the as-recorded variant writes as Redis did, on a fresh ext4
# loop rig with 4096-byte sectors (the loop device's counters over the SETs alone), within
# 10 % of writes and KiB per commit (record_replay.sh's bound, for the same reason: the
# journal's commits of a growing file are most of both, and the loop device sometimes
# counts a commit more).
engine_rig
mkdir "$RIG/real"
# shellcheck disable=SC2046
$(redis "$RIG/real") &
check "redis on the rig: the server answers" wait_for 20 redis-cli -s "$RIG/real/sock" ping
cp "$STAT" "$WORK/real.before"
sets "$RIG/real/sock" 1 "$OPS"
cp "$STAT" "$WORK/real.after"
redis-cli -s "$RIG/real/sock" shutdown nosave > /dev/null 2>&1
read -r real_w real_kib _ < <(per_commit "$WORK/real.before" "$WORK/real.after" "$OPS")
mkdir "$RIG/replay"
"$ALIGNBENCH" --replay "$WORK/redis-start/trace.json" --dir "$RIG/replay" --repetitions 2 \
  --out "$WORK/replay.json" > "$WORK/replay.txt" 2> "$WORK/replay.err"
check "redis replayed: exit 0 ($(tail -n 1 "$WORK/replay.err"))" [ $? -eq 0 ]
read -r replay_w replay_kib < <("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["alignbench"]["pairs"][0]["unaligned"]["device_per_write"]
print("%.2f %.2f" % (d["writes"], d["written_kib"]))' "$WORK/replay.json")
echo "redis, per commit: real $real_w device writes, $real_kib KiB; replay as recorded" \
  "$replay_w, $replay_kib"
within_10() { awk -v e="$1" -v c="$2" 'BEGIN { d = c - e; if (d < 0) d = -d; exit !(d <= 0.1 * e) }'; }
check "redis replayed: device writes per commit within 10 % ($replay_w against $real_w)" \
  within_10 "$real_w" "$replay_w"
check "redis replayed: KiB per commit within 10 % ($replay_kib against $real_kib)" \
  within_10 "$real_kib" "$replay_kib"

# 3. etcd from its start, on ports of its own.
e=$WORK/etcd
mkdir "$e"
port=$((20000 + RANDOM % 20000))
client=http://127.0.0.1:$port peer=http://127.0.0.1:$((port + 1))
set -m
"$ALIGNBENCH" record --file "$e/data/member/wal/*.wal" --out "$e/trace.json" -- \
  etcd --name t --data-dir "$e/data" --listen-client-urls "$client" \
  --advertise-client-urls "$client" --listen-peer-urls "$peer" \
  --initial-advertise-peer-urls "$peer" --initial-cluster "t=$peer" \
  > "$e/record.out" 2> "$e/record.err" &
rec=$!
set +m
put() { ETCDCTL_API=3 etcdctl --endpoints "$client" put "$1" "$2"; }
check "etcd from its start: the server answers" wait_for 30 put ready yes
for ((i = 1; i < OPS; i++)); do put "key$i" "value$i" > /dev/null; done
kill -INT "$rec"
wait "$rec"
check "etcd from its start: record ends on SIGINT with etcd, the trace saved (exit $?)" \
  [ -s "$e/trace.json" ]
wal=$(ls "$e"/data/member/wal/*.wal 2> /dev/null | head -n 1)
check "etcd from its start: its renamed WAL segment, preallocated, every put a commit" \
  checked "$e/trace.json" "$wal" 0 "$OPS" 1
[ "$failed" -eq 0 ] || tail -n 5 "$e/record.err" >&2
finish
