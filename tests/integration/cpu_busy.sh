# The CPU time others used, from the idle windows before the rounds: a run beside a
# process spinning on every CPU records for each pair a share of at least a half and names
# the busy CPUs in its answer line; the share is in the result file, which reads back.
# A directory without a device (tmpfs) measured beside it names them too: the CPUs are
# the machine's, whatever the directory.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
spin_every_cpu
sleep 0.2
"$ALIGNBENCH" --dir "$target" --sizes 4K,8K --writes 8 --precision 0.01 --budget 1 --details \
  --out "$WORK/busy.json" > "$WORK/busy.out" 2> "$WORK/busy.err"
status=$?
check "the run beside the spinners: exit 0 (got $status)" [ "$status" -eq 0 ]
shm=''
if [ "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs ]; then
  shm=$(mktemp -d /dev/shm/alignbench-cpu-busy.XXXXXX)
  # shellcheck disable=SC2016  # lib.sh's cleanup evals it at the end
  cleanup_hooks+=('rm -rf "$shm"')
  "$ALIGNBENCH" --dir "$shm" --dir "$target" --sizes 4K --writes 8 --precision 0.01 \
    --budget 1 --out "$WORK/two.json" > "$WORK/two.out" 2>> "$WORK/busy.err"
  status=$?
  check "the run of tmpfs and $target beside the spinners: exit 0 (got $status)" \
    [ "$status" -eq 0 ]
fi
stop_spinners
shares=$("$PY" -c '
import json, sys
pairs = json.load(open(sys.argv[1]))["alignbench"]["pairs"]
print(" ".join(str(p.get("others_cpu_share", "none")) for p in pairs))
' "$WORK/busy.json" 2>&1)
# Idle windows are taken only in a directory on a block device.
[[ $shares == *none* ]] && skip "no idle windows in $target (not on a block device?): $shares"
for share in $shares; do
  check "a pair's share of the CPU time used by others: at least 0.5 (got $share)" \
    "$PY" -c 'import sys; sys.exit(not float(sys.argv[1]) >= 0.5)' "$share"
done
check "the answer line names the busy CPUs" \
  grep -q "^answer: .*the CPUs were busy (others used [0-9]* % of their time" "$WORK/busy.out"
"$ALIGNBENCH" show --details "$WORK/busy.json" > "$WORK/show.out" 2>&1
check "the file reads back (alignbench show)" grep -q "the CPUs were busy" "$WORK/show.out"
if [ -n "$shm" ]; then
  for dir in "$shm" "$target"; do
    # shellcheck disable=SC2016  # an awk program
    check "$dir's answer names the busy CPUs" \
      awk -v head="$dir: answer: " 'index($0, head) == 1 && /the CPUs were busy/ { found = 1 }
        END { exit !found }' "$WORK/two.out"
  done
else
  echo "SKIP (part): /dev/shm is not a tmpfs here; the directory without a device is not run" >&2
fi
[ "$failed" -eq 0 ] || cat "$WORK/busy.err" "$WORK/busy.out" "$WORK/show.out" "$WORK/two.out" >&2
finish
