# The Ansible playbook for real (scripts/fleet): two inventory hosts on this machine
# (ansible_connection=local), each with its own loop rig (ext4, xfs), the .deb extracted on
# each, both results fetched to <fleet>/<host>/<dir-label>.json and the N-way table printed;
# then a host that fails (a directory that does not exist), listed first, is reported with
# its error and does not stop the other; then a host name with "../" and two directories
# that the old labels mapped to one name, each fetched to a file of its own inside the fleet
# directory and all in the table; then a play that measures nothing (an unparsable
# inventory, empty alignbench_dirs) fails with one clear line; then an interrupted play (SIGINT to its process
# group, as Ctrl-C sends) leaves no test file in the measured directory.
source "$(dirname "$0")/lib.sh"

: "${ALIGNBENCH_BUILD_DIR:?set ALIGNBENCH_BUILD_DIR to the build tree}"
source "$ALIGNBENCH_SOURCE_DIR/tests/integration/package_lib.sh"
fleet_test_rig ansible-playbook cpack dpkg-shlibdeps

deb=$(build_deb "$WORK/pkg") || { echo "FAIL: cpack -G DEB" >&2; exit 1; }
FLEET_SCRIPTS="$ALIGNBENCH_SOURCE_DIR/scripts/fleet"
# Ansible's temporary directories go here, so that what it leaves is seen.
mkdir -p "$WORK/tmp"
export TMPDIR="$WORK/tmp" ANSIBLE_LOCAL_TEMP="$WORK/tmp" ANSIBLE_REMOTE_TEMP="$WORK/tmp"
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0

# inventory FILE ARGS HOST-LINE...: local hosts running the extracted package with the
# options ARGS (a JSON list).
inventory() {
  local file=$1 args=$2
  shift 2
  {
    printf '%s\n' "[all:vars]" "ansible_connection=local" \
      "ansible_python_interpreter=/usr/bin/python3" "alignbench_install=extract" \
      "alignbench_args='$args'" "[alignbench]" "$@"
  } > "$file"
}
play() {  # play INVENTORY FLEET-DIR: the playbook with this test's package and binary
  ansible-playbook -i "$1" "$FLEET_SCRIPTS/playbook.yml" -e "alignbench_deb=$deb" \
    -e "alignbench_controller=$ALIGNBENCH" -e "fleet_dir=$2"
}

# 1. docs/fleet.md's command: two hosts, two rigs, the fleet table.
"$FLEET_SCRIPTS/local" "$deb" "$ALIGNBENCH" "$WORK/fleet" > "$WORK/table.txt" 2> "$WORK/local.err"
status=$?
check "scripts/fleet/local: exit 0" [ $status -eq 0 ]
[ $status -eq 0 ] || cat "$WORK/local.err" >&2
cat "$WORK/table.txt"
for host in host-a host-b; do
  file=$(find "$WORK/fleet/$host" -name '*.json' -print -quit 2> /dev/null)
  check "$host: its result was fetched to <fleet>/$host/<dir-label>.json" [ -n "$file" ]
  [ -n "$file" ] && check "$host: the result is a complete quick run" \
    json_check "$file" 'a["complete"]' 'a["settings"]["case"]["name"] == "quick"'
done
check "the table has a column group per host" grep -q '^\[2\] ' "$WORK/table.txt"
check "the table has a row for 4K" grep -Eq '^4K +\|' "$WORK/table.txt"
check "the table names the filesystems that differ" \
  grep -Eq '^ *filesystem +\| +ext4 +\| +xfs' "$WORK/table.txt"
check "the rigs are gone" bash -c "! losetup -a | grep -q '$WORK'"
check "no temporary directory of the play is left" \
  bash -c "[ -z \"\$(find '$WORK/tmp' -mindepth 1 -name 'alignbench-fleet.*' -print -quit)\" ]"

# 2. A failing host, listed first, is reported and does not stop the other.
mkdir -p "$WORK/good"
inventory "$WORK/failing.ini" '["--sizes", "4K", "--writes", "4", "--repetitions", "2"]' \
  "host-bad alignbench_dirs='[\"$WORK/does-not-exist\"]'" \
  "host-good alignbench_dirs='[\"$WORK/good\"]'"
play "$WORK/failing.ini" "$WORK/fleet2" > "$WORK/failing.log" 2>&1
check "a failing host fails the play" [ $? -ne 0 ]
check "the other host's result was still fetched" \
  [ -n "$(find "$WORK/fleet2/host-good" -name '*good.json' -print -quit 2> /dev/null)" ]
check "the failing host is named with its error" \
  grep -Eq 'host-bad: .*does-not-exist.*(No such file|ENOENT)' "$WORK/failing.log"
grep -E 'host-bad: ' "$WORK/failing.log" | head -3
check "no temporary directory of the play is left after a failure" \
  bash -c "[ -z \"\$(find '$WORK/tmp' -mindepth 1 -name 'alignbench-fleet.*' -print -quit)\" ]"

# 3. Labels: a host name that climbs out of the fleet directory, and /x/a-b beside /x/a/b.
short='["--sizes", "4K", "--writes", "4", "--repetitions", "2"]'
mkdir -p "$WORK/lab/a-b" "$WORK/lab/a/b" "$WORK/lab2" "$WORK/d1/d2/d3"
F="$WORK/d1/d2/d3/fleet-labels"
inventory "$WORK/labels.ini" "$short" \
  "x/../../../escape alignbench_dirs='[\"$WORK/lab/a-b\", \"$WORK/lab/a/b\"]'" \
  "plain alignbench_dirs='[\"$WORK/lab2\"]'"
play "$WORK/labels.ini" "$F" > "$WORK/labels.log" 2>&1
status=$?
check "labels: the play succeeds (exit $status)" [ $status -eq 0 ]
[ $status -eq 0 ] || grep -E 'fatal|FAILED|msg' "$WORK/labels.log" | head -5 >&2
check "labels: nothing is written outside the fleet directory" \
  [ -z "$(find "$WORK/d1" -name '*.json' -not -path "$F/*" -print -quit)" ]
check "labels: all three results are inside it" [ "$(find "$F" -name '*.json' | wc -l)" -eq 3 ]
check "labels: /x/a-b and /x/a/b have files of their own" \
  [ "$(find "$F" -name '*a-b.json' | wc -l)" -eq 1 -a "$(find "$F" -name '*a%2Fb.json' | wc -l)" -eq 1 ]
check "labels: the host's directory is one name inside the fleet directory" \
  [ -d "$F/x%2F..%2F..%2F..%2Fescape" ]
check "labels: the table has all three" grep -q '^\[3\] ' "$F/fleet-table.txt"

# 4. Nothing measured is an error, said in one line.
printf '[alignbench\nhost-a alignbench_dirs="[\n' > "$WORK/unparsable.ini"
play "$WORK/unparsable.ini" "$WORK/fleet-none" > "$WORK/unparsable.log" 2>&1
status=$?
check "an unparsable inventory fails the play (exit $status)" [ $status -ne 0 ]
check "it says nothing was measured, and why" \
  grep -q "nothing was measured: the inventory has no host in 'all'" "$WORK/unparsable.log"
inventory "$WORK/empty.ini" "$short" "host-empty alignbench_dirs='[]'"
play "$WORK/empty.ini" "$WORK/fleet-empty" > "$WORK/empty.log" 2>&1
status=$?
check "alignbench_dirs=[] fails the play (exit $status)" [ $status -ne 0 ]
check "it names the host and its empty list" \
  grep -q "host-empty: .*alignbench_dirs must be a non-empty list" "$WORK/empty.log"

# 5. An interrupted play: the signal goes to the play's process group, as Ctrl-C (INT) or
# a supervisor (TERM) sends it. Measured here: Ansible's workers ignore SIGINT and the run
# inherits that (alignbench keeps an ignored signal ignored, as nohup asks), so after
# Ctrl-C the run and the play go on to the end, the file removed by the run itself; TERM
# ends the run, which removes its file on the signal, and the play, which then leaves its
# temporary directory (the package copy, no test file) behind.
# interrupt SIGNAL WRITES: the play over one directory, SIGNAL once its run's file exists.
interrupt() {
  local signal=$1 dir="$WORK/slow-$1" started=no pid
  mkdir -p "$dir"
  inventory "$WORK/$signal.ini" "[\"--sizes\", \"4K\", \"--writes\", \"$2\", \"--repetitions\", \"2\"]" \
    "host-slow alignbench_dirs='[\"$dir\"]'"
  setsid bash -c "$(declare -f play); deb='$deb' ALIGNBENCH='$ALIGNBENCH' \
    FLEET_SCRIPTS='$FLEET_SCRIPTS' play '$WORK/$signal.ini' '$WORK/fleet-$signal'" \
    > "$WORK/$signal.log" 2>&1 &
  pid=$!
  cleanup_hooks+=("kill -KILL -- -$pid 2> /dev/null")
  for _ in $(seq 12); do  # Ansible takes seconds to start: up to a minute
    wait_for_run_file "$dir" && { started=yes; break; }
  done
  check "$signal: the run started within a minute" [ $started = yes ]
  kill "-$signal" -- "-$pid"
  wait "$pid"
  # The run gets the signal too, but acts on it only when its fsync returns: a busy
  # shared disk takes seconds.
  for _ in $(seq 300); do
    pgrep -f -- "[a]lignbench --dir $dir" > /dev/null || break
    sleep 0.1
  done
  check "$signal: no test file is left in the directory" no_leftovers "$dir"
  # [a]: the pattern does not match this check's own command line.
  check "$signal: no run is left" bash -c "! pgrep -f -- '[a]lignbench --dir $dir' > /dev/null"
  if [ "$signal" = TERM ]; then
    # A run that ignored the signal would go on to write its result there.
    check "TERM: the run ended on the signal (it wrote no result)" [ -z "$(find "$WORK/tmp" \
      -mindepth 2 -maxdepth 2 -path '*/alignbench-fleet.*/*.json' -print -quit)" ]
  fi
  echo "$signal: $(find "$WORK/fleet-$signal" -name '*.json' 2> /dev/null | wc -l) result(s) fetched," \
    "$(find "$WORK/tmp" -maxdepth 1 -name 'alignbench-fleet.*' | wc -l) temporary directory(ies) left"
  rm -rf "$WORK/tmp/"alignbench-fleet.*
}
interrupt INT 300
interrupt TERM 1000
finish
