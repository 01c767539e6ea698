# alignbench record on a server whose log is many files: PostgreSQL 15 with 1 MiB WAL
# segments (initdb --wal-segsize=1), so that OPS single-row commits (default 400, each an
# INSERT of a ROW-byte value, default 6000, stored plain: about 6 KiB of WAL a commit)
# cross at least two segment switches. Recorded as a storage engineer records a server:
# 1. the server (its data directory on an ext4 loop rig with 4096-byte sectors and direct
#    I/O) recorded by --pid of its postmaster with --file "$PGDATA/pg_wal/0*" from after
#    its setup (the table made, a CHECKPOINT) to after the commits (one psql, each INSERT
#    in autocommit), then stopped by SIGINT: record exits 0 and the trace is saved;
# 2. the trace against the server's own account: its files are the segments the server
#    names (pg_walfile_name of its WAL position) from before the commits to after them,
#    at least three (two switches), and the commits that write are OPS, or one more for
#    each switch (the backend fdatasyncs the segment it finished, then the next one);
# 3. the trace replayed on a fresh rig (alignbench --replay, twice per variant): the
#    replay's commit count (the result's settings.replay.commits) is the trace's commits
#    save those whose ops are all syncs (left out by design; the run's warnings say how
#    many, and they do), and the run names the other segments of the trace ("N other files
#    of the trace");
# 4. the server again on a fresh rig, untraced, made ready the same way (so its WAL is
#    the same: the same segments, the same switches), its device's writes, KiB written and
#    flushes counted over the OPS commits alone (after the CHECKPOINT and a sync, from
#    psql's \!; no drop of the caches, which the replay does not make either): the
#    replay's variant named "as recorded" writes as the server does, per INSERT (its
#    figures per commit times its commits, over OPS: the switches' commits split an
#    INSERT in two): writes, KiB and flushes within 5 %. Measured clean: the segments the commits reach are recycled ones (initdb leaves
#    four ahead of the one in use), so no commit fills a new segment with zeros; the table's
#    pages are written by the kernel only 30 s after, and no checkpoint falls inside (1 h
#    timeout, max_wal_size 1 GB, autovacuum off). The server made 2.01 writes, 14.00 KiB
#    and 1.00 flushes per INSERT, its replay the same (2.00, 13.93 and 1.00 per commit,
#    402 commits: two switches) on 2026-12-06; counted after a drop of the caches too,
#    the server had made 2.02, 14.14 to 14.18 and 1.01 in five runs.
# Root (the server runs as postgres, loop rigs, ptrace of a server that is
# not a child); skipped under the sanitizers and where PostgreSQL 15 is missing
# (scripts/test installs it as root: ENGINE_PACKAGES in scripts/lib/common.sh).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
OPS=${OPS:-400}
ROW=${ROW:-6000}
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: the server as postgres, loop rigs, ptrace"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
if [ ! -x "$PG_BIN/initdb" ] || ! command -v psql > /dev/null; then
  skip "PostgreSQL 15 missing (as root: apt-get install -y postgresql-15)"
fi
command -v strace > /dev/null || skip "strace missing (Debian package strace)"
"$ALIGNBENCH" record --help > /dev/null 2>&1 || skip "no 'alignbench record' in $ALIGNBENCH"
# After the servers' own stops (pg_up puts those first) and before any rig goes.
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")

no_line() { ! grep -q "$@"; }  # no_line PATTERN FILE...: no line of the files has it

# pg_up NAME: a PostgreSQL 15 cluster in $RIG/pg (PGDATA: $RIG/pg/cluster), its WAL in 1
# MiB segments, running as postgres on a socket in $RIG/pg/socket only (POSTMASTER: its
# pid), stopped on every exit path; then the table made and a CHECKPOINT. The settings of
# engines.sh's pg_commits: synchronous_commit on, wal_sync_method fdatasync, no
# autovacuum, no checkpoint by time or WAL size while the commits run.
pg_up() {
  local name=$1 options
  PG=$RIG/pg
  PGDATA=$PG/cluster
  install -d -o postgres -g postgres -m 700 "$PG" "$PG/socket"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$PGDATA" --wal-segsize=1 -A trust -U postgres \
    --no-sync > "$WORK/$name.initdb.log" 2>&1 ||
    { check "$name: initdb --wal-segsize=1 ($(tail -n 1 "$WORK/$name.initdb.log"))" false; return 1; }
  # First in the list: a server must stop before its rig is unmounted.
  cleanup_hooks=("runuser -u postgres -- '$PG_BIN/pg_ctl' -D '$PGDATA' -m immediate -w stop >/dev/null 2>&1" "${cleanup_hooks[@]}")
  # One line: pg_ctl hands -o to a shell, where a newline would end the command.
  options="-c listen_addresses='' -c unix_socket_directories='$PG/socket'"
  options+=" -c fsync=on -c synchronous_commit=on -c wal_sync_method=fdatasync"
  options+=" -c autovacuum=off -c checkpoint_timeout=1h -c max_wal_size=1GB"
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PG/server.log" -w -o "$options" \
    start > "$WORK/$name.pg_ctl.log" 2>&1 ||
    { check "$name: pg_ctl start ($(tail -n 1 "$PG/server.log"))" false; return 1; }
  POSTMASTER=$(head -n 1 "$PGDATA/postmaster.pid")
  POSTMASTERS+=("$POSTMASTER")
  if ! sql -At -c "SHOW wal_segment_size" -c "SHOW wal_sync_method" \
    -c "SHOW synchronous_commit" > "$WORK/$name.settings" ||
    ! sql -c "CREATE TABLE t (id integer, v text); ALTER TABLE t ALTER v SET STORAGE PLAIN;" \
      -c CHECKPOINT; then
    check "$name: the table made, a CHECKPOINT" false
    return 1
  fi
  check "$name: the server runs with 1 MiB segments, fdatasync, synchronous_commit on" \
    [ "$(tr '\n' ' ' < "$WORK/$name.settings")" = "1MB fdatasync on " ]
}
POSTMASTERS=()
# pg_down: the server stopped (fast: its shutdown checkpoint), before its rig goes.
pg_down() { runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w stop > /dev/null 2>&1; }
sql() { psql -X -q -v ON_ERROR_STOP=1 -h "$PG/socket" -U postgres -d postgres "$@"; }
segment() { sql -At -c "SELECT pg_walfile_name(pg_current_wal_lsn())"; }  # in use now
# inserts OUT [STAT]: OPS INSERTs, each its own commit, from one psql; with STAT, the
# device's counters copied to OUT.before (after a sync) and OUT.after around them.
inserts() {
  local i
  {
    [ $# -lt 2 ] || echo "\\! sync; cat $2 > $1.before"
    for ((i = 0; i < OPS; i++)); do echo "INSERT INTO t VALUES ($i, repeat('x', $ROW));"; done
    [ $# -lt 2 ] || echo "\\! cat $2 > $1.after"
  } > "$1.sql"
  sql -f "$1.sql" > "$1.psql.log" 2>&1 ||
    { echo "  psql: $(tail -n 3 "$1.psql.log")" >&2; return 1; }
}

# traced TRACE FIRST LAST OPS: the trace against the server's account: its files are the
# segments FIRST to LAST (the names pg_walfile_name gave), at least three, all in
# pg_wal; its commits that write are OPS to OPS + the switches. Prints the figures.
traced() {
  "$PY" - "$@" << 'PY'
import json, os, sys
trace, first, last, ops = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t = json.load(open(trace))
names = [os.path.basename(f["path"]) for f in t["files"]]
want = ["%s%08X" % (first[:16], n) for n in range(int(first[16:], 16), int(last[16:], 16) + 1)]
writing = sum(any(op["op"] == "write" for op in c["ops"]) for c in t["commits"])
switches = len(want) - 1
print("  %s: files %s (%s); %d commits, %d that write" % (trace, names,
      ", ".join(sorted({f["state"] for f in t["files"]})), len(t["commits"]), writing))
bad = []
if sorted(names) != want:
    bad.append("files %s, not the segments %s to %s" % (names, first, last))
if len(want) < 3:
    bad.append("%d segments: fewer than two switches (more OPS or ROW)" % len(want))
if any(os.path.basename(os.path.dirname(f["path"])) != "pg_wal" for f in t["files"]):
    bad.append("a file outside pg_wal: %s" % [f["path"] for f in t["files"]])
# Besides the INSERTs and the switches, the server's own WAL records: the bgwriter's
# running-transactions snapshot every 15 s, a checkpoint's (one extra in a ci-time run).
if not ops <= writing <= ops + switches + 2:
    bad.append("%d commits that write, for %d INSERTs, %d switches and at most 2 of the "
               "server's own" % (writing, ops, switches))
for b in bad:
    print("  differs: " + b)
sys.exit(1 if bad else 0)
PY
}

# 1. Recorded by --pid, from after the setup to after the commits.
engine_rig
p=$WORK/recorded
mkdir "$p"
if pg_up recorded; then
  first=$(segment)
  set -m
  "$ALIGNBENCH" record --pid "$POSTMASTER" --file "$PGDATA/pg_wal/0*" --out "$p/trace.json" \
    > "$p/record.out" 2> "$p/record.err" &
  rec=$!
  set +m
  check "recorded by --pid: 'attached' is said" wait_for 60 grep -q "attached to" "$p/record.err"
  check "recorded by --pid: $OPS INSERTs committed" inserts "$p/commits"
  last=$(segment)
  kill -INT "$rec"
  ended "recorded by --pid: record" "$rec" 60
  check "recorded by --pid: record ends on SIGINT, exit 0, the trace saved (exit $?)" \
    [ -s "$p/trace.json" ]
  pg_down
  cat "$p/record.out"
  # 2.
  echo "recorded by --pid: the server's segments $first to $last; the trace:"
  [ -s "$p/trace.json" ] &&
    check "recorded by --pid: the segments the server went through, OPS commits and the switches'" \
      traced "$p/trace.json" "$first" "$last" "$OPS"
  [ "$failed" -eq 0 ] || tail -n 5 "$p/record.err" >&2
fi
destroy_rig

# 3. The trace replayed on a fresh rig.
REPLAY_W=n/a REPLAY_KIB=n/a REPLAY_FL=n/a
if [ -s "$p/trace.json" ]; then
  engine_rig
  mkdir "$RIG/replay"
  # --details: its notes whole, one to a line, for the checks below to read.
  "$ALIGNBENCH" --replay "$p/trace.json" --dir "$RIG/replay" --repetitions 2 --details \
    --out "$p/replay.json" > "$p/replay.txt" 2> "$p/replay.err"
  status=$?
  destroy_rig
  check "replayed: exit 0 (exit $status: $(tail -n 1 "$p/replay.err"))" [ "$status" -eq 0 ]
  read -r in_trace bare others < <("$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))
bare = sum(all(op["op"] == "sync" for op in c["ops"]) for c in t["commits"])
print(len(t["commits"]) - bare, bare, len(t["files"]) - 1)' "$p/trace.json")
  if [ "$status" -eq 0 ]; then
    read -r commits REPLAY_W REPLAY_KIB REPLAY_FL < <("$PY" - "$p/replay.json" "$OPS" << 'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
replay = a["settings"]["replay"]
variants = replay["variants"]
n, ops = replay["commits"], int(sys.argv[2])
def figures(side):
    d = a["pairs"][0][side]["device_per_write"]
    return d["writes"], d["written_kib"], d.get("flushes")
for side in ("unaligned", "aligned"):
    w, k, f = figures(side)
    print("  %s (%s): %.2f writes, %.2f KiB, %s flushes per commit" % (side,
          variants[side]["name"], w, k, "n/a" if f is None else "%.2f" % f), file=sys.stderr)
recorded = [s for s in ("unaligned", "aligned") if variants[s]["name"] == "as recorded"]
if len(recorded) != 1:
    print("  no variant named 'as recorded': %s" % variants, file=sys.stderr)
    print(n, "n/a n/a n/a")
    sys.exit(0)
# Per INSERT: the figures per commit times the commits, over the INSERTs.
w, k, f = figures(recorded[0])
print(n, "%.2f %.2f %s" % (w * n / ops, k * n / ops, "n/a" if f is None else "%.2f" % (f * n / ops)))
PY
    )
    echo "replayed: $commits commits; the trace's: ${in_trace:-?} that do more than sync," \
      "${bare:-?} that only sync, $((${others:-0} + 1)) files"
    check "replayed: its commits ($commits) are the trace's that do more than sync (${in_trace:-?})" \
      [ "$commits" = "${in_trace:-}" ]
    if [ "${bare:-0}" -gt 0 ]; then
      check "replayed: it says the $bare commits that only sync are left out" \
        grep -q "$bare commits of the trace only synced" "$p/replay.txt" "$p/replay.err"
    else
      check "replayed: no commit said left out, none only syncs" \
        no_line "only synced" "$p/replay.txt" "$p/replay.err"
    fi
    check "replayed: it names the trace's ${others:-?} other files (the other segments)" \
      grep -Eq "(^|: )${others:-x} other files? of the trace \(" "$p/replay.txt" "$p/replay.err"
  fi
fi

# 4. The server on a fresh rig, untraced, its device counted over the commits.
real_w=n/a real_kib=n/a real_fl=n/a
engine_rig
r=$WORK/real
mkdir "$r"
if pg_up real; then
  check "on the rig: $OPS INSERTs committed" inserts "$r/commits" "$STAT"
  pg_down
  check "on the rig: the device's counters copied around the commits" \
    nonempty "$r/commits.before" "$r/commits.after"
  read -r real_w real_kib real_fl _ < <(per_commit "$r/commits.before" "$r/commits.after" "$OPS" \
    2> /dev/null)
  [ "${real_fl:-}" != -1.00 ] || real_fl=n/a
fi
destroy_rig
echo "per INSERT, $OPS INSERTs of $ROW bytes: the server $real_w device writes, $real_kib KiB," \
  "$real_fl flushes; its replay as recorded $REPLAY_W, $REPLAY_KIB, $REPLAY_FL"
replay_row postgres-wal --pid "$real_w" "$real_kib" "$REPLAY_W" "$REPLAY_KIB"
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
check "no server started here is left running (${POSTMASTERS[*]})" none_alive "${POSTMASTERS[@]}"
finish
