# Shared by the shell tests: the binary, a private work directory removed on every exit
# path, and the closing "N passed, M failed" line that CTest's log shows.
set -u
: "${ALIGNBENCH:?set ALIGNBENCH to the alignbench binary}"
: "${ALIGNBENCH_SOURCE_DIR:?set ALIGNBENCH_SOURCE_DIR to the source tree}"
PY=/usr/bin/python3
passed=0
failed=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/alignbench-test.XXXXXX")
cleanup_hooks=()
cleanup() {
  local hook
  for hook in "${cleanup_hooks[@]}"; do eval "$hook" || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

check() {  # check "what" command...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
  fi
}

skip() {  # a test without its rig says so loudly and exits 77 (CTest: skipped)
  echo "SKIP: $*" >&2
  exit 77
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

no_leftovers() {  # no .alignbench-* file in the directory
  [ -z "$(find "$1" -maxdepth 1 -name '.alignbench-*' -print -quit)" ]
}
