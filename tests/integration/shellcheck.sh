# Every shell script is shellcheck clean: the programs in scripts/ (found by their
# shebang: they have no file ending), what they source from scripts/lib/, the tests'
# scripts and .ci/run. One finding fails the test, with every finding in its log. The
# settings are .shellcheckrc's (bash; each `source` followed to its file). A check that
# is wrong for one line is disabled on that line, with the reason beside it.
source "$(dirname "$0")/lib.sh"

if ! command -v shellcheck > /dev/null; then
  # scripts/test installs it as root (TEST_PACKAGES): missing there is a broken setup.
  [ "$(id -u)" -ne 0 ] || { echo "FAIL: shellcheck missing (Debian package shellcheck)" >&2; exit 1; }
  skip "shellcheck missing; as root: apt-get install -y shellcheck"
fi

cd "$ALIGNBENCH_SOURCE_DIR" || exit 1
scripts=()
while IFS= read -r -d '' file; do
  case $file in
    *.sh) scripts+=("$file") ;;
    *) head -n 1 -- "$file" | grep -qE '^#! *(/usr)?/bin/(env +)?(ba)?sh( |$)' && scripts+=("$file") ;;
  esac
done < <(find scripts tests .ci -type f \( -name '*.sh' -o -path 'scripts/*' ! -name '*.*' -o -path .ci/run \) -print0 |
  sort -z)

# Far fewer would mean the search above lost its way, not that the scripts got clean.
check "found the scripts (${#scripts[@]})" [ "${#scripts[@]}" -ge 80 ]
listed=" ${scripts[*]} "
for want in scripts/loop-rig scripts/fleet/local scripts/lib/common.sh tests/integration/lib.sh; do
  check "$want is among them" [ -z "${listed##* "$want" *}" ]
done
# In as many processes as there are CPUs, a share of the scripts each: one process takes
# about 40 s of CPU. xargs exits 123 where any of them found something.
printf '%s\0' "${scripts[@]}" |
  xargs -0 -P "$(nproc)" -n "$(( (${#scripts[@]} + $(nproc) - 1) / $(nproc) ))" \
    shellcheck --format=gcc -- > "$WORK/findings.txt" 2>&1
status=$?
count=$(grep -c '' "$WORK/findings.txt")
check "shellcheck: exit 0 and not a line of output on ${#scripts[@]} scripts (exit $status, $count lines)" \
  test "$status" -eq 0 -a ! -s "$WORK/findings.txt"
[ ! -s "$WORK/findings.txt" ] || sed 's/^/  /' "$WORK/findings.txt" >&2
finish
