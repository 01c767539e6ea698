# alignbench record's --file as the user means it, against a real writer under strace:
# 1. a pattern through a symbolic link, or with "..", matches the file the program writes
#    (strace names it by its real path);
# 2. a pattern that matches nothing names, in its hint, the files the program did write
#    and sync;
# 3. a program that writes its log only through a shared mapping is told so;
# 4. a log cut back to 0 and preallocated again after it was written: the ftruncate and
#    the fallocate are ops of the trace, and its replay makes them too (strace counts);
# 5. --out, or its case file, made or changed by the program while it is recorded: left
#    as the program left it, even with --force, and the recording kept in
#    alignbench-trace-PID-RANDOM.json in the working directory, which the error names.
source "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || skip "strace missing (scripts/lib/common.sh installs it)"
d=$WORK/files
mkdir -p "$d/real"
ln -s real "$d/link"
# A writer of COUNT synced appends to FILE; MMAP=1: through a shared mapping, with msync.
cat > "$WORK/writer.py" << 'EOF'
import mmap, os, sys
path, count = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
if os.environ.get("MMAP"):
    os.ftruncate(fd, 4096)
    m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_WRITE | mmap.PROT_READ)
    for i in range(count):
        m[i * 10:i * 10 + 10] = b"x" * 10
        m.flush()
else:
    for i in range(count):
        if os.environ.get("TRUNC") and i == count // 2:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.posix_fallocate(fd, 0, 65536)
        os.write(fd, b"x" * 100)
        os.fdatasync(fd)
EOF
commits() {  # commits TRACE: the commits a trace holds, or -1
  "$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["commits"]))' "$1" \
    2> /dev/null || echo -1
}

for pattern in "$d/link/log" "$d/link/*" "$d/real/../link/log" "real/log"; do
  rm -f "$d/real/log" "$d/t.json"
  (cd "$d" && "$ALIGNBENCH" record --file "$pattern" --out "$d/t.json" -- \
    "$PY" "$WORK/writer.py" "$d/link/log" 5 > /dev/null 2> "$d/err")
  check "--file $pattern: exit 0 ($(head -n 1 "$d/err"))" [ $? -eq 0 ]
  check "--file $pattern: the 5 commits recorded ($(commits "$d/t.json"))" \
    [ "$(commits "$d/t.json")" -eq 5 ]
done

rm -f "$d/real/log" "$d/t.json"
"$ALIGNBENCH" record --file "$d/other" --out "$d/t.json" -- \
  "$PY" "$WORK/writer.py" "$d/real/log" 3 > /dev/null 2> "$d/err"
status=$?
check "--file matching nothing: exit 2 (got $status)" [ "$status" -eq 2 ]
check "--file matching nothing: the hint names the file it wrote and synced" \
  grep -q "wrote nothing to trace: nothing was written to a file matching --file $d/other; it wrote and synced $d/real/log: give --file one of those" "$d/err"
check "--file matching nothing: no trace saved" [ ! -e "$d/t.json" ]

MMAP=1 "$ALIGNBENCH" record --file "$d/real/map" --out "$d/t.json" -- \
  "$PY" "$WORK/writer.py" "$d/real/map" 3 > /dev/null 2> "$d/err"
status=$?
check "writes only through a shared mapping: exit 2 (got $status)" [ "$status" -eq 2 ]
check "writes only through a shared mapping: it says so" \
  grep -q "mmap of $d/real/map with PROT_WRITE and MAP_SHARED.*cannot be recorded: strace sees no write" "$d/err"
[ "$failed" -eq 0 ] || cat "$d/err" >&2

rm -f "$d/real/log" "$d/t.json"
TRUNC=1 "$ALIGNBENCH" record --file "$d/real/log" --out "$d/t.json" -- \
  "$PY" "$WORK/writer.py" "$d/real/log" 6 > /dev/null 2> "$d/err"
check "cut back and preallocated again: recorded (exit $?)" [ -s "$d/t.json" ]
check "cut back and preallocated again: the 4th commit truncates to 0, allocates, writes at 0" \
  "$PY" -c '
import json, sys
ops = [(o["op"], o.get("offset"), o.get("length")) for o in json.load(open(sys.argv[1]))["commits"][3]["ops"]]
print(ops)
sys.exit(0 if ops[:3] == [("truncate", None, 0), ("allocate", 0, 65536), ("write", 0, 100)] else 1)
' "$d/t.json"
mkdir "$d/replay"
strace -f -qq -e trace=ftruncate,fallocate -o "$d/replay.strace" \
  "$ALIGNBENCH" --replay "$d/t.json" --dir "$d/replay" --repetitions 2 > /dev/null 2> "$d/err"
check "cut back and preallocated again: replayed (exit $?)" [ -s "$d/replay.strace" ]
# Two runs of each variant, each commit 4 of them making both calls on its test file.
truncates=$(grep -c 'ftruncate([0-9]*, 0)' "$d/replay.strace")
allocates=$(grep -c 'fallocate([0-9]*, 0, 0, 65536)' "$d/replay.strace")
check "cut back and preallocated again: the replay truncates and allocates in each of its 4 runs ($truncates, $allocates)" \
  [ "$truncates,$allocates" = "4,4" ]
[ "$failed" -eq 0 ] || cat "$d/err" >&2

# 5. The program writes --out (or the case file) while it is recorded.
cat > "$WORK/taker.py" << 'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
for _ in range(4):
    os.write(fd, b"x" * 100)
    os.fsync(fd)
open(sys.argv[2], "w").write("the program's own\n")
EOF
mkdir "$d/take"
for force in "" --force; do
  for taken in t.json t.case.json; do
    rm -f "$d/take"/*
    [ -z "$force" ] || echo "before" > "$d/take/$taken"
    (cd "$d/take" && "$ALIGNBENCH" record --file "$d/take/log" --out "$d/take/t.json" $force \
      -- "$PY" "$WORK/taker.py" "$d/take/log" "$d/take/$taken" > out 2> err)
    status=$?
    what="$taken written by the program${force:+, --force}"
    check "$what: left as the program wrote it" grep -qx "the program's own" "$d/take/$taken"
    if [ "$taken" = t.json ]; then
      kept=$(compgen -G "$d/take/alignbench-trace-*.json" | head -n 1)
      check "$what: exit 4 (got $status)" [ "$status" -eq 4 ]
      check "$what: the recording kept in a fallback the error names, 4 commits" \
        "$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if len(t["commits"]) == 4 and ("kept in " + sys.argv[1]) in open(sys.argv[2]).read() else 1)
' "${kept:-none}" "$d/take/err"
    else
      check "$what: exit 0 (got $status), the trace saved" [ "$status" -eq 0 ]
      check "$what: the case file not written, said" grep -q "the case file is not written" "$d/take/err"
    fi
    [ "$failed" -eq 0 ] || cat "$d/take/err" >&2
  done
done
finish
