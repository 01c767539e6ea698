# scripts/derby's defaults (the derby-2004 case, DIR, the result file under results/runs/
# named after the case) give way to the options it is given: --case NAME runs that case,
# --out FILE saves there, --dir D measures there; each reaches alignbench once. The smoke
# case keeps it to seconds. ALIGNBENCH makes the wrapper run the binary under test, so
# nothing is installed or built.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
export ALIGNBENCH

case_of() {  # case_of FILE: the case a result file says it ran
  "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["alignbench"]["settings"]["case"]["name"])' "$1"
}

mkdir -p "$WORK/dir"
"$SRC/scripts/derby" "$WORK/dir" --case quick --out "$WORK/quick.json" \
  > "$WORK/1.out" 2> "$WORK/1.err"
status=$?
check "derby DIR --case quick --out FILE: exit 0 (got $status)" [ "$status" -eq 0 ]
check "derby DIR --case quick --out FILE: the quick case ran" \
  [ "$(case_of "$WORK/quick.json" 2> /dev/null)" = quick ]
check "derby DIR --case quick --out FILE: in DIR" grep -qF -- "--- $WORK/dir " "$WORK/1.out"
[ "$failed" -eq 0 ] || cat "$WORK/1.err" >&2

# The = forms and --dir instead of DIR: the default /var/tmp is not passed as well.
"$SRC/scripts/derby" --case=quick --dir "$WORK/dir" --out="$WORK/quick2.json" \
  > "$WORK/2.out" 2> "$WORK/2.err"
status=$?
check "derby --case=quick --dir D --out=FILE: exit 0 (got $status)" [ "$status" -eq 0 ]
check "derby --case=quick --dir D --out=FILE: in D" grep -qF -- "--- $WORK/dir " "$WORK/2.out"
[ "$failed" -eq 0 ] || cat "$WORK/2.err" >&2

# Without --out the file is named after the case, under the tree's results/runs/: a copy
# of the script in a tree of its own, so that the source tree gets no file.
mkdir -p "$WORK/tree/scripts/lib"
cp "$SRC/scripts/derby" "$WORK/tree/scripts/"
cp "$SRC/scripts/lib/common.sh" "$WORK/tree/scripts/lib/"
"$WORK/tree/scripts/derby" "$WORK/dir" --case quick > "$WORK/3.out" 2> "$WORK/3.err"
status=$?
check "derby DIR --case quick: exit 0 (got $status)" [ "$status" -eq 0 ]
saved=$(find "$WORK/tree/results/runs" -name 'quick-*.json' 2> /dev/null)
[ -n "$saved" ] && [ "$(case_of "$saved")" = quick ]
check "derby DIR --case quick: results/runs/quick-HOST-TIME.json (got '$saved')" [ $? -eq 0 ]
[ "$failed" -eq 0 ] || cat "$WORK/3.err" >&2

# A DIR that is not there is refused by the wrapper, before it installs or builds.
"$SRC/scripts/derby" "$WORK/missing" --case quick > /dev/null 2> "$WORK/4.err"
status=$?
check "derby MISSING_DIR: exit 1 (got $status)" [ "$status" -eq 1 ]
check "derby MISSING_DIR: says so" grep -q "no directory '$WORK/missing'" "$WORK/4.err"
finish
