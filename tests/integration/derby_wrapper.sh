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

# Root, then a user, in the user's clone (the README's first hour), without ALIGNBENCH: root
# builds build/ on the clone owner's behalf and hands it over, so the user runs in the
# same tree with no note; both save under results/runs/, which root hands over too. A
# build/ or results/runs/ the user cannot write (an older wrapper's, or an interrupted
# root build) gives way to build-USER/ and results/runs-USER/, with one line each. Root
# after the user builds in the user's build/ and leaves it theirs. Nothing is installed
# or compiled: dpkg-query says every package is there, apt-get and sudo must not be
# called, and cmake's stand-in makes DIR/bench/alignbench a wrapper of the binary under
# test that leaves DIR/ran. As root the user is nobody; without root, "not theirs" is a
# tree this user cannot write (chmod a-w).
stubs=$WORK/stubs
mkdir -p "$stubs"
for tool in apt-get sudo; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$tool" "$WORK" > "$stubs/$tool"
done
printf '#!/bin/sh\necho "install ok installed"\n' > "$stubs/dpkg-query"
as_root=''
if [ "$(id -u)" -eq 0 ]; then
  as_root=1
  bin=$(for_nobody "$ALIGNBENCH")
  user=nobody
  second() { runuser -u nobody -- "$@"; }
  foreign() { chown -R root: "$1"; }  # made by root, as an older wrapper left them
  unforeign() { chown -R nobody: "$1"; }
else
  bin=$ALIGNBENCH
  user=$(id -un)
  second() { "$@"; }
  foreign() { chmod a-w "$1"; }
  unforeign() { chmod u+w "$1"; }
fi
first() { "$@"; }  # root, or the one user there is
cat > "$stubs/cmake" <<STUB
#!/bin/sh
[ "\$1" = --build ] || exit 0
mkdir -p "\$2/bench" &&
  printf '#!/bin/sh\\ntouch "%s/ran"\\nexec "%s" "\$@"\\n' "\$2" "$bin" > "\$2/bench/alignbench" &&
  chmod 755 "\$2/bench/alignbench"
STUB
chmod 755 "$stubs"/*
: > "$WORK/calls" && chmod 666 "$WORK/calls"  # nobody's calls are recorded too
clone=$WORK/clone
mkdir -p "$clone/scripts/lib" "$clone/cases" "$clone/results" "$WORK/dir2"
cp "$SRC/scripts/derby" "$clone/scripts/"
cp "$SRC/scripts/lib/common.sh" "$clone/scripts/lib/"
cp "$SRC/cases/quick.json" "$clone/cases/"
[ -z "$as_root" ] || chown -R nobody: "$clone" "$WORK/dir2"
chmod 755 "$WORK"
derby() {  # derby WHO NAME: the wrapper as WHO (first or second), output in NAME.out/.err
  sleep 1  # a result is named to the second, and these runs take less
  rm -f "$clone"/build*/ran
  "$1" env -u ALIGNBENCH PATH="$stubs:/usr/bin:/bin" HOME=/ "$clone/scripts/derby" \
    "$WORK/dir2" --case "$clone/cases/quick.json" --sizes 4K --writes 4 \
    > "$WORK/$2.out" 2> "$WORK/$2.err"
}
notes() { grep -c '^note: ' "$WORK/$1.err"; }
saved() { find "$clone/results/$1" -name 'quick-*.json' 2> /dev/null | wc -l; }
# (DIR/ran is the stand-in's, made by whoever ran it, after the build)
owner_only() { [ -z "$(find "$1" ! -user "$user" ! -name ran -print -quit)" ]; }

derby first r1
status=$?
check "first run, fresh clone: exit 0 (got $status)" [ "$status" -eq 0 ]
check "first run: built in build/ and ran that" [ -e "$clone/build/ran" ]
check "first run: no note" [ "$(notes r1)" -eq 0 ]
check "first run: saved in results/runs/" [ "$(saved runs)" -eq 1 ]
check "first run: build/ and results/runs/ are the clone owner's" \
  owner_only "$clone/build" && owner_only "$clone/results/runs"
[ "$failed" -eq 0 ] || cat "$WORK/r1.err" >&2

derby second u1
status=$?
check "then $user in the same clone: exit 0 (got $status)" [ "$status" -eq 0 ]
check "then $user: ran in the same build/, with no note" \
  [ -e "$clone/build/ran" ] && [ "$(notes u1)" -eq 0 ]
check "then $user: saved in results/runs/ too" [ "$(saved runs)" -eq 2 ]
[ "$failed" -eq 0 ] || cat "$WORK/u1.err" >&2

foreign "$clone/build"
foreign "$clone/results/runs"
derby second u2
status=$?
check "$user, build/ and results/runs/ not theirs: exit 0 (got $status)" [ "$status" -eq 0 ]
check "$user, build/ not theirs: built in build-$user/ and ran that" \
  [ -e "$clone/build-$user/ran" ]
check "$user, build/ not theirs: one line says so" grep -qx \
  "note: build/ belongs to $(stat -c %U "$clone/build"), who built there; this run builds in build-$user/" \
  "$WORK/u2.err"
check "$user, results/runs/ not theirs: saved in results/runs-$user/" \
  [ "$(saved "runs-$user")" -eq 1 ]
check "$user, results/runs/ not theirs: one line says so" \
  grep -q "^note: results/runs/ belongs to .*; this run saves in results/runs-$user/\$" "$WORK/u2.err"
check "$user, not theirs: those two lines only" [ "$(notes u2)" -eq 2 ]
[ "$failed" -eq 0 ] || cat "$WORK/u2.err" >&2
unforeign "$clone/results/runs"
unforeign "$clone/build"

# The other way round: root, after the user built in build/, builds there and leaves it
# the user's.
if [ -n "$as_root" ]; then
  derby first r2
  status=$?
  check "root after nobody's build/: exit 0 (got $status)" [ "$status" -eq 0 ]
  check "root after nobody's build/: ran in build/, no note" \
    [ -e "$clone/build/ran" ] && [ "$(notes r2)" -eq 0 ]
  check "root after nobody's build/: it is still nobody's" owner_only "$clone/build"
  [ "$failed" -eq 0 ] || cat "$WORK/r2.err" >&2
fi
check "nothing installed (apt-get, sudo: $(cat "$WORK/calls"))" [ ! -s "$WORK/calls" ]

# A DIR that is not there is refused by the wrapper, before it installs or builds.
"$SRC/scripts/derby" "$WORK/missing" --case quick > /dev/null 2> "$WORK/4.err"
status=$?
check "derby MISSING_DIR: exit 1 (got $status)" [ "$status" -eq 1 ]
check "derby MISSING_DIR: says so" grep -q "no directory '$WORK/missing'" "$WORK/4.err"
finish
