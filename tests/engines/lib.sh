# The engine drivers: Debian 12's PostgreSQL 15, SQLite 3.40, RocksDB 7.8 and MariaDB 10.11
# each make COMMITS single-row commits with their log on a loop rig of its own, and the
# loop device's counters are copied just before the first commit and just after the last
# (by the engine's client itself: psql's \!, sqlite3's .shell, mariadb's system, the RocksDB
# client's own copy), so that setup and shutdown are not counted. Sourced after
# tests/integration/lib.sh. Servers run as their own system users in private directories
# under $WORK and are stopped on every exit path.
# With TRACE set to a path, a driver also records its log's writes there with `alignbench
# record` ($ALIGNBENCH): a client under it, a server by --pid from before the first commit
# to after the last (all its processes that write the log are followed).
# The servers' start, and what the study script shares: scripts/lib/engines.sh.
source "$ALIGNBENCH_SOURCE_DIR/scripts/lib/engines.sh"

# recorded GLOB COMMAND...: COMMAND, under `alignbench record --file GLOB` when TRACE is set.
recorded() {
  local glob=$1
  shift
  if [ -n "${TRACE:-}" ]; then
    "$ALIGNBENCH" record --file "$glob" --out "$TRACE" -- "$@"
  else
    "$@"
  fi
}

# record_server PID GLOB: when TRACE is set, starts recording server PID's writes to GLOB
# in the background (RECORDER: its pid); stop_recording ends it with SIGINT, as a user
# ends `alignbench record --pid`, and waits for the trace.
RECORDER=''
record_server() {
  [ -n "${TRACE:-}" ] || return 0
  # With job control on for the moment: a script's background job otherwise starts with
  # SIGINT ignored, and a shell script cannot take it back.
  set -m
  "$ALIGNBENCH" record --pid "$1" --file "$2" --out "$TRACE" > "$TRACE.log" 2>&1 &
  RECORDER=$!
  set +m
  cleanup_hooks=("kill -INT $RECORDER 2>/dev/null; wait $RECORDER 2>/dev/null" "${cleanup_hooks[@]}")
  # record says "attached" once strace traces every thread of the server.
  local _
  for _ in $(seq 300); do grep -q "attached to" "$TRACE.log" && return 0; sleep 0.1; done
  echo "FAIL: alignbench record --pid $1 did not attach within 30 s" >&2
}
stop_recording() {
  [ -n "$RECORDER" ] || return 0
  kill -INT "$RECORDER"
  local _
  for _ in $(seq 300); do kill -0 "$RECORDER" 2> /dev/null || break; sleep 0.1; done
  kill -0 "$RECORDER" 2> /dev/null &&
    { echo "FAIL: alignbench record --pid did not end within 30 s of SIGINT" >&2; kill "$RECORDER"; }
  wait "$RECORDER" || { echo "FAIL: alignbench record --pid: $(tail -n 3 "$TRACE.log")" >&2; RECORDER=''; return 1; }
  RECORDER=''
}

# descendants PID: every process under PID, children after their own children.
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2> /dev/null); do
    descendants "$child"
    echo "$child"
  done
}

alive() { [[ $(ps -o stat= -p "$1" 2> /dev/null) == [^Z]* ]]; }  # alive PID: not ended
none_alive() { local pid; for pid; do ! alive "$pid" || return 1; done; }  # none of PIDs
# ended NAME PID SECONDS: waits for process PID, a child, to end, and returns its exit
# status; one still running after SECONDS (a recorder deaf to SIGINT, a server that does
# not stop) is killed and the test says so, rather than waiting on it for ever.
ended() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do alive "$2" || break; sleep 0.1; done
  if alive "$2"; then
    echo "FAIL: $1: still running $3 s on: killed" >&2
    kill -KILL "$2" 2> /dev/null
  fi
  wait "$2"
}
saved() { [ "$1" -eq 0 ] && [ -s "$2" ]; }  # saved STATUS FILE: exit 0, FILE has bytes
nonempty() { local f; for f; do [ -s "$f" ] || return 1; done; }  # each FILE has bytes
# destroy_rig: the rig of engine_rig goes now (its cleanup hook, run again, is harmless).
destroy_rig() { "$ALIGNBENCH_SOURCE_DIR/scripts/loop-rig" destroy "$RIG" > /dev/null 2>&1; }
number() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
# within PCT REAL REPLAY: both figures numbers, |REPLAY - REAL| <= PCT % of REAL.
within() {
  number "$2" && number "$3" &&
    awk -v p="$1" -v e="$2" -v c="$3" 'BEGIN { d = c - e; if (d < 0) d = -d; exit !(d <= p / 100 * e) }'
}

# held PCT NAME WHAT ENGINE FIGURES: the figures per commit that ENGINE gives ("writes KiB",
# or "writes KiB flushes"), each of FIGURES' (the same order, one more at the end at most)
# within PCT % of the engine's, a check each; flushes only where the device counted them.
held() {
  local pct=$1 name=$2 what=$3 i want got labels=(writes KiB flushes)
  read -ra want <<< "$4"
  read -ra got <<< "$5"
  for i in "${!want[@]}"; do
    [ "$i" -lt 2 ] || [ "${want[i]}" != -1.00 ] || { echo "SKIP (part): $name: no flush count" >&2; continue; }
    check "$name: $what ${labels[i]} per commit within $pct % of the engine's (${got[i]} vs ${want[i]})" \
      within "$pct" "${want[i]}" "${got[i]}"
  done
}

# on_rig OUT ARGS...: alignbench ARGS with --dir a fresh rig of its own, its result OUT.json
# and its output OUT.txt and OUT.err; the rig goes after it.
on_rig() {
  local out=$1 status=0
  shift
  engine_rig
  "$ALIGNBENCH" "$@" --dir "$RIG" --out "$out.json" > "$out.txt" 2> "$out.err" || status=$?
  destroy_rig
  return "$status"
}

# device_of RESULT VARIANT [COMMITS]: VARIANT's device "writes KiB flushes" per commit in
# alignbench's RESULT (flushes -1.00 where none were counted); VARIANT recorded: a replay's
# variant as recorded. With COMMITS, a replay's figures per commit of its trace are made
# per one of the engine's COMMITS: times the trace's commits over COMMITS (a commit of
# MariaDB's binlog trace, cut at its sync, is 4 INSERTs with sync_binlog=4).
device_of() {
  "$PY" - "$@" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["alignbench"]
variant = sys.argv[2]
if variant == "recorded":
    variant = "aligned" if a["settings"]["replay"]["rule"] == "shift" else "unaligned"
scale = a["settings"]["replay"]["commits"] / int(sys.argv[3]) if len(sys.argv) > 3 else 1
d = a["pairs"][0][variant]["device_per_write"]
flushes = d["flushes"] * scale if "flushes" in d else -1
print("%.2f %.2f %.2f" % (d["writes"] * scale, d["written_kib"] * scale, flushes))
PY
}

# trace_replayed NAME OUT ENGINE [COMMITS]: the engine's trace OUT.engine-trace.json
# replayed on a fresh rig (alignbench --replay, twice per variant), its variant as recorded
# held within 10 % to the engine's untraced figures per commit in ENGINE ("writes KiB", or
# "writes KiB flushes"); COMMITS as device_of's. REPLAY_IO: its "writes KiB flushes".
trace_replayed() {
  local name=$1 out=$2 engine=$3
  REPLAY_IO=''
  on_rig "$out.replay" --replay "$out.engine-trace.json" --repetitions 2 ||
    { check "$name: --replay of its trace runs ($(tail -n 2 "$out.replay.err"))" false; return 1; }
  REPLAY_IO=$(device_of "$out.replay.json" recorded ${4:+"$4"})
  held 10 "$name" "its trace replayed" "$engine" "$REPLAY_IO"
  echo "$name, per commit (writes KiB [flushes]): the engine $engine; its trace replayed $REPLAY_IO"
}

# binlog_case NAME OUT SYNC COMMITS: record's case of MariaDB's binlog's trace (OUT.engine-trace.json,
# recorded by --pid with sync_binlog=SYNC; the case beside it) is 180-byte commits, SYNC
# a sync (commits_per_sync, none where 1), fdatasync, in a log that grows, its header what
# the binlog's 330-byte header and whole commits leave in a 4096-byte block; run as it is
# with --writes COMMITS on a fresh rig, its unaligned variant (the commits as recorded)
# writes within 10 % of the engine's untraced device writes, KiB and flushes per commit
# (OUT.before and OUT.after around its COMMITS INSERTs; ENGINE_IO: "writes KiB flushes").
binlog_case() {
  local name=$1 out=$2 sync=$3 commits=$4 io
  check "$name: record's case of its trace, 180 B commits, $sync a sync, extending, in-block header" \
    "$PY" -c 'import json, sys; c = json.load(open(sys.argv[1])); h = c["log"]["header"]
ok = (c["sizes"] == ["180"] and c.get("commits_per_sync", 1) == int(sys.argv[2])
      and c["sync"] == "fdatasync" and c["layout"] == "extend"
      and any((330 + 180 * n) % 4096 == h for n in range(4096)))
ok or print("the case:", json.dumps(c), file=sys.stderr)
sys.exit(not ok)' "$out.engine-trace.case.json" "$sync"
  ENGINE_IO=$(per_commit "$out.before" "$out.after" "$commits" | cut -d ' ' -f 1-3)
  on_rig "$out.record-case" --case "$out.engine-trace.case.json" --writes "$commits" \
    --repetitions 2 ||
    { check "$name: record's case of its trace runs ($(tail -n 2 "$out.record-case.err"))" false; return 1; }
  io=$(device_of "$out.record-case.json" unaligned)
  held 10 "$name" "record's case of its trace, unaligned," "$ENGINE_IO" "$io"
  echo "$name, per commit (writes KiB flushes): the engine $ENGINE_IO; record's case of its trace $io"
}

# replay_row PROGRAM FROM REAL_W REAL_KIB REPLAY_W REPLAY_KIB: a line of the table that
# `scripts/engine-study replay` gathers from the record tests: a program's device writes
# and KiB per commit, then its trace's replay's (the variant as recorded); FROM: "start"
# (recorded from its start) or "--pid" (attached to it running).
replay_row() { echo "replay row: $*"; }

# engine_rig: a fresh ext4 rig with 4096-byte logical sectors and direct I/O, as the log
# cases' test makes it; sets RIG and STAT (the loop device's stat file).
engine_rig() {
  make_rig "${ENGINE_RIG[@]}"
  STAT=$(stat_file "$RIG") || { echo "FAIL: no device under $RIG" >&2; exit 1; }
}

# pg_commits SYNC COMMITS OUT: PostgreSQL 15 with its WAL (initdb --waldir) on $RIG,
# synchronous_commit=on, wal_sync_method SYNC (fdatasync or open_datasync), COMMITS
# single-row INSERTs from psql, each its own transaction. OUT.before and OUT.after: the
# device's counters around the commits. The cluster lives in $WORK, runs as postgres,
# listens on a socket in its own directory only, and is stopped on every exit path.
pg_commits() {
  local sync=$1 commits=$2 out=$3 data=$WORK/${TRACE:+traced-}pg-$1 i
  pg_start "$data" "$RIG/pg/pg_wal" "$sync" || return 1
  record_server "$PG_PID" "$RIG/pg/pg_wal/0*" || return 1
  {
    # The settings the server runs with, for the test to check.
    echo "\\o $out.settings"
    echo "SELECT name, setting FROM pg_settings WHERE name IN ('wal_sync_method', 'synchronous_commit', 'fsync');"
    echo "\\o"
    echo "CREATE TABLE t (id integer, v text); CHECKPOINT;"
    echo "\\! cat $STAT > $out.before"
    for ((i = 0; i < commits; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    echo "\\! cat $STAT > $out.after"
  } > "$data/commits.sql"
  psql -X -q -v ON_ERROR_STOP=1 -h "$data/socket" -U postgres -d postgres \
    -f "$data/commits.sql" > "$data/psql.log" 2>&1 ||
    { echo "FAIL: psql: $(tail -n 3 "$data/psql.log")" >&2; return 1; }
  stop_recording || return 1
  pg_stop "$data"
}

# sqlite_commits PSOW COMMITS OUT: SQLite 3.40 (the sqlite3 CLI) in WAL mode with
# synchronous=FULL, the database and its WAL on $RIG, opened with the URI parameter
# psow=PSOW (0 turns SQLITE_IOCAP_POWERSAFE_OVERWRITE off). Before the marker, COMMITS
# rows fill the WAL and a checkpoint restarts it, so the measured commits write into a WAL
# reused after a checkpoint, as a database in use does.
sqlite_commits() {
  local psow=$1 commits=$2 out=$3 dir=$RIG/sqlite-$1 i
  mkdir -p "$dir"
  {
    # Both settings printed back ("wal", then 2 for FULL) for the test to check.
    echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA synchronous;"
    echo "CREATE TABLE t (id integer, v text);"
    for ((i = 0; i < commits; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    echo "PRAGMA wal_checkpoint(RESTART);"
    echo ".shell cat $STAT > $out.before"
    for ((i = 0; i < commits; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    echo ".shell cat $STAT > $out.after"
  } > "$out.sql"
  recorded "$dir/db-wal" sqlite3 -bail "file:$dir/db?psow=$psow" < "$out.sql" > "$out.log" 2>&1 ||
    { echo "FAIL: sqlite3: $(tail -n 3 "$out.log")" >&2; return 1; }
}

# rocksdb_commits MODE COMMITS OUT: RocksDB 7.8 through tests/engines/rocksdb_client.cc
# ($ROCKSDB_CLIENT), its WAL directory on $RIG and its tables in $WORK.
rocksdb_commits() {
  local mode=$1 commits=$2 out=$3 db=$WORK/${TRACE:+traced-}rocksdb-$1
  mkdir -p "$db" "$RIG/rocksdb-wal"
  recorded "$RIG/rocksdb-wal/*.log" "$ROCKSDB_CLIENT" "$db" "$RIG/rocksdb-wal" "$mode" "$commits" "$STAT" "$out" \
    > "$db.log" 2>&1 ||
    { echo "FAIL: rocksdb_client: $(tail -n 3 "$db.log")" >&2; return 1; }
}

# mariadb_commits [binlog SYNC] COMMITS OUT: MariaDB 10.11 with
# innodb_flush_log_at_trx_commit=1, COMMITS single-row INSERTs from the mariadb client with
# autocommit. Its redo log (innodb_log_group_home_dir) on $RIG; with `binlog SYNC`, its
# binary log there instead (log_bin as $RIG/binlog/mariadb-bin, server_id 1,
# sync_binlog=SYNC, the binlog format and checksum its defaults) and the redo log in the
# data directory: the database and its table are made with sql_log_bin=0, so the binlog
# holds its header and the INSERTs only, and the values have one width (100000 on), so
# every INSERT's events have one length; the client's log ($WORK/mariadb-binlog-SYNC/
# client.log) holds the binlog's settings, and Binlog_commits and Binlog_group_commits
# before and after the INSERTs. The server runs as mysql from a data directory in $WORK,
# with no TCP port, and is stopped on every exit path.
mariadb_commits() {
  local binlog='' name=mariadb
  if [ "$1" = binlog ]; then binlog=$2; name=mariadb-binlog-$2; shift 2; fi
  local commits=$1 out=$2 data=$WORK/${TRACE:+traced-}$name i pid logs=() glob first=0
  local status="SHOW GLOBAL STATUS WHERE Variable_name IN ('Binlog_commits', 'Binlog_group_commits');"
  if [ -n "$binlog" ]; then
    user_dir "$RIG/binlog" mysql
    logs=(--log-bin="$RIG/binlog/mariadb-bin" --server-id=1 --sync-binlog="$binlog")
    glob="$RIG/binlog/mariadb-bin.0*"
    first=100000
  else
    user_dir "$RIG/redo" mysql
    logs=(--innodb-log-group-home-dir="$RIG/redo")
    glob="$RIG/redo/ib_logfile*"
  fi
  mariadb_start "$data" "${logs[@]}" || return 1
  pid=$MARIADB_PID
  {
    echo "SELECT @@innodb_flush_log_at_trx_commit AS flush_log_at_trx_commit;"
    if [ -n "$binlog" ]; then
      echo "SELECT @@log_bin, @@sync_binlog, @@binlog_format, @@binlog_checksum;"
      echo "$status"
      echo "SET SESSION sql_log_bin=0;"
    fi
    echo "CREATE DATABASE b; USE b; CREATE TABLE t (id integer, v varchar(40)) ENGINE=InnoDB;"
    [ -z "$binlog" ] || echo "SET SESSION sql_log_bin=1;"
    echo "system cat $STAT > $out.before"
    for ((i = first; i < first + commits; i++)); do echo "INSERT INTO t VALUES ($i, 'row $i');"; done
    echo "system cat $STAT > $out.after"
    [ -z "$binlog" ] || echo "$status"
  } > "$data/commits.sql"
  record_server "$pid" "$glob" || return 1
  mariadb --no-defaults --socket="$data/socket" -u root < "$data/commits.sql" \
    > "$data/client.log" 2>&1 ||
    { echo "FAIL: mariadb client: $(tail -n 3 "$data/client.log")" >&2; return 1; }
  stop_recording || return 1
  kill "$pid"
  wait "$pid"
}
