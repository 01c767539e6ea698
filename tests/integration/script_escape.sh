# Every line a script prints that names a path, a file, a host or a given name escapes it,
# as alignbench does (shown in scripts/lib/common.sh, shown() in scripts/lib/shown.py): one
# hostile name (ESC with a terminal command, a newline, a carriage return, the C1 control
# CSI, the bidi override U+202E and a byte that is not UTF-8) put through what each script
# says cheaply: its usage errors (a missing DIR, an OUTDIR that exists, an unknown option or
# operand), cache-matrix's error when alignbench env fails, plot's errors and the paths it
# writes, busy-neighbour's and reference-tables' errors, the Python helpers' usage errors,
# derby running a stand-in alignbench, the step lines of common.sh, and, as root, loop-rig's
# and netfs-rig's destroy and list. No output may hold a raw control character (but the
# newline that ends a line), a C1 or bidi control or a byte outside UTF-8; the escaped
# name must be there instead. The three escapers agree with each other.
source "$(dirname "$0")/lib.sh"
S=$ALIGNBENCH_SOURCE_DIR/scripts
export PYTHONDONTWRITEBYTECODE=1
# Nothing is installed, built or mounted: a stub records any such call, which fails.
mkdir "$WORK/stubs"
for tool in apt-get sudo cmake ctest losetup mount mkfs.ext4 ansible-playbook fio debootstrap; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$tool" "$WORK" > "$WORK/stubs/$tool"
  chmod +x "$WORK/stubs/$tool"
done
export PATH="$WORK/stubs:$PATH"

BAD=$HOSTILE SHOWN=$HOSTILE_SHOWN
D="$WORK/$BAD"
mkdir "$D"

n=0
# says NAME STATUS COMMAND...: COMMAND (no standard input) must exit STATUS, its stdout and
# stderr each clean(), and the escaped name (EXPECT, default SHOWN) must be in one of them.
says() {
  local name=$1 want=$2 status=0
  shift 2
  n=$((n + 1))
  "$@" > "$WORK/$n.out" 2> "$WORK/$n.err" < /dev/null || status=$?
  check "$name: exit $want (got $status)" [ "$status" -eq "$want" ]
  check "$name: stdout clean" clean "$WORK/$n.out"
  check "$name: stderr clean" clean "$WORK/$n.err"
  check "$name: the name escaped" grep -qF -- "${EXPECT:-$SHOWN}" "$WORK/$n.out" "$WORK/$n.err"
  [ "$status" -eq "$want" ] || sed "s/^/    ($name) /" "$WORK/$n.err" | head -n 5 | cat -v >&2
}

# --- the three escapers agree --------------------------------------------------------------
MORE=$'\t\x7f\xd8\x9c\xe2\x81\xa6\xe2\x80\x8f\xe2\x80\xa8\xed\xa0\x80\xc3\xa9\\\xf0\x9f\x98\x80\xe2\x80'
check "shown: the name as alignbench escapes it" \
  [ "$(bash -c 'source "$1"; shown "$2"' _ "$S/lib/common.sh" "$BAD")" = "$SHOWN" ]
sh_more=$(bash -c 'source "$1"; shown "$2"' _ "$S/lib/common.sh" "$BAD$MORE")
py_more=$("$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); from shown import shown
print(shown(sys.argv[2]), end="")' "$S/lib" "$BAD$MORE")
check "shown.py: the same as common.sh's shown (got $py_more)" [ "$py_more" = "$sh_more" ]
"$ALIGNBENCH" show "$WORK/$BAD$MORE" > /dev/null 2> "$WORK/show.err"
check "alignbench: the same as shown ($(cat -v "$WORK/show.err"))" grep -qF -- "$sh_more" "$WORK/show.err"
check "shown twice: the same as once" \
  [ "$(bash -c 'source "$1"; shown "$(shown "$2")"' _ "$S/lib/common.sh" "$BAD$MORE")" = "$sh_more" ]
check "shown as a filter: each line escaped" [ "$(printf 'a\e\nb\xc2\x9b\n' |
  bash -c 'source "$1"; shown' _ "$S/lib/common.sh")" = 'a\x1b'$'\n''b\u009b' ]

# --- usage errors and the errors before any work ---------------------------------------------
for script in aa-check answer-check harness-bench peak-rss run-length-check seed-2013 derby; do
  says "$script MISSING-DIR" 1 "$S/$script" "$D/missing"
done
says "seed-2013 LOCAL OUTDIR-THAT-EXISTS" 1 "$S/seed-2013" "$WORK" "$D"
for script in test fresh-debian package overhead-vs fleet/local cache-matrix plot; do
  says "$script --UNKNOWN" 1 "$S/$script" "--x$BAD"
done
says "ci-time OPERAND" 1 "$S/ci-time" "$BAD"
says "fuzz SECONDS" 1 "$S/fuzz" "$BAD"
says "aa-check --busy RATE" 1 "$S/aa-check" --busy "$BAD" "$WORK"
says "power-check --busy RATE" 1 "$S/power-check" --busy "$BAD"
says "answer-check --spin N" 1 "$S/answer-check" --spin "$BAD" "$WORK"
says "fio-crosscheck DIR --UNKNOWN" 1 "$S/fio-crosscheck" "$WORK" "--x$BAD" 1
says "peak-rss DIR WRITES" 1 "$S/peak-rss" "$WORK" "$BAD"
says "cache-matrix DIR DIR" 1 "$S/cache-matrix" "$WORK" "$D"
says "cache-matrix when alignbench env fails" 2 env ALIGNBENCH=/bin/false "$S/cache-matrix" "$D"
says "loop-rig COMMAND" 1 "$S/loop-rig" "$BAD"
says "loop-rig create --size" 1 "$S/loop-rig" create --size "$BAD"
says "netfs-rig create --base" 1 "$S/netfs-rig" create --base "$D"
says "fleet/ssh-hosts COMMAND" 1 "$S/fleet/ssh-hosts" "$BAD"
says "fleet/ssh-hosts up RIGDIR" 1 "$S/fleet/ssh-hosts" up "$D" host-a
says "fleet/ssh-hosts up NAME" 1 "$S/fleet/ssh-hosts" up "$WORK/rigdir" "$BAD"

# --- derby runs alignbench as it is given, and says nothing raw itself -----------------------
printf '#!/bin/sh\nexit 0\n' > "$WORK/alignbench-stand-in"
chmod +x "$WORK/alignbench-stand-in"
n=$((n + 1))
ALIGNBENCH=$WORK/alignbench-stand-in "$S/derby" "$D" --out "$D/r.json" > "$WORK/$n.out" 2> "$WORK/$n.err"
check "derby DIR with a stand-in alignbench: exit 0" [ $? -eq 0 ]
check "derby DIR with a stand-in alignbench: clean" clean "$WORK/$n.err"

# --- the Python scripts -----------------------------------------------------------------------
says "plot MISSING-FILE" 2 "$S/plot" "$D/missing.json"
# A real result, so that the output's directory is what is refused (inputs are read first).
says "plot --out in a missing directory" 2 "$S/plot" --out "$D/missing/figure" \
  "$ALIGNBENCH_SOURCE_DIR/results/vm-loop/cold-rmw-ext4-4k.json"
says "busy-neighbour MISSING-DIR" 2 "$S/busy-neighbour" "$D/missing" -- true
# argparse takes an argument with a space in it for an operand: the option has none.
EXPECT="--x${SHOWN// /_}" says "busy-neighbour --UNKNOWN" 1 "$S/busy-neighbour" "--x${BAD// /_}" "$WORK" -- true
EXPECT="--x${SHOWN// /_}" says "lib/answer_time.py --UNKNOWN" 1 "$PY" "$S/lib/answer_time.py" "--x${BAD// /_}" "$WORK/none.json"
says "reference-tables MISSING-DIR" 2 "$S/reference-tables" "$D/missing"
says "reference-tables --UNKNOWN" 1 "$S/reference-tables" "--x$BAD"
for helper in verdicts.py fs_tables.py run_length.py statistics-table.py overhead.py crosscheck.py; do
  says "lib/$helper --UNKNOWN" 1 "$PY" "$S/lib/$helper" "--x$BAD" "$WORK/none.json"
done
if "$PY" -c 'import matplotlib' 2> /dev/null; then
  "$ALIGNBENCH" --sizes 4K --writes 8 --repetitions 2 --dir "$WORK" --out "$WORK/input.json" \
    > /dev/null 2>&1 || { echo "FAIL: no result file for plot" >&2; exit 1; }
  cp "$WORK/input.json" "$D/input.json"
  says "plot: the paths it wrote" 0 "$S/plot" --out "$D/figure" "$D/input.json"
else
  echo "SKIP (part): python3-matplotlib not installed: no figure of plot's is written" >&2
fi

# --- common.sh's step lines -----------------------------------------------------------------
# shellcheck disable=SC2016  # $1, $2 and $3 are the inner bash's
says "step: its line, its log and the reason" 3 bash -c \
  'source "$1"; step "$2/step.log" "$3" sh -c "echo \"error: \$0\"; exit 3" "$3"' \
  _ "$S/lib/common.sh" "$D" "$BAD"
check "step: the log's path escaped" grep -qF "its output is in $WORK/$SHOWN/step.log" "$WORK/$n.err"
# The log's lines as they are there: the name's newline ended the first.
check "step: the reason escaped" grep -qxF "    error: ${SHOWN%%\\n*}" "$WORK/$n.err"

# --- as root: the rigs' destroy and list, on a rig of another user's making -------------------
if [ "$(id -u)" -eq 0 ]; then
  says "loop-rig destroy NOT-A-RIG" 2 "$S/loop-rig" destroy "$D"
  says "netfs-rig destroy NOT-A-RIG" 2 "$S/netfs-rig" destroy "$D"
  # What any user can leave in a world-writable TMPDIR: a directory that looks like a rig,
  # its rig.env naming a mount (one line: no newline or CR in it).
  mkdir -p "$WORK/tmp/alignbench-rig.fake" "$WORK/tmp/alignbench-netfs.fake"
  line=$'/x\e]0;owned\a\xc2\x9b2J\xe2\x80\xaeevil\x9by'
  printf 'MOUNT=%s\nFS=ext4\nSECTOR=4096\n' "$line" > "$WORK/tmp/alignbench-rig.fake/rig.env"
  printf 'MOUNT=%s\nFSYNC=on\n' "$line" > "$WORK/tmp/alignbench-netfs.fake/rig.env"
  EXPECT='/x\x1b]0;owned\x07\u009b2J\u202eevil\x9by'
  says "loop-rig list" 0 env TMPDIR="$WORK/tmp" "$S/loop-rig" list
  says "netfs-rig list" 0 env TMPDIR="$WORK/tmp" "$S/netfs-rig" list
  EXPECT=''
else
  echo "SKIP (part): not root: loop-rig's and netfs-rig's destroy and list refuse before naming a path" >&2
fi

check "nothing was installed, built or mounted ($(cat "$WORK/calls" 2> /dev/null))" \
  [ ! -e "$WORK/calls" ]
finish
