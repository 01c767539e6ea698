# Debian 12's database servers started for a measurement, shared by the engine tier
# (tests/engines/lib.sh) and scripts/engine-study: PostgreSQL 15 and MariaDB 10.11 as their
# own system users, from directories only they may enter, on a Unix socket there and no TCP
# port, each stopped on every exit path. The caller keeps cleanup_hooks, an array of
# commands it runs in order on exit (tests/integration/lib.sh's cleanup, engine-study's
# stop): a server's stop goes first, so that it stops before its rig is unmounted.
# stop_descendants needs descendants PID (scripts/lib/common.sh has one; the tests' lib too).
PG_BIN=/usr/lib/postgresql/15/bin
ENGINE_PIDS=()

# The rig a log is measured on (scripts/loop-rig create's options): ext4 with 4096-byte
# logical sectors, the loop device doing direct I/O to its image.
# shellcheck disable=SC2034  # for those that source this file
ENGINE_RIG=(--sector 4096 --fs ext4 --size 256M --direct-io on)
# stat_file MOUNT: the stat file of the block device mounted at MOUNT.
stat_file() {
  local device
  device=$(findmnt -no SOURCE "$1") && [ -e "/sys/block/${device#/dev/}/stat" ] &&
    echo "/sys/block/${device#/dev/}/stat"
}

# user_dir PATH USER: a directory that only USER (and root) may enter.
user_dir() { install -d -o "$2" -g "$2" -m 700 "$1"; }

# wait_for SECONDS COMMAND...: until COMMAND succeeds, polled every 0.1 s.
wait_for() {
  local limit=$(($1 * 10)) i
  shift
  for ((i = 0; i < limit; i++)); do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

# per_commit BEFORE AFTER COMMITS: "writes KiB flushes reads" per commit between two copies
# of a stat file (fields 5 and 7: write requests and 512-byte sectors written; 16 flush
# requests, -1 where the kernel counts none; 1 read requests).
per_commit() {
  awk -v n="$3" 'FNR == NR { for (i = 1; i <= NF; i++) b[i] = $i; next }
    { printf "%.2f %.2f %.2f %.2f\n", ($5 - b[5]) / n, ($7 - b[7]) / 2 / n,
        (NF >= 17 ? ($16 - b[16]) / n : -1), ($1 - b[1]) / n }' "$1" "$2"
}

# foreign_servers: names any PostgreSQL or MariaDB server running that was not started
# here (ENGINE_PIDS; the packages' own clusters): it must not write beside the measurements.
foreign_servers() {
  local pid ours=" ${ENGINE_PIDS[*]:-} "
  for pid in $(pgrep -x postgres; pgrep -x mariadbd; pgrep -x mysqld); do
    [[ $ours == *" $pid "* ]] || echo "$pid $(ps -o user=,args= -p "$pid")"
  done
}

# stop_descendants: ends what this shell started and a signal left running (a
# mariadb-install-db and its bootstrap server, a client, a recorder), and waits up to 10 s,
# so that no process writes to a rig when it goes.
stop_descendants() {
  local pids=() pid _
  for pid in $(descendants $$); do kill -0 "$pid" 2> /dev/null && pids+=("$pid"); done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill -TERM "${pids[@]}" 2> /dev/null
  for _ in $(seq 100); do
    for pid in "${pids[@]}"; do kill -0 "$pid" 2> /dev/null && break; pid=''; done
    [ -z "$pid" ] && return 0
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2> /dev/null
}

# pg_start DATA WALDIR SYNC [-c NAME=VALUE...]: a PostgreSQL 15 cluster in DATA/cluster
# (DATA: a directory only postgres may enter, made here) with its WAL in WALDIR (initdb
# --waldir; its parent made here for postgres), started as postgres on a socket in
# DATA/socket only, with fsync and synchronous_commit on, wal_sync_method SYNC, no
# autovacuum and no checkpoint by time or WAL size, and the -c settings given; PG_PID: its
# postmaster. Logs in DATA. Status 1 with the reason on stderr.
pg_start() {
  local data=$1 waldir=$2 sync=$3
  shift 3
  user_dir "$data" postgres
  user_dir "$data/socket" postgres
  install -d -o postgres -m 700 "${waldir%/*}"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$data/cluster" --waldir="$waldir" \
    -A trust -U postgres --no-sync > "$data/initdb.log" 2>&1 ||
    { echo "initdb failed: $(tail -n 3 "$data/initdb.log")" >&2; return 1; }
  cleanup_hooks=("runuser -u postgres -- '$PG_BIN/pg_ctl' -D '$data/cluster' -m immediate -w stop >/dev/null 2>&1" "${cleanup_hooks[@]}")
  # One line: pg_ctl hands -o to a shell, where a newline would end the command.
  local options="-c listen_addresses='' -c unix_socket_directories='$data/socket'"
  options+=" -c fsync=on -c synchronous_commit=on -c wal_sync_method=$sync"
  options+=" -c autovacuum=off -c checkpoint_timeout=1h -c max_wal_size=1GB${*:+ $*}"
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$data/cluster" -l "$data/server.log" -w \
    -o "$options" start > "$data/pg_ctl.log" 2>&1 ||
    { echo "pg_ctl start failed: $(tail -n 3 "$data/server.log")" >&2; return 1; }
  PG_PID=$(head -n 1 "$data/cluster/postmaster.pid")
  ENGINE_PIDS+=("$PG_PID")
}

# pg_stop DATA: the cluster of pg_start DATA stopped, its checkpoint made.
pg_stop() { runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$1/cluster" -m fast -w stop > /dev/null; }

# mariadb_start DATA OPTION...: MariaDB 10.11 installed in DATA/data (DATA: a directory
# only mysql may enter, made here; mariadb-install-db is given the OPTIONs that place the
# redo log, --innodb-log-group-home-dir) and started as mysql with the OPTIONs and
# innodb_flush_log_at_trx_commit=1, no TCP port, its socket DATA/socket, its error log
# DATA/error.log; MARIADB_PID: the server (SIGTERM shuts it down cleanly). Status 1 with
# the reason on stderr.
mariadb_start() {
  local data=$1 option install=() _
  shift
  for option; do [[ $option != --innodb-log-group-home-dir=* ]] || install+=("$option"); done
  user_dir "$data" mysql
  mariadb-install-db --no-defaults --user=mysql --datadir="$data/data" ${install[@]+"${install[@]}"} \
    --auth-root-authentication-method=normal --skip-test-db > "$data/install.log" 2>&1 ||
    { echo "mariadb-install-db failed: $(tail -n 3 "$data/install.log")" >&2; return 1; }
  # setpriv execs: $! is the server itself.
  setpriv --reuid=mysql --regid=mysql --init-groups mariadbd --no-defaults --datadir="$data/data" \
    "$@" --innodb-flush-log-at-trx-commit=1 \
    --skip-networking --socket="$data/socket" --pid-file="$data/pid" \
    --log-error="$data/error.log" > "$data/stderr.log" 2>&1 &
  MARIADB_PID=$!
  ENGINE_PIDS+=("$MARIADB_PID")
  cleanup_hooks=("kill $MARIADB_PID 2>/dev/null; wait $MARIADB_PID 2>/dev/null" "${cleanup_hooks[@]}")
  for _ in $(seq 300); do
    [ -S "$data/socket" ] && return 0
    kill -0 "$MARIADB_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "mariadbd did not start: $(tail -n 3 "$data/error.log")" >&2
  return 1
}
