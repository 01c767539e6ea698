# The git revision a build records is found in a clone owned by another user too, as
# when root builds a user's clone (the README's path on a fresh machine), where git
# refuses a plain read of a repository it does not own ("dubious ownership").
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root, to read a clone owned by another user"
command -v git > /dev/null || skip "git missing"
git -C "$ALIGNBENCH_SOURCE_DIR" rev-parse HEAD > /dev/null 2>&1 ||
  skip "the source tree is not a git checkout"
git clone -q --no-local "$ALIGNBENCH_SOURCE_DIR" "$WORK/clone" ||
  { echo "FAIL: git clone" >&2; exit 1; }
chown -R nobody: "$WORK/clone"
want=$(git -c safe.directory="$WORK/clone" -C "$WORK/clone" rev-parse --short=12 HEAD)
check "git refuses the clone without safe.directory (else this test shows nothing)" \
  bash -c "! git -C '$WORK/clone' rev-parse HEAD > /dev/null 2>&1"
cmake -DSOURCE_DIR="$WORK/clone" -DOUTPUT="$WORK/version.h" -DPROJECT_VERSION=0 \
  -P "$ALIGNBENCH_SOURCE_DIR/cmake/version.cmake" > "$WORK/cmake.out" 2>&1
check "cmake/version.cmake runs" [ $? -eq 0 ]
check "the revision of the clone owned by nobody ($want) is recorded" \
  grep -q "kGitRevision\[\] = \"$want\";" "$WORK/version.h"
[ "$failed" -eq 0 ] || cat "$WORK/cmake.out" "$WORK/version.h" >&2
finish
