# alignbench record on programs whose commit is more than one file, as a storage engineer
# records them from their start: SQLite 3.40 (the sqlite3 CLI, synchronous=FULL) in each
# of its journal modes, DELETE, TRUNCATE, PERSIST and WAL, LMDB 0.9 (python3-lmdb, sync
# on) and LevelDB 1.23 (python3-plyvel, puts with sync=True: a program first checked here
# after the replay was built, and held without a change to the code). Each makes OPS
# transactions (default 100) of one row each: sqlite3 one INSERT per statement in
# autocommit, from one script on its standard input (one process, OPS commits); LMDB one
# put per write transaction; LevelDB one put each. For each:
# 1. recorded from its start (alignbench record --file DIR/*), the program exits 0 and the
#    trace is saved;
# 2. the trace against an independent reading: the same program again under plain strace,
#    its log counted per file here, not by the recorder's code. Both must hold the same
#    files (those under DIR written or synced) and, per file, the same syncs by call
#    (fsync, fdatasync, sync_file_range, writes to a descriptor opened O_DSYNC or O_SYNC,
#    pwritev2 with RWF_DSYNC), truncates, unlinks and re-creations, and per directory the
#    same directory syncs (the trace's op kinds by name: sync, truncate, unlink, create,
#    sync_dir), and those in the same order: commit by commit, as a commit ends at each
#    sync. A file renamed goes on under its new name, and one renamed over is kept as
#    NAME (replaced), unlinked there, as docs/record-replay.md says (LevelDB's CURRENT,
#    written as 000001.dbtmp and renamed);
# 3. the program on a fresh ext4 loop rig with 4096-byte sectors and direct I/O, its
#    device's writes, KiB written and flushes counted over the OPS transactions alone
#    (after a sync, so that its setup is on the disk and out of the count), pinned to
#    one CPU as the replay is: ext4 takes a file's blocks from a per-CPU pool while it is
#    under 64 KiB, and a program that moved between CPUs then got a log of many extents
#    that journals its extent block every commit (SQLite WAL 31.4 to 31.9 KiB per commit
#    in three runs of four, 28.0 pinned);
# 4. the trace of 1 replayed on a fresh rig (alignbench --replay, twice per variant),
#    the variant the result names "as recorded" read;
# 5. that variant's device writes, KiB and flushes per commit within 5 % of the program's
#    per transaction (record_programs.sh's bound: OPS commits, where a journal commit more
#    or less is 1 %; the trace's commits from the setup and the close, 1 to 3 of them, are
#    about as many percent).
# A replay that writes only one file of each commit, with one sync call for all, fails 5
# for the rollback journals and LMDB; one without the reads and stats fails PERSIST's
# flushes (Linux 6.13+ stamps a change finely once its timestamps were read, and the
# directory's sync then commits the journal). The failures print the figures.
# 6. LMDB by --pid while two busy loops load both CPUs: a python3-lmdb process that made
#    transactions before, recorded (alignbench record --pid --file DIR/*) once "attached"
#    is said, makes OPS write transactions, then waits until record is stopped by SIGINT
#    (exit 0). The trace holds exactly OPS commits, LMDB's own count of them (its last
#    transaction id, before and after), each the data pages written and fdatasync'd, then
#    the meta page written through the descriptor opened O_DSYNC: its syncs fdatasync
#    then O_DSYNC, the last of its ops. The descriptors open before are read from /proc,
#    each with its own flags: the data descriptor's writes are not each a commit (when it
#    took the meta descriptor's O_DSYNC, 300 transactions made 1149 commits).
#    6b. That trace replayed on a fresh rig (as in 4), its figures printed beside the
#    program's of 3 (its OPS transactions after its setup, as here after the 20 made
#    before the attach), for `scripts/engine-study replay`'s table.
# Root (loop rigs); skipped under the sanitizers and where a program is
# missing (scripts/test installs them as root: ENGINE_PACKAGES in scripts/lib/common.sh).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
OPS=${OPS:-100}
SQLITE=/usr/bin/sqlite3
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: loop rigs"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
command -v strace > /dev/null || skip "strace missing (Debian package strace)"
"$ALIGNBENCH" record --help > /dev/null 2>&1 || skip "no 'alignbench record' in $ALIGNBENCH"
# After a program's stop and before any rig goes: nothing this test started writes to a
# rig when it is unmounted.
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")

# What the Python programs below share, their arguments DIR OPS [STAT OUT]:
# counted(commit) makes OPS commits, commit(i) each; with STAT, the device's counters
# copied to OUT.before (after a sync) and OUT.after around them.
cat > "$WORK/counted.py" << 'PY'
import os, sys
def counted(commit):
    def copy(path):
        with open(sys.argv[3]) as f, open(path, "w") as out:
            out.write(f.read())
    if len(sys.argv) > 3:
        os.sync()
        copy(sys.argv[4] + ".before")
    for i in range(int(sys.argv[2])):
        commit(i)
    if len(sys.argv) > 3:
        copy(sys.argv[4] + ".after")
PY

# The LMDB program: DIR OPS [STAT OUT], counted. The environment's flags printed first
# (sync and metasync on: each commit's pages fdatasync'd, then its meta page written
# through a second descriptor opened O_DSYNC); one put per write transaction.
cat > "$WORK/lmdb_txns.py" << 'PY'
import sys
import lmdb
from counted import counted
env = lmdb.open(sys.argv[1], map_size=16 << 20)
flags = env.flags()
print("sync %s metasync %s" % (flags["sync"], flags["metasync"]))
def commit(i):
    with env.begin(write=True) as txn:
        txn.put(b"key%d" % i, b"value%d" % i)
counted(commit)
env.close()
PY

# The LMDB program by --pid: DIR OPS AT. The environment opened and 20 transactions made,
# "ready" and its last transaction id printed; once AT.go is there, OPS transactions, then
# "done" and the last transaction id printed and AT.done made; once AT.end is there, the
# environment closed. It waits on files, polled: no I/O on its traced files while it waits.
cat > "$WORK/lmdb_pid.py" << 'PY'
import os, sys, time
import lmdb
def wait(path):
    while not os.path.exists(path):
        time.sleep(0.05)
at = sys.argv[3]
env = lmdb.open(sys.argv[1], map_size=16 << 20)
for i in range(20):
    with env.begin(write=True) as txn:
        txn.put(b"before%d" % i, b"value%d" % i)
print("ready %d" % env.info()["last_txnid"], flush=True)
wait(at + ".go")
for i in range(int(sys.argv[2])):
    with env.begin(write=True) as txn:
        txn.put(b"key%d" % i, b"value%d" % i)
print("done %d" % env.info()["last_txnid"], flush=True)
open(at + ".done", "w").close()
wait(at + ".end")
env.close()
PY

# The LevelDB program: DIR OPS [STAT OUT], counted. LevelDB's version printed first; one
# put a commit, written with sync=True (its log appended and fdatasync'd, the way
# leveldb, and RocksDB after it, commit).
cat > "$WORK/leveldb_puts.py" << 'PY'
import sys
import plyvel
from counted import counted
print("leveldb %s" % plyvel.__leveldb_version__)
db = plyvel.DB(sys.argv[1], create_if_missing=True)
counted(lambda i: db.put(b"key%d" % i, b"value%d" % i, sync=True))
db.close()
PY

# program NAME DIR [STAT OUT]: sets PROG, the command line of program NAME with its files
# in DIR, and IN, its standard input; with STAT, the program copies the device's counters
# to OUT.before and OUT.after around its OPS transactions (sqlite3 by its own .shell,
# after a sync). NAME: sqlite-MODE (a journal mode) or lmdb.
# SHOWN: what the program prints first when it runs as asked, its lines joined by spaces
# (the journal mode and 2 for synchronous=FULL, or LMDB's sync flags), LINES how many.
program() {
  local name=$1 dir=$2 i
  if [ "$name" = leveldb ]; then
    PROG=(/usr/bin/python3 "$WORK/leveldb_puts.py" "$dir" "$OPS" "${@:3}")
    IN=/dev/null
    SHOWN="leveldb $(/usr/bin/python3 -c 'import plyvel; print(plyvel.__leveldb_version__)')"
    LINES=1
    return
  fi
  if [ "$name" = lmdb ]; then
    PROG=(/usr/bin/python3 "$WORK/lmdb_txns.py" "$dir" "$OPS" "${@:3}")
    IN=/dev/null
    SHOWN="sync True metasync True" LINES=1
    return
  fi
  local mode=${name#sqlite-}
  IN=$WORK/$name-${dir##*/}.sql
  PROG=("$SQLITE" -bail "$dir/db")
  SHOWN="$mode 2" LINES=2
  {
    echo "PRAGMA journal_mode=$mode; PRAGMA synchronous=FULL; PRAGMA synchronous;"
    echo "CREATE TABLE t (id integer, v text);"
    [ $# -lt 3 ] || echo ".shell sync; cat $3 > $4.before"
    for ((i = 0; i < OPS; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    [ $# -lt 3 ] || echo ".shell cat $3 > $4.after"
  } > "$IN"
}

# ran_as_asked NAME LOG: the program's first output lines say it ran as asked (SHOWN).
ran_as_asked() {
  local shown
  shown=$(head -n "$LINES" "$2" | tr '\n' ' ')
  [ "${shown% }" = "$SHOWN" ] || { echo "  $1 printed '${shown% }', not '$SHOWN'" >&2; return 1; }
}

# as_strace_saw TRACE DIR LOG SDIR: the trace (recorded with its files in DIR) against the
# strace log LOG of the same program run with its files in SDIR, the paths taken relative
# to each directory. From the log: the files under SDIR written or synced; per file its
# syncs by call, its truncates, its unlinks and its creations after the first (the
# first is the state "new"), its reads that returned bytes and its stats (by
# descriptor, or by path once it was opened); per directory its fsyncs and fdatasyncs; a
# rename moves what was counted to the new name. From the trace: its files and its ops by
# kind (commits and after the last), a header counted as the one
# sync of its file's first commit, by the call of that file's first sync. Prints both;
# exits 1 when they differ.
as_strace_saw() {
  "$PY" - "$@" << 'PY'
import collections, json, os, re, sys
trace, tdir, log, sdir = sys.argv[1:]
# The strace side.
line_re = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+)(?:<(.*?)>)?(?:\(deleted\))?")
fd_re = re.compile(r"^(\d+)<(.*?)>")
path_re = re.compile(r'"((?:[^"\\]|\\.)*)"')
fds, existing, made, written = {}, set(), set(), set()
seen = collections.Counter()
reads, stats, truncates = collections.Counter(), collections.Counter(), collections.Counter()
order = []  # (file, kind) of every sync, unlink, creation and truncate, in order
def saw(rel, kind):
    seen[(rel, kind)] += 1
    order.append((rel, kind))
pending = {}
def under(path):  # the path relative to SDIR ("." for SDIR itself), or False
    return (path == sdir or path.startswith(sdir + "/")) and os.path.relpath(path, sdir)
def rekey(old, new):  # what was counted of the file OLD (relative) is NEW's
    for c in (seen, reads, stats, truncates):
        for key in [k for k in c if k == old or (isinstance(k, tuple) and k[0] == old)]:
            c[(new,) + key[1:] if isinstance(key, tuple) else new] += c.pop(key)
    order[:] = [(new if w == old else w, k) for (w, k) in order]
    if old in written:
        written.discard(old)
        written.add(new)
def known(rel):  # a file something was counted of
    return rel in written or any(w == rel for (w, k) in seen) or reads[rel] or stats[rel]
def renamed(src, dst):  # rename(SRC, DST), absolute: the file goes on under DST, and a
    # file DST it replaces is kept as "DST (replaced)", unlinked there (the recorder's rule)
    a, b = under(src), under(dst)
    if a and b and known(a) and known(b):
        gone, k = b + " (replaced)", 2
        while known(gone):
            gone, k = "%s (replaced %d)" % (b, k), k + 1
        rekey(b, gone)
        saw(gone, "unlink")
    if a and b:
        rekey(a, b)
    for s in (made, existing):
        if src in s:
            s.discard(src)
            s.add(dst)
for raw in open(log, encoding="utf-8", errors="replace"):
    raw = raw.rstrip("\n")
    m = re.match(r"^(\d+) +(.*) <unfinished \.\.\.>$", raw)
    if m:
        pending[m.group(1)] = m.group(2)
        continue
    m = re.match(r"^(\d+) +<\.\.\. \w+ resumed>(.*)$", raw)
    if m and m.group(1) in pending:
        raw = "%s %s%s" % (m.group(1), pending.pop(m.group(1)), m.group(2))
    m = line_re.match(raw)
    if not m or int(m.group(4)) < 0:
        continue
    call, args, ret, retpath = m.group(2), m.group(3), int(m.group(4)), m.group(5)
    fd = fd_re.match(args)
    fdpath = fd.group(2) if fd else None
    if call in ("open", "openat", "creat"):
        if retpath is None:
            continue
        fds[ret] = (retpath, args)
        if (call == "creat" or "O_CREAT" in args) and retpath not in existing:
            existing.add(retpath)
            if retpath in made and under(retpath):
                saw(under(retpath), "create")
            made.add(retpath)
        continue
    if call in ("rename", "renameat", "renameat2"):
        names = path_re.findall(args)
        if len(names) == 2 and all(n.startswith("/") for n in names):
            renamed(*names)
        continue
    by_path = call in ("stat", "lstat") or (
        call in ("newfstatat", "statx") and not re.match(r'^[^,]*, ""', args))
    if by_path or call in ("unlink", "unlinkat"):
        p = path_re.search(args)
        if p is None:
            continue
        path = p.group(1)
        if not path.startswith("/"):
            base = re.search(r"<(.*?)>", args)
            path = os.path.join(base.group(1) if base else "", path)
    if by_path:
        if path in made and under(path):  # a file opened before: one the recorder knows
            stats[under(path)] += 1
        continue
    if call in ("unlink", "unlinkat"):
        existing.discard(path)
        if under(path):
            saw(under(path), "unlink")
        continue
    if fdpath is None or not under(fdpath):
        continue
    rel = under(fdpath)
    flags = fds.get(int(fd.group(1)), ("", ""))[1]
    if call in ("write", "pwrite64", "writev", "pwritev", "pwritev2"):
        written.add(rel)
        if "O_SYNC" in flags or "RWF_SYNC" in args:
            saw(rel, "sync O_SYNC")
        elif "O_DSYNC" in flags or "RWF_DSYNC" in args:
            saw(rel, "sync O_DSYNC")
    elif call in ("fsync", "fdatasync"):
        if os.path.isdir(fdpath):
            saw(rel, "sync_dir")
        else:
            saw(rel, "sync " + call)
    elif call == "sync_file_range":
        saw(rel, "sync sync_file_range")
    elif call == "ftruncate":
        truncates[rel] += 1
        order.append((rel, "truncate"))
    elif call in ("read", "readv", "pread64", "preadv", "preadv2") and ret > 0:
        reads[rel] += 1
    elif call in ("fstat", "newfstatat", "statx"):
        stats[rel] += 1
files_seen = {r for r in written} | {r for (r, k) in seen if k.startswith("sync ")}
# Reads, stats and truncates of the files the trace keeps (LMDB's lock file is sized
# and mapped, never written: no file of the trace).
for rel in files_seen:
    for kind, counter in (("read", reads), ("stat", stats), ("truncate", truncates)):
        if counter[rel]:
            seen[(rel, kind)] += counter[rel]
# The trace's side.
t = json.load(open(trace))
paths = [os.path.relpath(f["path"], tdir) for f in t["files"]]
dirs = {p for p in paths if os.path.isdir(os.path.join(tdir, p))}
files_trace = set(paths) - dirs
held = collections.Counter()
held_order = []
ops = [op for c in t["commits"] for op in c["ops"]] + t["after_last_commit"]
for op in ops:
    kind = op["op"]
    if kind == "write" or kind == "allocate":
        continue
    where = op.get("path", op.get("dir"))
    if where is None and "file" in op and op["file"] < len(paths):
        where = paths[op["file"]]
    elif where is not None and where.startswith("/"):
        where = os.path.relpath(where, tdir)
    if kind == "sync_dir" and where is not None and not os.path.isdir(os.path.join(tdir, where)):
        where = os.path.dirname(where) or "."  # the directory of the file it names
    held[(where, "sync " + op["call"] if kind == "sync" else kind)] += 1
    if kind not in ("read", "stat"):
        held_order.append((where, "sync " + op["call"] if kind == "sync" else kind))
header = t.get("header")
note = ""
if header is not None:
    path = paths[header["file"]]
    calls = [op["call"] for op in ops if op["op"] == "sync" and op.get("file") == header["file"]]
    held[(path, "sync " + (calls[0] if calls else "fdatasync"))] += 1
    held_order.insert(0, (path, "sync " + (calls[0] if calls else "fdatasync")))
    note = " (a header of %s, %d B: one sync of it)" % (path, header["bytes"])
# A directory sync the trace names no directory for is compared in all.
if any(w is None for (w, k) in held if k == "sync_dir"):
    for key in [k for k in seen if k[1] == "sync_dir"]:
        seen[(None, "sync_dir")] += seen.pop(key)
def show(c):
    return ", ".join("%s %s %d" % (w if w is not None else "(a directory)", k, n)
                     for (w, k), n in sorted(c.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])))
print("  strace: files %s; %s" % (sorted(files_seen), show(seen)))
print("  trace:  files %s; %s; %d commits%s" % (sorted(files_trace), show(held),
      len(t["commits"]), note))
bad = []
if files_seen != files_trace:
    bad.append("files: strace %s, the trace %s" % (sorted(files_seen), sorted(files_trace)))
for key in sorted(set(seen) | set(held), key=lambda k: (str(k[0]), k[1])):
    if seen[key] != held[key]:
        bad.append("%s %s: strace %d, the trace %d" % (key[0] if key[0] is not None else
                   "(a directory)", key[1], seen[key], held[key]))
# Commit by commit: the syncs, unlinks, creations and truncates of the traced files (and
# their directory's syncs) in the order the program made them; a commit ends at each
# sync, so the same order is the same commits.
order = [(w, k) for (w, k) in order if w in files_seen or k == "sync_dir"]
if not bad and order != held_order:
    at = next((i for i, (a, b) in enumerate(zip(order, held_order)) if a != b),
              min(len(order), len(held_order)))
    bad.append("order: the %d-th of %d against %d: strace %s, the trace %s" % (
        at + 1, len(order), len(held_order), order[at:at + 3], held_order[at:at + 3]))
elif not bad:
    print("  the same %d syncs, unlinks, creations and truncates, in the same order" % len(order))
for b in bad:
    print("  differs: " + b)
sys.exit(1 if bad else 0)
PY
}

# replayed NAME TRACE DIR: the trace replayed in DIR, twice per variant; sets REPLAY_W,
# REPLAY_KIB and REPLAY_FL, the device writes, KiB and flushes per commit of the variant
# the result names "as recorded" ("n/a" for flushes where the kernel counts none).
replayed() {
  local out=$WORK/$1-replay status figures
  mkdir "$3"
  taskset -c 0 "$ALIGNBENCH" --replay "$2" --dir "$3" --repetitions 2 --out "$out.json" \
    > "$out.txt" 2> "$out.err"
  status=$?
  check "$1 replayed: exit 0 (exit $status: $(tail -n 1 "$out.err"))" [ "$status" -eq 0 ]
  REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a
  [ "$status" -eq 0 ] || return 0
  figures=$("$PY" - "$out.json" << 'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
variants = a["settings"]["replay"]["variants"]
def figures(side):
    d = a["pairs"][0][side]["device_per_write"]
    fl = "%.2f" % d["flushes"] if "flushes" in d else "n/a"
    return "%.2f %.2f %s" % (d["writes"], d["written_kib"], fl)
for side in ("unaligned", "aligned"):
    print("  %s (%s): %s writes KiB flushes per commit" % (side, variants[side]["name"],
          figures(side)), file=sys.stderr)
recorded = [s for s in ("unaligned", "aligned") if variants[s]["name"] == "as recorded"]
if len(recorded) != 1:
    sys.exit("no variant named 'as recorded': %s" % variants)
print(figures(recorded[0]))
PY
  )
  check "$1 replayed: one variant is 'as recorded'" [ -n "$figures" ]
  [ -z "$figures" ] || read -r REPLAY_W REPLAY_KIB REPLAY_FL <<< "$figures"
}

# against_real NAME WRITES KIB FLUSHES: the replay's device writes, KiB and flushes per
# commit within 5 % of the program's.
against_real() {
  check "$1 replayed: device writes per commit within 5 % (replay $REPLAY_W, real $2)" \
    within 5 "$2" "$REPLAY_W"
  check "$1 replayed: KiB per commit within 5 % (replay $REPLAY_KIB, real $3)" \
    within 5 "$3" "$REPLAY_KIB"
  if number "$4" && [ "$REPLAY_FL" != n/a ]; then
    check "$1 replayed: flushes per commit within 5 % (replay $REPLAY_FL, real $4)" \
      within 5 "$4" "$REPLAY_FL"
  elif [ "$REPLAY_W" != n/a ]; then
    echo "SKIP (part): $1: flushes: the kernel's stat file has no flush fields" >&2
  fi
}

# STRACE_CALLS: what the independent reading needs: opens (descriptor to path and flags),
# every write call (O_DSYNC descriptors, RWF_DSYNC), the sync calls, truncates, unlinks.
STRACE_CALLS=open,openat,creat,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync
STRACE_CALLS+=,sync_file_range,ftruncate,unlink,unlinkat,read,pread64,readv,preadv,preadv2
STRACE_CALLS+=,fstat,newfstatat,statx,stat,lstat,rename,renameat,renameat2
# The programs there are, before any rig is made.
programs=()
if [ -x "$SQLITE" ]; then
  programs+=(sqlite-delete sqlite-truncate sqlite-persist sqlite-wal)
else
  echo "SKIP (part): SQLite: no $SQLITE (as root: apt-get install -y sqlite3)" >&2
fi
if /usr/bin/python3 -c 'import lmdb' 2> /dev/null; then
  programs+=(lmdb)
else
  echo "SKIP (part): LMDB: /usr/bin/python3 has no lmdb (as root: apt-get install -y python3-lmdb)" >&2
fi
if /usr/bin/python3 -c 'import plyvel' 2> /dev/null; then
  programs+=(leveldb)
else
  echo "SKIP (part): LevelDB: /usr/bin/python3 has no plyvel (as root: apt-get install -y python3-plyvel)" >&2
fi
[ ${#programs[@]} -gt 0 ] ||
  skip "neither sqlite3 nor python3-lmdb is installed (scripts/test installs them as root)"

# 1 and 2 for every program on one rig ($RECORDS), each in directories of its own.
engine_rig
RECORDS=$RIG
figures=()
LMDB_REAL=(n/a n/a n/a)

# journal NAME: 1 to 5 for program NAME.
journal() {
  local name=$1 rec=$RECORDS/$1-rec traced=$RECORDS/$1-strace out=$WORK/$1 status
  local real_w real_kib real_fl
  mkdir "$rec" "$traced"
  # 1. Recorded from its start. The trace of every file of the program (all of them in
  # $rec), not the default's files written and synced: what a commit writes without a
  # sync (SQLite's -shm) is a file of its commits too.
  program "$name" "$rec"
  "$ALIGNBENCH" record --file "$rec/*" --out "$out.trace.json" -- "${PROG[@]}" < "$IN" \
    > "$out.record.out" 2> "$out.record.err"
  status=$?
  check "$name recorded: exit 0, the trace saved (exit $status: $(tail -n 1 "$out.record.err"))" \
    saved "$status" "$out.trace.json"
  check "$name recorded: it ran as asked" ran_as_asked "$name" "$out.record.out"
  # 2. The same program under strace alone, read here.
  program "$name" "$traced"
  strace -f -y -qq -o "$out.strace" -e trace="$STRACE_CALLS" -- "${PROG[@]}" < "$IN" \
    > "$out.strace.out" 2> "$out.strace.err"
  status=$?
  check "$name under strace: exit 0 (exit $status: $(tail -n 1 "$out.strace.err"))" \
    [ "$status" -eq 0 ]
  echo "$name: the trace against strace's reading:"
  [ -s "$out.trace.json" ] &&
    check "$name recorded: the files, syncs, truncates, unlinks, creations and directory syncs strace saw" \
      as_strace_saw "$out.trace.json" "$rec" "$out.strace" "$traced"
  # 3. The program on a fresh rig, its device counted over its OPS transactions.
  engine_rig
  mkdir "$RIG/real"
  program "$name" "$RIG/real" "$STAT" "$out.real"
  taskset -c 0 "${PROG[@]}" < "$IN" > "$out.real.out" 2> "$out.real.err"
  status=$?
  check "$name on the rig: exit 0 (exit $status: $(tail -n 1 "$out.real.err"))" [ "$status" -eq 0 ]
  check "$name on the rig: it ran as asked" ran_as_asked "$name" "$out.real.out"
  check "$name on the rig: the device's counters copied around the transactions" \
    nonempty "$out.real.before" "$out.real.after"
  read -r real_w real_kib real_fl _ < <(per_commit "$out.real.before" "$out.real.after" "$OPS" 2> /dev/null)
  [ "${real_fl:-}" != -1.00 ] || real_fl=n/a
  # 4. The trace replayed on a fresh rig of its own: the program's files gone, the
  # replay's files take the inodes and blocks the program's took (on the program's rig
  # its journal's inode lands in another inode-table block: one more block per commit).
  destroy_rig
  engine_rig
  REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a
  [ -s "$out.trace.json" ] && replayed "$name" "$out.trace.json" "$RIG/$name-replay"
  destroy_rig
  # 5.
  echo "$name, per commit: real ${real_w:-n/a} device writes, ${real_kib:-n/a} KiB," \
    "${real_fl:-n/a} flushes; replay as recorded $REPLAY_W, $REPLAY_KIB, $REPLAY_FL"
  figures+=("$(printf '| %-16s | %6s | %7s | %7s | %6s | %7s | %7s |' "$name" "${real_w:-n/a}" \
    "${real_kib:-n/a}" "${real_fl:-n/a}" "$REPLAY_W" "$REPLAY_KIB" "$REPLAY_FL")")
  replay_row "$name" start "${real_w:-n/a}" "${real_kib:-n/a}" "$REPLAY_W" "$REPLAY_KIB"
  [ "$name" != lmdb ] || LMDB_REAL=("${real_w:-n/a}" "${real_kib:-n/a}" "${real_fl:-n/a}")
  against_real "$name" "${real_w:-n/a}" "${real_kib:-n/a}" "${real_fl:-n/a}"
}

for name in "${programs[@]}"; do journal "$name"; done

# said WORD FILE: FILE has a line "WORD N"; prints N.
said() { awk -v w="$1" '$1 == w { print $2; found = 1 } END { exit !found }' "$2"; }
# attach_loaded NAME DIR PID PATTERN: two busy loops load both CPUs (LOOPS: their PIDs),
# then record --pid PID --file PATTERN runs in the background (a process group of its
# own, so that SIGINT reaches it) into DIR/trace.json; REC: its PID. Checks that
# "attached" is said.
attach_loaded() {
  LOOPS=()
  for _ in 1 2; do
    (while :; do :; done) &
    LOOPS+=($!)
  done
  set -m
  "$ALIGNBENCH" record --pid "$3" --file "$4" --out "$2/trace.json" \
    > "$2/record.out" 2> "$2/record.err" &
  REC=$!
  set +m
  check "$1 by --pid, loaded: 'attached' is said" wait_for 60 grep -q "attached to" "$2/record.err"
}
# lmdb_commits TRACE OPS: exactly OPS commits, each LMDB's write transaction: its data
# pages written, fdatasync'd, its meta page written, then the O_DSYNC sync that ends it.
lmdb_commits() {
  "$PY" - "$@" << 'PY'
import json, sys
t = json.load(open(sys.argv[1]))
ops = int(sys.argv[2])
bad = []
if len(t["commits"]) != ops:
    bad.append("%d commits, not %d" % (len(t["commits"]), ops))
shapes = {}
for n, c in enumerate(t["commits"]):
    kinds = [op["op"] if op["op"] != "sync" else op["call"] for op in c["ops"]]
    first = kinds.index("fdatasync") if "fdatasync" in kinds else -1
    ok = (kinds[-1:] == ["O_DSYNC"] and [k for k in kinds if k not in ("write", "read", "stat")]
          == ["fdatasync", "O_DSYNC"] and "write" in kinds[:first]
          and kinds[first + 1:-1].count("write") == 1)
    shape = " ".join(kinds)
    shapes[shape] = shapes.get(shape, 0) + 1
    if not ok and len(bad) < 5:
        bad.append("commit %d: %s" % (n, shape))
writes = sum(op["op"] == "write" for c in t["commits"] for op in c["ops"])
print("  %s: %d commits, %d writes; files %s; after the last commit %d ops; their shapes:" % (
      sys.argv[1], len(t["commits"]), writes, [(f["path"], f["state"]) for f in t["files"]],
      len(t["after_last_commit"])))
for shape, n in sorted(shapes.items(), key=lambda kv: -kv[1])[:4]:
    print("    %4d  %s" % (n, shape))
for b in bad:
    print("  differs: " + b)
sys.exit(1 if bad else 0)
PY
}

# 6. LMDB by --pid, on a loaded machine.
if [[ " ${programs[*]} " == *" lmdb "* ]]; then
  p=$WORK/lmdb-pid
  mkdir "$p" "$RECORDS/lmdb-pid"
  /usr/bin/python3 "$WORK/lmdb_pid.py" "$RECORDS/lmdb-pid" "$OPS" "$p/at" > "$p/lmdb.out" \
    2> "$p/lmdb.err" &
  lmdb=$!
  if ! wait_for 30 said ready "$p/lmdb.out"; then
    check "lmdb by --pid: the program is ready ($(tail -n 1 "$p/lmdb.err"))" false
  else
    attach_loaded lmdb "$p" "$lmdb" "$RECORDS/lmdb-pid/*"
    touch "$p/at.go"
    check "lmdb by --pid, loaded: its $OPS transactions made" wait_for 60 test -e "$p/at.done"
    kill -INT "$REC"
    ended "lmdb by --pid: record" "$REC" 60
    check "lmdb by --pid, loaded: record ends on SIGINT, exit 0, the trace saved" \
      saved $? "$p/trace.json"
    kill "${LOOPS[@]}"
    wait "${LOOPS[@]}" 2> /dev/null
    touch "$p/at.end"
    ended "lmdb by --pid: the program" "$lmdb" 30
    check "lmdb by --pid: the program exits 0" [ $? -eq 0 ]
    ready=$(said ready "$p/lmdb.out")
    made=$(said "done" "$p/lmdb.out")
    txns=$((${made:-0} - ${ready:-0}))
    check "lmdb by --pid: LMDB counts $OPS transactions after 'attached' ($txns)" \
      [ "$txns" -eq "$OPS" ]
    echo "lmdb by --pid, the trace:"
    [ -s "$p/trace.json" ] &&
      check "lmdb by --pid, loaded: $OPS commits, each its data fdatasync'd then its meta page O_DSYNC" \
        lmdb_commits "$p/trace.json" "$OPS"
    [ "$failed" -eq 0 ] || tail -n 5 "$p/record.err" >&2
    # 6b. That trace replayed on a fresh rig, beside the program's figures of 3.
    engine_rig
    REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a
    [ -s "$p/trace.json" ] && replayed lmdb-pid "$p/trace.json" "$RIG/lmdb-pid-replay"
    destroy_rig
    echo "lmdb by --pid, per commit: real ${LMDB_REAL[0]}, ${LMDB_REAL[1]}, ${LMDB_REAL[2]};" \
      "replay as recorded $REPLAY_W, $REPLAY_KIB, $REPLAY_FL"
    replay_row lmdb --pid "${LMDB_REAL[0]}" "${LMDB_REAL[1]}" "$REPLAY_W" "$REPLAY_KIB"
  fi
fi

echo "per commit, $OPS transactions, each program and its replay on an ext4 loop rig of"
echo "their own (4096-byte sectors, direct I/O): the program's device writes, KiB and"
echo "flushes, then the replay's (the variant as recorded):"
printf '| %-16s | %6s | %7s | %7s | %6s | %7s | %7s |\n' program writes KiB flushes \
  writes KiB flushes
for row in "${figures[@]}"; do echo "$row"; done
finish
