# alignbench record on programs no case models, as a storage engineer records them, each
# trace held against the program's own log file (the independent witness: what is on
# disk, and the count of operations this test made):
# 1. Redis 7 (appendonly, appendfsync always), recorded from its start: OPS SETs are OPS
#    commits, no header taken from its first one, the writes back to back from 0, their
#    end the AOF file's size;
# 2. the same by --pid while two busy loops load both CPUs, after SETs made before:
#    "attached" is said only once strace traces it, so every SET after it is a commit,
#    the first at the size the file had;
#    2b. the trace of 1 replayed on a loop rig writes as Redis does there (device writes
#    and KiB per commit within 5 %);
# 3. etcd 3.4, recorded from its start: its WAL segment, made and preallocated under
#    wal.tmp/ and renamed to wal/, is the one traced file, preallocated, with the flags it
#    was opened with and nothing "open before the trace began"; every put is a commit;
#    the writes back to back, ending where the segment's records end (read from the
#    file's own framing), from the end of the records etcd made the segment with (record
#    keeps no write made before the rename: see section 3);
# 4. the same by --pid while two busy loops load both CPUs, after puts made before: the
#    segment, open before, is preallocated (its unwritten extents) with no limit said;
#    every put after "attached" is exactly one commit; the writes back to back from where
#    the records ended before attaching to where they end after;
#    4b. the trace of 3 replayed on a loop rig writes as etcd does there, its WAL alone on
#    the rig (device writes and KiB per commit within 5 %).
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

# checked [--etcd-wal] TRACE LOG START OPS: the trace against the file LOG; python prints
# what differs. OPS: exactly that many commits that write, or at least that many ("300+").
# The writes go back to back from START; they end at LOG's size, or with --etcd-wal where
# the records of LOG, an etcd WAL segment, end (its size is the 64,000,000 bytes it was
# preallocated with), each commit at the end of a record, and LOG is preallocated. A
# record is framed by a little-endian 8-byte length whose top byte, with its top bit set,
# gives the zeros that pad it to 8 bytes; zeros follow the last one. START "made": the end
# of the records etcd made the segment with (crc, metadata, then the snapshot record).
# checked --wal-end LOG: prints where the records of the etcd WAL segment LOG end.
checked() {
  "$PY" - "$@" << 'PY'
import json, os, sys
def records(path):  # (start, end, type) of each record; type 5 is a snapshot
    out, at = [], 0
    with open(path, "rb") as f:
        while True:
            f.seek(at)
            field = int.from_bytes(f.read(8), "little")
            if field == 0:
                return out
            end = at + 8 + (field & (1 << 56) - 1) + (field >> 56 & 7 if field >> 63 else 0)
            body = f.read(2)  # the record's protobuf: field 1, its type
            out.append((at, end, body[1] if body[:1] == b"\x08" else None))
            at = end
args = sys.argv[1:]
if args[0] == "--wal-end":
    print(records(args[1])[-1][1] if records(args[1]) else 0)
    sys.exit(0)
wal = args[0] == "--etcd-wal"
trace, log, start, ops = args[1:] if wal else args
t = json.load(open(trace))
bad = []
recs = records(log) if wal else []
ends = {r[1] for r in recs}
if start == "made":
    start = next(r[1] for r in recs if r[2] == 5)
start = int(start)
if [f["path"] for f in t["files"]] != [log]:
    bad.append("files %s, not %s" % ([f["path"] for f in t["files"]], log))
# A commit of an operation writes; a sync with nothing written since the one before
# (Redis's at shutdown) is kept in the trace and left out of a replay.
writing = [c for c in t["commits"] if any(op["op"] == "write" for op in c["ops"])]
if len(writing) < int(ops.rstrip("+")) or (not ops.endswith("+") and len(writing) != int(ops)):
    bad.append("%d commits that write, for %s operations" % (len(writing), ops))
if t["header"] is not None:
    bad.append("a header was taken: %s" % t["header"])
if any("open before the trace began" in l for l in t["limits"]):
    bad.append("limits say a file was open before the trace began: %s" % t["limits"])
state = t["files"][0]["state"] if t["files"] else None
if wal and state != "preallocated":
    bad.append("state %s, not preallocated" % state)
at = start
for op in [op for c in t["commits"] for op in c["ops"]] + t["after_last_commit"]:
    if op["op"] == "write" and op["offset"] != at:
        bad.append("a write at %d, not %d (back to back from %d)" % (op["offset"], at, start))
        break
    if op["op"] == "write":
        at += op["length"]
    elif wal and at not in ends | {start}:
        bad.append("a commit ends at %d, inside a record of the file" % at)
        break
end = recs[-1][1] if wal and recs else os.path.getsize(log)
if at != end:
    bad.append("the writes end at %d, the %s at %d" % (at, "records" if wal else "file", end))
print("%s: %d commits (%d that write), writes from %d to %d, %s, limits %s" % (trace,
      len(t["commits"]), len(writing), start, at, state, t["limits"]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}
# up NAME PID SECONDS LOG... -- COMMAND...: until COMMAND succeeds (the server answers),
# a check. When the server's process PID ends first, or SECONDS pass, the test fails at
# once with the tail of each LOG: all that follows needs the server, and each client
# would only wait out its own timeout against a dead one (etcd, its port taken, once kept
# this test retrying for 7 minutes).
up() {
  local name=$1 pid=$2 limit=$(($3 * 10)) logs=() i log
  shift 3
  while [ "$1" != -- ]; do logs+=("$1"); shift; done
  shift
  for ((i = 0; i < limit; i++)); do
    "$@" > /dev/null 2>&1 && { check "$name: the server answers" true; return 0; }
    alive "$pid" || break
    sleep 0.1
  done
  if alive "$pid"; then
    check "$name: the server answers (not within $3 s)" false
  else
    check "$name: the server answers (it ended first)" false
  fi
  for log in "${logs[@]}"; do
    [ -s "$log" ] && { echo "--- the tail of $log:"; tail -n 10 "$log"; } >&2
  done
  finish
  exit 1
}
# free_ports N: N TCP ports of 127.0.0.1 the kernel gives as free, bound to port 0 all at
# once (so that they differ) and closed again. A port picked at random may be one another
# test or service holds, and etcd then ends with "bind: address already in use".
free_ports() {
  "$PY" - "$1" << 'PY'
import socket, sys
held = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in held:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in held))
PY
}
sets() {  # sets SOCKET FROM COUNT: one SET per redis-cli line, each its own command
  seq "$2" $(($2 + $3 - 1)) | sed 's/.*/SET key& value&/' | redis-cli -s "$1" > /dev/null
}
redis() {  # redis DIR: the server's command line, appendfsync always, on a socket in DIR
  echo redis-server --port 0 --unixsocket "$1/sock" --dir "$1" --appendonly yes \
    --appendfsync always --save "" --daemonize no --logfile "$1/redis.log"
}
# etcd_at DATA [ARGS...]: sets ETCD, the command line of a one-member etcd with its data
# in DATA, its clients and its peer each on a port the kernel gave as free (free_ports),
# CLIENT, its clients' URL, and PEER, its peer's.
etcd_at() {
  local ports
  read -r -a ports < <(free_ports 2)
  CLIENT=http://127.0.0.1:${ports[0]}
  PEER=http://127.0.0.1:${ports[1]}
  ETCD=(etcd --name t --data-dir "$1" --listen-client-urls "$CLIENT"
    --advertise-client-urls "$CLIENT" --listen-peer-urls "$PEER"
    --initial-advertise-peer-urls "$PEER" --initial-cluster "t=$PEER" "${@:2}")
}
etcd_put() { ETCDCTL_API=3 etcdctl --endpoints "$1" put "$2" "$3" > /dev/null; }
# etcd_ready: the etcd of etcd_at takes a put, and it is that etcd (its member has PEER):
# not another one that holds CLIENT's port, which would answer while ours ends.
etcd_ready() {
  etcd_put "$CLIENT" ready yes &&
    ETCDCTL_API=3 etcdctl --endpoints "$CLIENT" member list | grep -qF "$PEER"
}
etcd_puts() {  # etcd_puts URL FROM COUNT: one etcdctl per put, each its own request
  local i
  for ((i = $2; i < $2 + $3; i++)); do etcd_put "$1" "key$i" "value$i" || return 1; done
}
# replayed NAME TRACE: the trace replayed in $RIG/NAME-replay, twice per variant, its
# table printed; sets REPLAY_W and REPLAY_KIB, the as-recorded (unaligned) variant's
# device writes and KiB per commit.
replayed() {
  local out=$WORK/$1-replay status
  mkdir "$RIG/$1-replay"
  "$ALIGNBENCH" --replay "$2" --dir "$RIG/$1-replay" --repetitions 2 --out "$out.json" \
    > "$out.txt" 2> "$out.err"
  status=$?
  check "$1 replayed: exit 0 (exit $status: $(tail -n 1 "$out.err"))" [ "$status" -eq 0 ]
  cat "$out.txt"
  read -r REPLAY_W REPLAY_KIB < <("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["alignbench"]["pairs"][0]["unaligned"]["device_per_write"]
print("%.2f %.2f" % (d["writes"], d["written_kib"]))' "$out.json")
}
# attach_loaded NAME DIR PID PATTERN: two busy loops load both CPUs, then record --pid PID
# --file PATTERN runs in the background (a process group of its own) into DIR/trace.json;
# REC: its PID. Checks that "attached" is said.
attach_loaded() {
  for _ in 1 2; do (while :; do :; done) & done
  set -m
  "$ALIGNBENCH" record --pid "$3" --file "$4" --out "$2/trace.json" \
    > "$2/record.out" 2> "$2/record.err" &
  REC=$!
  set +m
  check "$1 by --pid, loaded: 'attached' is said" wait_for 60 grep -q "attached to" "$2/record.err"
}
# detach NAME: SIGINT to REC, which must end with exit 0; then the busy loops and the
# server are stopped.
detach() {
  kill -INT "$REC"
  ended "$1 by --pid: record" "$REC" 60
  check "$1 by --pid, loaded: record ends on SIGINT, exit 0" [ $? -eq 0 ]
  stop_descendants
}
# against_real NAME WRITES KIB: the replay's figures within 5 % of the real program's.
against_real() {
  check "$1 replayed: device writes per commit within 5 % ($REPLAY_W against $2)" \
    within 5 "$2" "$REPLAY_W"
  check "$1 replayed: KiB per commit within 5 % ($REPLAY_KIB against $3)" \
    within 5 "$3" "$REPLAY_KIB"
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
up "redis from its start" "$rec" 20 "$r/redis.log" "$r/record.out" "$r/record.err" -- \
  redis-cli -s "$r/sock" ping
sets "$r/sock" 1 "$OPS"
redis-cli -s "$r/sock" shutdown nosave > /dev/null 2>&1
ended "redis from its start: record" "$rec" 60
check "redis from its start: record ends with the server" [ $? -eq 0 ]
aof=$(ls "$r"/appendonlydir/*.incr.aof 2> /dev/null)
check "redis from its start: $OPS SETs, $OPS commits back to back, the AOF's size" \
  checked "$r/trace.json" "$aof" 0 "$OPS"
[ "$failed" -eq 0 ] || tail -n 5 "$r/record.err" >&2

# 2. Redis by --pid, on a loaded machine.
r=$WORK/redis-pid
mkdir "$r"
# shellcheck disable=SC2046,SC2091
$(redis "$r") &
server=$!
up "redis by --pid" "$server" 20 "$r/redis.log" -- redis-cli -s "$r/sock" ping
sets "$r/sock" 1 50
aof=$(ls "$r"/appendonlydir/*.incr.aof)
before=$(stat -c %s "$aof")
attach_loaded redis "$r" "$server" "$r/appendonlydir/*.incr.aof"
sets "$r/sock" 51 "$OPS"
detach redis
check "redis by --pid, loaded: every SET after 'attached' a commit, from the file's size ($before)" \
  checked "$r/trace.json" "$aof" "$before" "$OPS"
# Redis rewrites its title: no trailing empty strings from the old command line, and the
# package of redis-server, not of redis-check-rdb (the file its link points to).
check "redis by --pid: its argv without the title's padding, its own package" "$PY" -c '
import json, sys
p = json.load(open(sys.argv[1]))["program"]
print(p)
sys.exit(0 if p["argv"] and p["argv"][-1] and p["version"].startswith("redis-server ") else 1)
' "$r/trace.json"

[ "$failed" -eq 0 ] || tail -n 5 "$r/record.err" >&2

# 2b. The trace of 1 replayed: the as-recorded variant writes as Redis did, on a fresh
# ext4 loop rig with 4096-byte sectors (the loop device's counters over the SETs alone),
# within 5 % of writes and KiB per commit (tighter than record_replay.sh's 10 %: 300
# commits, where one more journal commit the loop device counts is 0.3 %; measured within
# 1 %).
engine_rig
mkdir "$RIG/real"
# shellcheck disable=SC2046,SC2091
$(redis "$RIG/real") &
up "redis on the rig" $! 20 "$RIG/real/redis.log" -- redis-cli -s "$RIG/real/sock" ping
cp "$STAT" "$WORK/real.before"
sets "$RIG/real/sock" 1 "$OPS"
cp "$STAT" "$WORK/real.after"
redis-cli -s "$RIG/real/sock" shutdown nosave > /dev/null 2>&1
read -r real_w real_kib _ < <(per_commit "$WORK/real.before" "$WORK/real.after" "$OPS")
replayed redis "$WORK/redis-start/trace.json"
echo "redis, per commit: real $real_w device writes, $real_kib KiB; replay as recorded" \
  "$REPLAY_W, $REPLAY_KIB"
replay_row redis start "$real_w" "$real_kib" "$REPLAY_W" "$REPLAY_KIB"
against_real redis "$real_w" "$real_kib"

# 3. etcd from its start, on ports of its own. etcd writes its records back to back with
# write(2) at the file's position, each commit (one put: its entry and the hard state)
# then fdatasync'd. It makes the segment under wal.tmp/ with three records (crc,
# metadata, an empty snapshot: 80 bytes), fdatasync'd before it renames the directory
# to wal/; record keeps no write or sync of a path --file does not match when it is made,
# so the trace lacks that first commit and its writes start at the records' end. The
# commits after it begin with etcd's own start (the member's entries, its election, the
# cluster version: 3 or 4 commits, as they fall in time): OPS puts give OPS commits and a
# few more.
e=$WORK/etcd
mkdir "$e"
etcd_at "$e/data"
set -m
"$ALIGNBENCH" record --file "$e/data/member/wal/*.wal" --out "$e/trace.json" -- "${ETCD[@]}" \
  > "$e/record.out" 2> "$e/record.err" &
rec=$!
set +m
up "etcd from its start" "$rec" 30 "$e/record.out" "$e/record.err" -- etcd_ready
check "etcd from its start: the puts answered" etcd_puts "$CLIENT" 1 $((OPS - 1))
kill -INT "$rec"
ended "etcd from its start: record" "$rec" 60
check "etcd from its start: record ends on SIGINT with etcd, the trace saved (exit $?)" \
  [ -s "$e/trace.json" ]
wal=$(ls "$e"/data/member/wal/*.wal)
check "etcd from its start: its renamed WAL segment, preallocated, every put a commit, the writes back to back to its records' end" \
  checked --etcd-wal "$e/trace.json" "$wal" made "$OPS+"
[ "$failed" -eq 0 ] || tail -n 5 "$e/record.err" >&2

# 4. etcd by --pid, on a loaded machine. The segment was open before: its position and
# flags come from /proc's fdinfo, its state from FIEMAP (a 64,000,000-byte preallocated
# segment holding a few KiB: preallocated), and no limit is due. The count is exact: each
# put is one raft entry, saved with its hard state and fdatasync'd before etcdctl has its
# answer, one put at a time, and once it serves a one-member etcd proposes nothing of its
# own (no leases, no compaction, a snapshot only every 100,000 entries); a put in two
# commits, two in one, or one etcd added is something to know. That etcd answers after
# the fdatasync (strace shows its answer's write to the socket after it) also makes the
# records' end before attaching the place the writes must start.
e=$WORK/etcd-pid
mkdir "$e"
etcd_at "$e/data"
"${ETCD[@]}" > "$e/etcd.log" 2>&1 &
server=$!
up "etcd by --pid" "$server" 30 "$e/etcd.log" -- etcd_ready
etcd_puts "$CLIENT" 1 49
wal=$(ls "$e"/data/member/wal/*.wal)
before=$(checked --wal-end "$wal")
attach_loaded etcd "$e" "$server" "$e/data/member/wal/*.wal"
check "etcd by --pid, loaded: the puts answered" etcd_puts "$CLIENT" 50 "$OPS"
detach etcd
check "etcd by --pid, loaded: preallocated, every put after 'attached' one commit, back to back from the records' end ($before)" \
  checked --etcd-wal "$e/trace.json" "$wal" "$before" "$OPS"
[ "$failed" -eq 0 ] || tail -n 5 "$e/record.err" >&2

# 4b. The trace of 3 replayed against etcd on a fresh rig, as Redis's in 2b: etcd's WAL
# alone on the rig (--wal-dir; its bbolt database, which commits on its own, in $WORK),
# what its start left unwritten written before the counters are copied, and nothing but
# the segment written between the copies; one commit per put, as 4 checks.
engine_rig
e=$WORK/etcd-rig
mkdir "$e"
etcd_at "$e/data" --wal-dir "$RIG/real-wal"
"${ETCD[@]}" > "$e/etcd.log" 2>&1 &
up "etcd on the rig" $! 30 "$e/etcd.log" -- etcd_ready
sync -f "$RIG"
touch "$e/marker"
cp "$STAT" "$e/before"
check "etcd on the rig: the puts answered" etcd_puts "$CLIENT" 1 "$OPS"
cp "$STAT" "$e/after"
wal=$(ls "$RIG"/real-wal/*.wal)
check "etcd on the rig: only its WAL segment written during the puts" \
  [ "$(find "$RIG" -newer "$e/marker")" = "$wal" ]
stop_descendants  # the server, before its rig goes
read -r real_w real_kib _ < <(per_commit "$e/before" "$e/after" "$OPS")
replayed etcd "$WORK/etcd/trace.json"
echo "etcd, per commit: real $real_w device writes, $real_kib KiB; replay as recorded" \
  "$REPLAY_W, $REPLAY_KIB"
replay_row etcd start "$real_w" "$real_kib" "$REPLAY_W" "$REPLAY_KIB"
against_real etcd "$real_w" "$real_kib"
finish
