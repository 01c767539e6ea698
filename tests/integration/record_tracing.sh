# What tracing changed, said by record --pid on a loop device's ext4:
# 1. a writer that groups its writes by time (16-byte records into one page, as fast as it
#    can, an fdatasync every 20 ms, as a group commit does): under strace each write costs
#    a stop, so fewer records share a flush. record watches it untraced first, says both
#    windows' bytes per device flush in one sentence, and keeps both in the trace;
# 2. --untraced-window 0, and a writer on tmpfs (no block device): not known, said why;
# 3. a log appended to by --pid from before the attach (5000 bytes there, 100-byte
#    commits after them): its case extends, warm, with the bytes of its last block as a
#    header, not prewritten, cold and a header of the first commit's offset modulo its
#    length.
# Root: --pid attaches with ptrace to processes this shell did not start; a loop device.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (scripts/lib/common.sh installs it)"
[ "$(id -u)" -eq 0 ] || skip "not root: --pid attaches to processes record did not start"
make_rig --sector 4096 --fs ext4 --size 64M
[ "$(wc -w < /sys/dev/block/"$(mountpoint -d "$RIG")"/stat)" -ge 17 ] ||
  skip "this kernel's block stat has no flush count (Linux 5.5 and later have)"

cat > "$WORK/grouper.py" << 'EOF'
import os, sys, time
log, stop = sys.argv[1], sys.argv[2]
fd = os.open(log, os.O_WRONLY | os.O_CREAT, 0o644)
open(stop + ".ready", "w").close()
record, at, last, n = b"r" * 16, 0, time.monotonic(), 0
end = last + 60
while True:
    os.pwrite(fd, record, at)
    at = (at + 16) % 4096
    n += 1
    now = time.monotonic()
    if now - last >= 0.02:
        os.fdatasync(fd)
        last = now
        if os.path.exists(stop) or now > end:
            break
EOF
cat > "$WORK/appender.py" << 'EOF'
import os, sys, time
log, stop = sys.argv[1], sys.argv[2]
fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
os.write(fd, b"h" * 5000)
os.fdatasync(fd)
open(stop + ".ready", "w").close()
end = time.monotonic() + 60
while not os.path.exists(stop) and time.monotonic() < end:
    os.write(fd, b"c" * 100)
    os.fdatasync(fd)
    time.sleep(0.01)
EOF

# by_pid WRITER LOG OUT [record options]: WRITER started on LOG, recorded by --pid for
# 2 s once attached; record's output in OUT.out and OUT.err, the trace in OUT.json.
by_pid() {
  local writer=$1 log=$2 out=$3 pid rec _
  shift 3
  rm -f "$log" "$out".*
  "$PY" "$WORK/$writer" "$log" "$out.stop" &
  pid=$!
  cleanup_hooks+=("kill $pid 2> /dev/null")
  wait_file 10 "$out.stop.ready" || { echo "FAIL: $writer not ready" >&2; return 1; }
  "$ALIGNBENCH" record --pid "$pid" --file "$log" --out "$out.json" "$@" \
    > "$out.out" 2> "$out.err" &
  rec=$!
  for _ in $(seq 400); do grep -q "attached to" "$out.err" && break; sleep 0.05; done
  sleep 2
  kill -INT "$rec"
  wait "$rec"
  echo "$?" > "$out.status"
  touch "$out.stop"
  wait "$pid"
}

# py FILE EXPR: EXPR of the JSON in FILE (t) is true.
py() {
  "$PY" -c 'import json, sys; t = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$1" "$2"
}

o=$WORK/grouped
by_pid grouper.py "$RIG/log" "$o"
check "grouped: exit 0 ($(head -c 400 "$o.err"))" [ "$(cat "$o.status")" -eq 0 ]
check "grouped: the untraced window is said before the attach" \
  grep -q "watching 1 process(es) of [0-9]* untraced for 2.0 s first" "$o.err"
check "grouped: one sentence with both windows ($(grep -i tracing "$o.out"))" \
  grep -Eq "^  tracing changed the grouping: under strace the processes wrote [0-9.]+ K?i?B in [0-9.]+ write calls per device flush \([0-9]+ flushes in [0-9.]+ s\), untraced [0-9.]+ K?i?B in [0-9.]+ write calls per device flush \([0-9]+ flushes in [0-9.]+ s\), -[0-9]+ %: more flushes for what they wrote" \
  "$o.out"
check "grouped: both windows kept in the trace, each with flushes and writes" \
  py "$o.json" 'all(t["tracing"][w]["device_flushes"] > 0 and t["tracing"][w]["write_calls"] > 0 for w in ("untraced", "traced")) and t["tracing"]["unknown"] == ""'
per_flush='(lambda w: w["write_bytes"] / w["device_flushes"])'
check "grouped: traced, fewer bytes a flush than untraced by a quarter at least" \
  py "$o.json" "$per_flush(t['tracing']['traced']) < 0.75 * $per_flush(t['tracing']['untraced'])"

o=$WORK/no-window
by_pid grouper.py "$RIG/log" "$o" --untraced-window 0
check "--untraced-window 0: exit 0 ($(head -c 400 "$o.err"))" [ "$(cat "$o.status")" -eq 0 ]
check "--untraced-window 0: not known, said why" \
  grep -q "^  what tracing did to the grouping is not known: --untraced-window 0" "$o.out"
check "--untraced-window 0: the traced window kept all the same" \
  py "$o.json" 't["tracing"]["untraced"] is None and t["tracing"]["traced"]["device_flushes"] > 0'

o=$WORK/tmpfs
mkdir -p "$WORK/shm"
mount -t tmpfs alignbench-test "$WORK/shm" && cleanup_hooks+=("umount '$WORK/shm'")
by_pid appender.py "$WORK/shm/log" "$o"
check "tmpfs: exit 0 ($(head -c 400 "$o.err"))" [ "$(cat "$o.status")" -eq 0 ]
check "tmpfs: no untraced window watched" [ "$(grep -c watching "$o.err")" -eq 0 ]
check "tmpfs: not known, no block device ($(grep -i tracing "$o.out"))" \
  grep -q "^  what tracing did to the grouping is not known: no block device under the traced files" "$o.out"

o=$WORK/appended
by_pid appender.py "$RIG/alog" "$o"
check "appended: exit 0 ($(head -c 400 "$o.err"))" [ "$(cat "$o.status")" -eq 0 ]
check "appended: the file recycled by its state" py "$o.json" 't["files"][0]["state"] == "recycled"'
check "appended: its case extends, warm ($(head -c 600 "$o.case.json" 2> /dev/null))" \
  py "$o.case.json" 't["layout"] == "extend" and "cache" not in t'
first=$("$PY" -c 'import json, sys; t = json.load(open(sys.argv[1])); w = [op for c in t["commits"] for op in c["ops"] if op["op"] == "write"]; print(w[max(1, len(w) // 10)]["offset"])' "$o.json")
check "appended: the header is the last block's bytes before its commits ($first % 4096)" \
  py "$o.case.json" "t['log']['header'] == ($first % 4096 or 512)"
finish
