# alignbench record on real processes, where the trace once was silently something else:
# 1. by --pid, a parent and the child it forked before the attach, the child writing its
#    own descriptor of the log (the same number as its parent's) at 1 MiB: every write at
#    its own process's position (one table for both recorded one's at the other's);
# 2. by --pid, a log sized ahead and written into (mostly holes, as Berkeley DB's):
#    new, with a truncate to its size before its first write, and said;
# 3. by --pid, a log there before in two extents: the trace says its layout from before
#    is not reproduced;
# 4. from the start, a log made by O_TMPFILE and linked: recorded under its name;
# 5. from the start, through setpriv: the program recorded is the one setpriv ran;
# 6. 200 equal writes a sync make a case of 200 writes (it said 0, which --case refused
#    after "case file saved"), 2000 none, and record says why.
# Root: --pid attaches with ptrace to processes this shell did not start.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (scripts/lib/common.sh installs it)"
[ "$(id -u)" -eq 0 ] || skip "not root: --pid attaches to processes record did not start"
command -v setpriv > /dev/null || skip "setpriv missing (util-linux)"
d=$WORK/pid
mkdir -p "$d"

# A writer: MODE family, sparse or extents. It prepares DIR/log, says ready, waits for
# DIR/go, makes 5 commits of 100 B (family: each of parent and child), says done.
cat > "$WORK/writer.py" << 'EOF'
import os, sys, time
mode, d = sys.argv[1], sys.argv[2]
log = d + "/log"
def wait(name):
    while not os.path.exists(d + "/" + name):
        time.sleep(0.01)
def commits(fd, tag):
    for _ in range(5):
        os.write(fd, b"x" * 100)
        os.fdatasync(fd)
        time.sleep(0.02)
    open(d + "/done-" + tag, "w").close()
fd = os.open(log, os.O_WRONLY | os.O_CREAT, 0o644)
if mode == "family":
    os.write(fd, b"h" * 4096)
    os.fdatasync(fd)
    if os.fork() == 0:
        os.close(fd)  # the same descriptor number as its parent's, its own description
        own = os.open(log, os.O_WRONLY)
        assert own == fd
        os.lseek(own, 1 << 20, os.SEEK_SET)
        open(d + "/ready-child", "w").close()
        wait("go")
        commits(own, "child")
        os._exit(0)
    wait("ready-child")
elif mode == "sparse":
    os.ftruncate(fd, 1 << 20)
    os.write(fd, b"h" * 4096)
    os.fsync(fd)
elif mode == "extents":
    os.pwrite(fd, b"a" * 4096, 0)
    os.pwrite(fd, b"b" * 4096, 8192)
    os.fsync(fd)
    os.lseek(fd, 0, os.SEEK_SET)
open(d + "/ready", "w").close()
wait("go")
commits(fd, "parent")
if mode == "family":
    os.wait()
EOF

# by_pid MODE: the writer started, recorded by --pid from its ready to its last commit.
by_pid() {
  rm -rf "$d" && mkdir -p "$d"
  "$PY" "$WORK/writer.py" "$1" "$d" &
  local writer=$! rec
  wait_file 10 "$d/ready" || return 1
  "$ALIGNBENCH" record --pid "$writer" --file "$d/log" --out "$d/trace.json" \
    > "$d/record.out" 2> "$d/record.err" &
  rec=$!
  for _ in $(seq 200); do grep -q "attached to" "$d/record.err" && break; sleep 0.05; done
  touch "$d/go"
  wait_file 10 "$d/done-parent"
  [ "$1" != family ] || wait_file 10 "$d/done-child"
  wait "$writer"
  kill -INT "$rec" 2> /dev/null
  wait "$rec"
}

# py EXPR: EXPR of the trace t (its JSON) is true.
py() {
  "$PY" -c 'import json, sys; t = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$d/trace.json" "$1"
}
writes='[(op["offset"], op["length"]) for c in t["commits"] for op in c["ops"] if op["op"] == "write"]'

by_pid family
check "family by --pid: recorded ($(head -c 300 "$d/record.err"))" [ -s "$d/trace.json" ]
check "family by --pid: the parent's 5 writes after 4096, the child's 5 from 1 MiB" \
  py "sorted($writes) == sorted([(4096 + 100 * i, 100) for i in range(5)] + [((1 << 20) + 100 * i, 100) for i in range(5)])"

by_pid sparse
check "sparse by --pid: recorded ($(head -c 300 "$d/record.err"))" [ -s "$d/trace.json" ]
check "sparse by --pid: new, not recycled" py 't["files"][0]["state"] == "new"'
check "sparse by --pid: a truncate to 1 MiB before the first write" \
  py 't["commits"][0]["ops"][0] == {"op": "truncate", "file": 0, "length": 1 << 20}'
check "sparse by --pid: its writes from 4096" py "${writes}[0] == (4096, 100)"
check "sparse by --pid: said in the limits" py 'any(l.startswith("sparse: ") for l in t["limits"])'

by_pid extents
check "extents by --pid: recycled ($(head -c 300 "$d/record.err"))" py 't["files"][0]["state"] == "recycled"'
check "extents by --pid: its two extents from before said, not reproduced" \
  py 'any(l.startswith("layout: ") and "in 2 extents" in l and "not reproduced" in l for l in t["limits"])'

# From the start: an O_TMPFILE log linked after its first commit, through setpriv.
rm -rf "$d" && mkdir -p "$d"
cat > "$WORK/tmpfile.py" << 'EOF'
import ctypes, os, sys
d = sys.argv[1]
fd = os.open(d, os.O_TMPFILE | os.O_RDWR, 0o600)
os.write(fd, b"x" * 100)
os.fsync(fd)
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_EMPTY_PATH = -100, 0x1000
if libc.linkat(fd, b"", AT_FDCWD, (d + "/log").encode(), AT_EMPTY_PATH) != 0:
    sys.exit("linkat: errno %d" % ctypes.get_errno())
for _ in range(4):
    os.write(fd, b"x" * 100)
    os.fdatasync(fd)
EOF
"$ALIGNBENCH" record --file "$d/log" --out "$d/trace.json" -- \
  setpriv --reuid=0 "$PY" "$WORK/tmpfile.py" "$d" > "$d/record.out" 2> "$d/record.err"
check "O_TMPFILE through setpriv: exit 0 ($(head -c 300 "$d/record.err"))" [ $? -eq 0 ]
# Its first commit, made before the file had the name --file gives, is not kept (as
# etcd's under wal.tmp/); its position is.
check "O_TMPFILE: the log under its name, 4 commits from 100" \
  py "t['files'][0]['path'] == '$d/log' and len(t['commits']) == 4 and $writes == [(100 * i, 100) for i in range(1, 5)]"
check "setpriv: the program recorded is python3, its words from there" \
  py "t['program']['argv'] == ['$PY', '$WORK/tmpfile.py', '$d']"
check "setpriv: said" grep -q "recorded as $PY, the program setpriv ran" "$d/record.err"
rm -f "$d/log" "$d/trace.json"
(cd "$d" && "$ALIGNBENCH" record --out "$d/trace.json" -- "$PY" "$WORK/tmpfile.py" "$d" \
  > "$d/record.out" 2> "$d/record.err")
check "O_TMPFILE without --file: exit 0 ($(head -c 300 "$d/record.err"))" [ $? -eq 0 ]
check "O_TMPFILE without --file: all 5 commits from 0, under its name" \
  py "t['files'][0]['path'] == '$d/log' and $writes == [(100 * i, 100) for i in range(5)]"
cat > "$WORK/many.py" << 'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for _ in range(12):
    for _ in range(int(sys.argv[2])):
        os.write(fd, b"x" * 8)
    os.fdatasync(fd)
EOF
for n in 200 2000; do
  rm -rf "$d" && mkdir -p "$d"
  "$ALIGNBENCH" record --file "$d/log" --out "$d/t.json" -- "$PY" "$WORK/many.py" "$d/log" "$n" \
    > "$d/record.out" 2> "$d/record.err"
  check "$n writes a sync: exit 0 ($(head -c 300 "$d/record.err"))" [ $? -eq 0 ]
  if [ "$n" -eq 200 ]; then
    check "200 writes a sync: a case of 200 writes, 200 a sync" "$PY" -c '
import json, sys
c = json.load(open(sys.argv[1]))
sys.exit(0 if c["writes"] == 200 and c["commits_per_sync"] == 200 else 1)' "$d/t.case.json"
  else
    check "2000 writes a sync: no case file" [ ! -e "$d/t.case.json" ]
    check "2000 writes a sync: said why" \
      grep -q "no case file: 2000 writes of 8 B share each sync, and the case they make is refused: .*at most 1024" "$d/record.out"
  fi
done
finish
