# alignbench record on MariaDB 10.11's redo log (ib_logfile0), as a storage engineer
# records a server: the server's own defaults, save innodb_flush_log_at_trx_commit=1
# (its default too, given all the same). Those defaults write the redo log with O_DIRECT:
# innodb_flush_method is O_DIRECT and innodb_log_file_buffering OFF wherever the server
# knows the device's block size (its error log: "File system buffers for log disabled
# (block size=4096 bytes)"), and every commit is one pwrite of the log's 4096-byte block
# then an fdatasync: the block the last commit left partly filled is written again, whole,
# by the next (8192 bytes when a commit crosses into the next block). Checked here:
# 1. a private mariadbd (as mysql, no TCP port, its data directory and socket on a fresh
#    ext4 loop rig with 4096-byte sectors and direct I/O), made ready (below), recorded by
#    `alignbench record --pid <mariadbd> --file "$DATADIR/ib_logfile0"` while two busy
#    loops load both CPUs; OPS (default 300) single-row INSERTs from one mariadb client
#    (autocommit, each its own commit); SIGINT detaches: exit 0, the trace saved;
# 2. the trace against the server's account: its one file is ib_logfile0, opened with
#    O_DIRECT, "preallocated" (mariadb-install-db makes it innodb_log_file_size, 96 MiB,
#    with fallocate, and the server writes it round in a circle: FIEMAP finds it mostly
#    unwritten extents), innodb_log_file_size at open; no header; every commit its blocks
#    written (4096-byte multiples on 4096-byte boundaries) then one fdatasync; the commits
#    that write are OPS to OPS + 2. OPS + 1 in every run: InnoDB's persistent statistics,
#    recalculated in the background once the INSERTs have changed a tenth of the table,
#    commit a transaction of their own (with STATS_PERSISTENT=0 the count is OPS exactly;
#    the default is kept); a run past 10 s may recalculate them once more. The server's
#    own count, SHOW GLOBAL STATUS from the client just before and after the INSERTs
#    (inside the recording): the trace's writes, one a commit, each then fdatasync'd,
#    are the change of Innodb_log_writes (which does not count a checkpoint block's
#    write: 302 for 303 when one fell inside). 10.11 has no Innodb_os_log_fsyncs; its
#    Innodb_data_fsyncs counts the log's syncs with its data files': the trace's
#    fdatasyncs, the same number at 300 INSERTs, are no more than its change (at 600 the
#    table's file grows and is synced twice more). The trace's limits name the io_uring
#    InnoDB sets up at its start for its data files ("Using io_uring"); the redo log is
#    written by pwrite, as the counts confirm;
# 3. the trace replayed on a fresh rig (alignbench --replay, twice per variant): the log
#    is aligned already, so "as recorded" is the aligned side; the server again on a
#    fresh rig, untraced, made ready the same way, its device's writes, KiB and flushes
#    counted over the INSERTs alone (after a sync, from the client's `system`; no drop of
#    the caches, which the replay does not make either): the replay's as-recorded
#    figures per commit times its commits over OPS against the server's per INSERT:
#    writes, KiB and flushes within 5 %. The page cleaner needs no setting: the INSERTs
#    dirty a few hundred of the buffer pool's 8192 pages, far below
#    innodb_max_dirty_pages_pct (90), and it flushes none
#    (Innodb_buffer_pool_pages_flushed stays put). Two other background writers of the
#    log made the recorded server differ from the server alone, and both servers are
#    made ready so that neither writes among the INSERTs (checked):
#    - purge: recorded under load the INSERTs take about 1 s, against 0.15 s alone, long
#      enough for purge to run among them, free their undo logs and log it (the log
#      reached 135168 bytes against 110592): the replay wrote 5.37 KiB per INSERT against
#      the server's 4.83 (the checkpoint below among them too). So a second client holds a consistent snapshot (START
#      TRANSACTION WITH CONSISTENT SNAPSHOT, then a SLEEP) from before the INSERTs until
#      the server stops: purge may free none of their history, and the history list holds
#      OPS or more after them;
#    - the server's first checkpoint, about 1.1 s after its start (its FILE_CHECKPOINT
#      record, then its checkpoint block, at 8192 here, written and synced), fell among
#      the recorded INSERTs (attaching takes that long) and never among the server's own.
#      Replayed, it costs more than it did: the replay makes its file in the trace's state,
#      all of it unwritten, where the server's checkpoint blocks have been written since
#      the install, and the write splits the file's extents (5.08 KiB per INSERT, against 4.87
#      for the same trace without that commit). So both servers wait for their first
#      checkpoint (their checkpoint's LSN moves on) before the INSERTs; it stays put
#      among them (Innodb_lsn_last_checkpoint), and the trace writes no checkpoint block.
#    Made ready so, the server made 2.06 writes, 4.83 KiB and 1.05 flushes per INSERT in
#    every run, its replay 2.06, 4.85 and 1.06 (2.05, 4.84 and 1.05 per commit, 301
#    commits), the same in seven runs of 7.5 to 9 s on the 2-vCPU VM, 2026-12-06;
# 4. the replay's unaligned side (every write moved by 512 B, staged: whole aligned blocks
#    built in memory, as the log buffer does) says its partly filled block is kept from
#    the write before, and reads no device block: the stager holds every block of the
#    write before, so the commit after one that crossed into a new block (three blocks,
#    moved) finds the middle one it starts in (holding only the first and last, it read
#    0.05 blocks per commit: a 4096-byte pread each time).
# Root (the server as mysql, loop rigs, ptrace of a server that is not a
# child); skipped under the sanitizers and where MariaDB is missing (scripts/test installs
# it as root: ENGINE_PACKAGES in scripts/lib/common.sh).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
OPS=${OPS:-300}
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: the server as mysql, loop rigs, ptrace"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
for tool in mariadbd mariadb mariadb-install-db; do
  command -v "$tool" > /dev/null ||
    skip "$tool missing: MariaDB 10.11 (as root: apt-get install -y mariadb-server)"
done
command -v strace > /dev/null || skip "strace missing (Debian package strace)"
"$ALIGNBENCH" record --help > /dev/null 2>&1 || skip "no 'alignbench record' in $ALIGNBENCH"
# After the servers' own stops (maria_up puts those first) and before any rig goes.
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")


# maria_up NAME: a MariaDB 10.11 server made by mariadb-install-db in $RIG/mariadb
# (DATADIR: $RIG/mariadb/data), running as mysql with its defaults (--no-defaults) and
# innodb_flush_log_at_trx_commit=1, on the socket $RIG/mariadb/socket only (SERVER: its
# pid; setpriv execs it), stopped on every exit path. Checks that the redo log is written
# with O_DIRECT (innodb_flush_method O_DIRECT, the log's file system buffers off) and is
# 96 MiB. Then made ready: the table b.t made, a reader's snapshot held (purge held
# back), the server's first checkpoint waited for.
maria_up() {
  local name=$1 i settings
  MARIA=$RIG/mariadb
  DATADIR=$MARIA/data
  install -d -o mysql -g mysql -m 700 "$MARIA"
  mariadb-install-db --no-defaults --user=mysql --datadir="$DATADIR" \
    --auth-root-authentication-method=normal --skip-test-db > "$WORK/$name.install.log" 2>&1 ||
    { check "$name: mariadb-install-db ($(tail -n 1 "$WORK/$name.install.log"))" false; return 1; }
  setpriv --reuid=mysql --regid=mysql --init-groups mariadbd --no-defaults \
    --datadir="$DATADIR" --innodb-flush-log-at-trx-commit=1 --skip-networking \
    --socket="$MARIA/socket" --pid-file="$MARIA/pid" --log-error="$MARIA/error.log" \
    > "$WORK/$name.stderr.log" 2>&1 &
  SERVER=$!
  SERVERS+=("$SERVER")
  # First in the list: a server must stop before its rig is unmounted.
  cleanup_hooks=("kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null" "${cleanup_hooks[@]}")
  for ((i = 0; i < 600; i++)); do
    [ -S "$MARIA/socket" ] && break
    alive "$SERVER" || break
    sleep 0.1
  done
  [ -S "$MARIA/socket" ] ||
    { check "$name: mariadbd answers on its socket ($(tail -n 1 "$MARIA/error.log"))" false; return 1; }
  STARTED_AT=$(status_of Innodb_lsn_last_checkpoint)
  if ! sql -e "SELECT @@innodb_flush_method, @@innodb_log_file_buffering,
      @@innodb_flush_log_at_trx_commit, @@innodb_log_file_size" > "$WORK/$name.settings" ||
    ! sql -e "CREATE DATABASE b; CREATE TABLE b.t (id integer, v varchar(40)) ENGINE=InnoDB"; then
    check "$name: the settings read, the table made" false
    return 1
  fi
  settings=$(tr '\t\n' '  ' < "$WORK/$name.settings")
  check "$name: O_DIRECT, the log unbuffered, flush_log_at_trx_commit 1, a 96 MiB log ($settings)" \
    [ "$settings" = "O_DIRECT 0 1 100663296 " ]
  check "$name: its error log says the file system buffers for the log are disabled" \
    grep -q "File system buffers for log disabled (block size=4096 bytes)" "$MARIA/error.log"
  # A reader's transaction, waiting, holds a consistent snapshot until the server stops.
  echo "START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT SLEEP(3600);" |
    sql > /dev/null 2>&1 &
  check "$name: a reader holds a consistent snapshot" wait_for 30 one_transaction
  # The first checkpoint, about a second after the start; not within 10 s: it came
  # before STARTED_AT was read (the INSERTs' checks say if one falls among them).
  wait_for 10 checkpoint_moved ||
    echo "  $name: no checkpoint after LSN $STARTED_AT within 10 s: taken before it was read?"
  echo "  $name: the checkpoint's LSN $STARTED_AT at the start," \
    "$(status_of Innodb_lsn_last_checkpoint) before the INSERTs"
}
status_of() { sql -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f 2; }  # status_of NAME: its value
one_transaction() { [ "$(sql -e "SELECT COUNT(*) FROM information_schema.innodb_trx")" = 1 ]; }
checkpoint_moved() { [ "$(status_of Innodb_lsn_last_checkpoint)" != "$STARTED_AT" ]; }
SERVERS=()
# maria_down NAME: the server stopped (SIGTERM: a clean shutdown), before its rig goes.
maria_down() { kill "$SERVER" 2> /dev/null; ended "$1: mariadbd" "$SERVER" 60; }
sql() { mariadb --no-defaults --socket="$MARIA/socket" -u root -N -B "$@"; }
# reached STATUS NAME MIN: the counter NAME was MIN or more after the INSERTs, in STATUS
# (inserts' OUT.status); kept STATUS NAME: it did not move during them.
reached() {
  awk -v n="$2" -v m="$3" '$1 == n { v[c++] = $2 } END { exit !(c == 2 && v[1] >= m) }' "$1"
}
kept() { awk -v n="$2" '$1 == n { v[c++] = $2 } END { exit !(c == 2 && v[1] == v[0]) }' "$1"; }
# quiet NAME STATUS: purge held back (the history list holds every INSERT) and no
# checkpoint among the INSERTs.
quiet() {
  check "$1: purge held back (the history list $OPS or more after the INSERTs)" \
    reached "$2" Innodb_history_list_length "$OPS"
  check "$1: no checkpoint among the INSERTs (Innodb_lsn_last_checkpoint kept)" \
    kept "$2" Innodb_lsn_last_checkpoint
}
# inserts OUT [STAT]: OPS INSERTs into b.t, each its own commit (autocommit), from one
# mariadb client, between two copies of InnoDB's counters (OUT.status: the log's writes,
# InnoDB's fsyncs, the pages flushed, the history list, the checkpoint's LSN; before,
# then after); with STAT, the device's counters copied to OUT.before (after a sync) and
# OUT.after around the INSERTs alone.
inserts() {
  local i status="SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_log_writes',"
  status+=" 'Innodb_data_fsyncs', 'Innodb_buffer_pool_pages_flushed',"
  status+=" 'Innodb_history_list_length', 'Innodb_lsn_last_checkpoint');"
  {
    echo "$status"
    # The client's `system` takes its line up to a semicolon: no semicolon in it.
    [ $# -lt 2 ] ||
      echo "system sync && cat $2 > $1.before"
    for ((i = 0; i < OPS; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    [ $# -lt 2 ] || echo "system cat $2 > $1.after"
    echo "$status"
  } > "$1.sql"
  sql b < "$1.sql" > "$1.status" 2> "$1.client.err" ||
    { echo "  mariadb: $(tail -n 3 "$1.client.err")" >&2; return 1; }
}

# traced TRACE OPS STATUS LOG SIZE: the trace against the server's account: its one file
# is LOG, O_DIRECT, preallocated, SIZE bytes at open; no header, no limit but the
# io_uring; every commit its 4096-byte blocks written then one fdatasync, nothing after
# the last; OPS to OPS + 2 commits that write; none to the checkpoint blocks (the log's
# records start at 12288, after its header block and two checkpoint blocks); its writes,
# so its commits and its fdatasyncs, the change of Innodb_log_writes in STATUS (inserts'
# OUT.status), its fdatasyncs no more than the change of Innodb_data_fsyncs. Prints the
# figures.
traced() {
  "$PY" - "$@" << 'PY'
import collections, json, sys
trace, ops, status, log, size = sys.argv[1:]
ops, size = int(ops), int(size)
t = json.load(open(trace))
seen = collections.defaultdict(list)
for line in open(status):
    name, value = line.split()
    seen[name].append(int(value))
delta = {k: v[-1] - v[0] for k, v in seen.items() if len(v) == 2}
ops_all = [op for c in t["commits"] for op in c["ops"]]
writes = [op for op in ops_all if op["op"] == "write"]
syncs = [op for op in ops_all if op["op"] == "sync"]
writing = sum(any(op["op"] == "write" for op in c["ops"]) for c in t["commits"])
shapes = collections.Counter(" ".join(op["op"] if op["op"] != "sync" else op["call"]
                                      for op in c["ops"]) for c in t["commits"])
f = t["files"][0] if t["files"] else {}
print("  %s: files %s, %s, %s B at open, %s; %d commits, %d that write; %d writes (%s B), "
      "%d syncs; limits %s" % (trace, [x["path"] for x in t["files"]], f.get("state"),
      f.get("size_at_open"), "|".join(f.get("flags", [])), len(t["commits"]), writing,
      len(writes), "/".join(str(n) for n in sorted({w["length"] for w in writes})),
      len(syncs), t["limits"]))
print("  the commits' shapes: %s" % dict(shapes))
print("  the server's count from before the INSERTs to after: %s" % delta)
bad = []
if [x["path"] for x in t["files"]] != [log]:
    bad.append("files %s, not %s" % ([x["path"] for x in t["files"]], log))
if f.get("state") != "preallocated" or f.get("size_at_open") != size:
    bad.append("state %s, %s B at open: not preallocated, %d B" % (f.get("state"),
               f.get("size_at_open"), size))
if "O_DIRECT" not in f.get("flags", []):
    bad.append("flags %s: no O_DIRECT" % f.get("flags"))
if t["header"] is not None:
    bad.append("a header was taken: %s" % t["header"])
if any("io_uring" not in limit for limit in t["limits"]):
    bad.append("a limit other than the io_uring's: %s" % t["limits"])
if set(shapes) != {"write fdatasync"}:
    bad.append("commits other than one write then an fdatasync: %s" % dict(shapes))
if any(w["offset"] % 4096 or w["length"] % 4096 for w in writes):
    bad.append("a write off the 4096-byte blocks")
if t["after_last_commit"]:
    bad.append("ops after the last commit: %s" % t["after_last_commit"][:3])
if not ops <= writing <= ops + 2:
    bad.append("%d commits that write, for %d INSERTs" % (writing, ops))
records = [w for w in writes if w["offset"] >= 12288]
if len(records) != len(writes):
    bad.append("%d writes before 12288 (the checkpoint blocks): a checkpoint recorded" %
               (len(writes) - len(records)))
if len(writes) != delta.get("Innodb_log_writes"):
    bad.append("%d writes, Innodb_log_writes went up by %s" % (len(writes),
               delta.get("Innodb_log_writes")))
# InnoDB's fsyncs are the log's and its data files' (none at 300 INSERTs; at 600 the
# table's file grows, and is synced twice).
if not len(syncs) <= delta.get("Innodb_data_fsyncs", -1):
    bad.append("%d syncs, Innodb_data_fsyncs went up by %s" % (len(syncs),
               delta.get("Innodb_data_fsyncs")))
for b in bad:
    print("  differs: " + b)
sys.exit(1 if bad else 0)
PY
}

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

# replayed NAME TRACE DIR: the trace replayed in DIR, twice per variant, both sides
# printed; sets REPLAY_W, REPLAY_KIB and REPLAY_FL, the device writes, KiB and flushes
# per INSERT of the variant named "as recorded" (per commit, times the commits, over
# OPS), and MOVED, what the unaligned side is: "NAME STAGED READS" (its name with its
# spaces as underscores, whether its writes were staged, its device reads per commit).
replayed() {
  local out=$WORK/$1-replay status figures
  mkdir "$3"
  "$ALIGNBENCH" --replay "$2" --dir "$3" --repetitions 2 --out "$out.json" \
    > "$out.txt" 2> "$out.err"
  status=$?
  check "$1 replayed: exit 0 (exit $status: $(tail -n 1 "$out.err"))" [ "$status" -eq 0 ]
  REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a MOVED="n/a n/a n/a"
  [ "$status" -eq 0 ] || return 0
  sed -n '/^device I\/O/,/^$/p' "$out.txt"
  figures=$("$PY" - "$out.json" "$OPS" << 'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
replay = a["settings"]["replay"]
variants = replay["variants"]
n, ops = replay["commits"], int(sys.argv[2])
def figures(side, scale=1.0):
    d = a["pairs"][0][side]["device_per_write"]
    fl = "%.2f" % (d["flushes"] * scale) if "flushes" in d else "n/a"
    return "%.2f %.2f %s" % (d["writes"] * scale, d["written_kib"] * scale, fl)
for side in ("unaligned", "aligned"):
    d = a["pairs"][0][side]
    print("  %s (%s, staged %s): %s writes KiB flushes, %.3f reads per commit" % (side,
          variants[side]["name"], d["staged"], figures(side),
          d["device_per_write"]["reads"]), file=sys.stderr)
print("  %d commits, rule %s" % (n, replay["rule"]), file=sys.stderr)
recorded = [s for s in ("unaligned", "aligned") if variants[s]["name"] == "as recorded"]
if len(recorded) != 1:
    sys.exit("no variant named 'as recorded': %s" % variants)
d = a["pairs"][0]["unaligned"]
# Per INSERT: the figures per commit times the commits, over the INSERTs.
print(figures(recorded[0], n / ops), variants["unaligned"]["name"].replace(" ", "_"),
      d["staged"], "%.3f" % d["device_per_write"]["reads"])
PY
  )
  check "$1 replayed: one variant is 'as recorded'" [ -n "$figures" ]
  [ -z "$figures" ] || read -r REPLAY_W REPLAY_KIB REPLAY_FL MOVED <<< "$figures"
}

# 1. Recorded by --pid under load, from after the setup to after the INSERTs.
engine_rig
p=$WORK/recorded
mkdir "$p"
if maria_up recorded; then
  attach_loaded mariadb "$p" "$SERVER" "$DATADIR/ib_logfile0"
  check "recorded by --pid, loaded: $OPS INSERTs committed" inserts "$p/commits"
  quiet "recorded by --pid" "$p/commits.status"
  kill -INT "$REC"
  ended "recorded by --pid: record" "$REC" 60
  status=$?
  check "recorded by --pid: record ends on SIGINT, exit 0, the trace saved (exit $status)" \
    saved "$status" "$p/trace.json"
  kill "${LOOPS[@]}"
  wait "${LOOPS[@]}" 2> /dev/null
  log=$DATADIR/ib_logfile0
  size=$(sql -e "SELECT @@innodb_log_file_size")
  maria_down recorded
  cat "$p/record.out"
  # 2.
  echo "recorded by --pid: the trace:"
  [ -s "$p/trace.json" ] &&
    check "recorded by --pid: ib_logfile0, preallocated, O_DIRECT; $OPS to $OPS + 2 commits, each a write then an fdatasync, as InnoDB counts them" \
      traced "$p/trace.json" "$OPS" "$p/commits.status" "$log" "${size:-0}"
  [ "$failed" -eq 0 ] || tail -n 5 "$p/record.err" >&2
fi
destroy_rig

# 3. The trace replayed on a fresh rig; 4. its side moved by 512 B.
REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a MOVED="n/a n/a n/a"
if [ -s "$p/trace.json" ]; then
  engine_rig
  replayed mariadb "$p/trace.json" "$RIG/replay"
  destroy_rig
  read -r moved staged reads <<< "$MOVED"
  check "replayed: the unaligned side is the log moved by 512 B, staged ($moved, staged $staged)" \
    [ "$moved $staged" = "moved_by_512_B True" ]
  check "replayed: its why-line says the partly filled block is kept from the write before" \
    grep -q "the partly filled first block kept from the write before" "$WORK/mariadb-replay.txt"
  check "replayed: the unaligned side reads at most 0.01 device blocks per commit ($reads)" \
    awk -v r="$reads" 'BEGIN { exit !(r ~ /^[0-9.]+$/ && r <= 0.01) }'
fi

# 3, the other half: the server on a fresh rig, untraced, its device counted over the
# INSERTs alone.
real_w=n/a real_kib=n/a real_fl=n/a
engine_rig
r=$WORK/real
mkdir "$r"
if maria_up real; then
  check "on the rig: $OPS INSERTs committed" inserts "$r/commits" "$STAT"
  quiet "on the rig" "$r/commits.status"
  maria_down real
  check "on the rig: the device's counters copied around the INSERTs" \
    nonempty "$r/commits.before" "$r/commits.after"
  read -r real_w real_kib real_fl _ < <(per_commit "$r/commits.before" "$r/commits.after" "$OPS" \
    2> /dev/null)
  [ "${real_fl:-}" != -1.00 ] || real_fl=n/a
  echo "on the rig: InnoDB's counts before and after the INSERTs: $(tr '\t\n' '= ' < "$r/commits.status")"
fi
destroy_rig
echo "per INSERT, $OPS INSERTs: the server $real_w device writes, $real_kib KiB," \
  "$real_fl flushes; its replay as recorded $REPLAY_W, $REPLAY_KIB, $REPLAY_FL"
replay_row mariadb-redo --pid "$real_w" "$real_kib" "$REPLAY_W" "$REPLAY_KIB"
check "replayed: device writes per INSERT within 5 % (replay $REPLAY_W, real $real_w)" \
  within 5 "$real_w" "$REPLAY_W"
check "replayed: KiB per INSERT within 5 % (replay $REPLAY_KIB, real $real_kib)" \
  within 5 "$real_kib" "$REPLAY_KIB"
if [ "$real_fl" != n/a ] || [ "$REPLAY_FL" != n/a ]; then
  check "replayed: flushes per INSERT within 5 % (replay $REPLAY_FL, real $real_fl)" \
    within 5 "$real_fl" "$REPLAY_FL"
else
  echo "SKIP (part): flushes: the kernel's stat file has no flush fields" >&2
fi
check "no server started here is left running (${SERVERS[*]})" none_alive "${SERVERS[@]}"
finish
