# scripts/engine-study as a smoke test (the full run is a measurement: docs/measurements.md):
# `group` on PostgreSQL alone, 32 commits from 2 clients, untraced, prints its row of
# numbers and exits 0; the same stopped by SIGTERM while its server runs exits 143. Either
# way nothing of it is left: no server, no rig mounted, no loop device on its images, no
# work directory.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root: loop devices, the server as postgres"
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
[ -x /usr/lib/postgresql/15/bin/pgbench ] ||
  skip "PostgreSQL 15 missing (as root: apt-get install -y postgresql-15)"
[ -z "$(pgrep -x postgres)" ] || skip "a PostgreSQL server runs here: the study refuses to run beside it"
chmod 755 "$WORK"  # the study's work directory is made in it, and postgres enters it
study=("$ALIGNBENCH_SOURCE_DIR/scripts/engine-study" group --commits 32 --clients 2 --engines pg
  --no-trace)
nothing_left() {
  [ -z "$(pgrep -x postgres)" ] && [ -z "$(find "$WORK" -maxdepth 1 -name 'engine-study.*')" ] &&
    ! grep -q "$WORK" /proc/self/mounts && ! losetup -l -n -O BACK-FILE | grep -q "$WORK"
}

TMPDIR=$WORK "${study[@]}" > "$WORK/out" 2> "$WORK/err"
status=$?
check "a tiny group study: exit 0 (exit $status: $(tail -n 2 "$WORK/err"))" [ "$status" -eq 0 ]
check "its row: pg, 2 clients, K and the writes per commit numbers" \
  grep -Eq '^\| pg +\| +2 \| +[0-9]+\.[0-9]+ \| .* \| +[0-9]+\.[0-9]+ \| +[0-9]+\.[0-9]+ \|' "$WORK/out"
check "nothing of it left" nothing_left

TMPDIR=$WORK "${study[@]}" > "$WORK/out2" 2> "$WORK/err2" &
pid=$!
for _ in $(seq 300); do [ -n "$(pgrep -x postgres)" ] && break; sleep 0.1; done
check "its server started" [ -n "$(pgrep -x postgres)" ]
kill -TERM "$pid"
wait "$pid"
status=$?
check "stopped by SIGTERM while its server runs: exit 143 (exit $status)" [ "$status" -eq 143 ]
check "nothing of it left after SIGTERM" nothing_left
[ "$failed" -eq 0 ] || { cat "$WORK/out" "$WORK/err" "$WORK/err2"; } >&2
finish
