# Faults on real filesystems: a full disk, a read-only mount, a directory the user may not
# write, and signals mid-run. Each must give a clear one-line error and its exit code, leave
# no .alignbench-* file, and leave every pre-existing byte as it was.
source "$(dirname "$0")/lib.sh"
make_rig --sector 4096 --fs ext4 --size 32M

# A file that must survive everything byte for byte.
head -c 1000000 /dev/urandom > "$RIG/precious"
sum_before=$(sha256sum < "$RIG/precious")
untouched() { [ "$(sha256sum < "$RIG/precious")" = "$sum_before" ]; }

run() {  # run NAME alignbench-args...: exit status in $status, stderr in $WORK/NAME.err
  local name=$1
  shift
  "$ALIGNBENCH" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"
  status=$?
}
one_error_line() { [ "$(grep -c '^alignbench: error: ' "$WORK/$1.err")" -eq 1 ]; }

# 1. A plan larger than the filesystem is refused before anything is written.
run toobig --dir "$RIG" --sizes 1M --writes 64 --repetitions 1
check "plan too big: setup exit code 2 (got $status)" [ "$status" -eq 2 ]
check "plan too big: ENOSPC and how much was needed" \
  grep -q "check free space $RIG: No space left on device (ENOSPC); the plan needs" "$WORK/toobig.err"
check "plan too big: one error line" one_error_line toobig

# 2. The disk fills up while measuring: a filler takes the free space once the run has
# started, so the next write gets ENOSPC from the kernel.
"$ALIGNBENCH" --dir "$RIG" --sizes 64K --writes 200 --repetitions 20 --sync fsync \
  > "$WORK/full.out" 2> "$WORK/full.err" &
pid=$!
wait_for_run_file "$RIG"
fallocate -l "$(df --output=avail -B1 "$RIG" | tail -1)" "$RIG/filler" 2>/dev/null ||
  dd if=/dev/zero of="$RIG/filler" bs=64K status=none 2>/dev/null
wait "$pid"
status=$?
check "disk full mid-run: I/O exit code 3 (got $status)" [ "$status" -eq 3 ]
check "disk full mid-run: pwrite ... ENOSPC with path and offset" \
  grep -Eq "^alignbench: error: pwrite $RIG/\.alignbench-[0-9]+-[0-9a-f]+: No space left on device \(ENOSPC\) at offset [0-9]+; the filesystem is full, .*\(a run needs up to [0-9]+ bytes, one run at a time\)$" \
  "$WORK/full.err"
check "disk full mid-run: the table is marked incomplete" grep -q "INCOMPLETE" "$WORK/full.out"
check "disk full mid-run: no .alignbench-* left" no_leftovers "$RIG"
check "disk full mid-run: pre-existing file unchanged" untouched
rm -f "$RIG/filler"

# 3. A read-only mount.
mount -o remount,ro "$RIG"
run readonly --dir "$RIG" --sizes 4K --writes 4
check "read-only: setup exit code 2 (got $status)" [ "$status" -eq 2 ]
check "read-only: EROFS and a hint" grep -q "Read-only file system (EROFS); the filesystem is mounted read-only" "$WORK/readonly.err"
check "read-only: one error line" one_error_line readonly
mount -o remount,rw "$RIG"

# 4. A directory an unprivileged user may not write.
mkdir -m 0755 "$RIG/root-only"
run noaccess --dir "$RIG/root-only" --sizes 4K --writes 4
status_root=$status
setpriv --reuid=nobody --regid=nogroup --clear-groups \
  "$(for_nobody "$ALIGNBENCH")" --dir "$RIG/root-only" --sizes 4K --writes 4 \
  > "$WORK/nobody.out" 2> "$WORK/nobody.err"
status=$?
check "root may write there (control)" [ "$status_root" -eq 0 ]
check "as nobody: setup exit code 2 (got $status)" [ "$status" -eq 2 ]
check "as nobody: EACCES and a hint" grep -q "Permission denied (EACCES); choose a directory you may write with --dir" "$WORK/nobody.err"
check "as nobody: one error line" one_error_line nobody

# 5. Signals mid-run: the signal's exit status, no file left, nothing else touched.
for signal in INT TERM HUP; do
  set -m  # the job gets default signal dispositions, as from a terminal
  "$ALIGNBENCH" --dir "$RIG" --sizes 1K --writes 20000 --repetitions 1 --sync fsync \
    > /dev/null 2>&1 &
  pid=$!
  set +m
  wait_for_run_file "$RIG"
  kill "-$signal" "$pid"
  wait "$pid"
  status=$?
  expected=$((128 + $(kill -l "$signal")))
  check "SIG$signal: exit status $expected (got $status)" [ "$status" -eq "$expected" ]
  check "SIG$signal: no .alignbench-* left" no_leftovers "$RIG"
done

check "pre-existing file unchanged after everything" untouched
check "only the files the test made are on the rig" \
  test "$(find "$RIG" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | tr '\n' ' ')" = "lost+found precious root-only "
finish
