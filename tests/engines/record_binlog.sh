# alignbench record by --pid on MariaDB 10.11's binary log, one client, for each
# sync_binlog of SYNCS (default "1 4"): the case `record` writes from the trace and the
# trace's replay against the server's own device I/O. Per SYNC, each on a fresh ext4 loop
# rig with 4096-byte sectors and direct I/O (tests/engines/lib.sh: mariadb_commits, the
# binlog alone on the rig, COMMITS single-row INSERTs, default 200, a multiple of 4):
# 1. the server untraced, its device's writes, KiB and flushes counted around the INSERTs;
# 2. the server again, recorded by `alignbench record --pid` from before the INSERTs to
#    after them; the case file record writes beside the trace is 180-byte commits, SYNC a
#    sync, in a log that grows, its header where the binlog's 330-byte header and whole
#    commits leave the first commit in its 4096-byte block;
# 3. that case run as it is (--writes COMMITS, twice per variant) on a fresh rig: its
#    unaligned variant, the commits as recorded, within 10 % of 1's writes, KiB and
#    flushes per commit (binlog_case);
# 4. the trace replayed on a fresh rig, its variant as recorded taken per INSERT (a trace's
#    commit ends at a sync: SYNC INSERTs) within 10 % of 1's too (trace_replayed).
# tests/engines/engines.sh holds sync_binlog=4 in the engines tier; this test, in the slow
# tier and run by `scripts/engine-study replay`, adds sync_binlog=1, which CI's time does
# not hold. Measured 2026-12-07 (docs/engines.md): sync_binlog=1, the engine 3.01 writes,
# 16.58 KiB, 2.00 flushes per commit; the case 3.01, 16.55, 2.00; the replay 3.00, 16.52,
# 2.00. Root only; skipped under the sanitizer and where MariaDB or strace is missing.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/lib.sh"
COMMITS=${COMMITS:-200}
SYNCS=${SYNCS:-1 4}
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root: loop devices, the server as mysql, ptrace"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
command -v mariadbd > /dev/null || skip "MariaDB not installed (as root: apt-get install -y mariadb-server)"
command -v strace > /dev/null || skip "no strace (as root: apt-get install -y strace)"
cleanup_hooks=(stop_descendants "${cleanup_hooks[@]}")
foreign=$(foreign_servers)
[ -z "$foreign" ] || { echo "FAIL: a MariaDB or PostgreSQL server not started here is running:" \
  "$foreign (systemctl stop mariadb postgresql)" >&2; exit 1; }

for sync in $SYNCS; do
  name="MariaDB 10.11 sync_binlog=$sync" out=$WORK/binlog-$sync
  engine_rig
  mariadb_commits binlog "$sync" "$COMMITS" "$out" ||
    { check "$name: the server makes $COMMITS commits" false; continue; }
  destroy_rig
  engine_rig
  TRACE=$out.engine-trace.json mariadb_commits binlog "$sync" "$COMMITS" "$out.traced" ||
    { check "$name: the server makes $COMMITS commits under alignbench record --pid" false; continue; }
  destroy_rig
  binlog_case "$name" "$out" "$sync" "$COMMITS" || continue
  trace_replayed "$name" "$out" "$ENGINE_IO" "$COMMITS" || continue
  read -r real_w real_kib _ <<< "$ENGINE_IO"
  read -r replay_w replay_kib _ <<< "$REPLAY_IO"
  replay_row "binlog-$sync" --pid "$real_w" "$real_kib" "$replay_w" "$replay_kib"
done
finish
