# alignbench record on Samba's tdb (tdbtool 1.4.8, Debian's tdb-tools) in its default mode,
# where a replay cannot be the program, and the trace must say why before anything
# measures it:
# 1. tdb writes its records through a shared writable mapping: the trace names the mmap
#    and msync, writes strace cannot see;
# 2. tdb commits a transaction with four fdatasyncs of its one file, which the grouping
#    cannot join (they differ in neither file nor call): the trace says so, four syncs
#    between each of its record-lock releases, and each sync stays a commit.
# Root, as the engine tier is; tdbtool from ENGINE_PACKAGES (scripts/lib/common.sh).
source "$(dirname "$0")/../integration/lib.sh"
TRANSACTIONS=20
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  skip "the engine tier runs once, in the plain build (ALIGNBENCH_SANITIZED=1)"
[ "$(id -u)" -eq 0 ] || skip "needs root, as the engine tier does"
for tool in strace tdbtool; do
  command -v "$tool" > /dev/null || skip "$tool missing (Debian packages strace, tdb-tools)"
done
d=$WORK/tdb
mkdir -p "$d"
{
  echo "create $d/t.tdb"
  for i in $(seq "$TRANSACTIONS"); do
    printf 'transaction_start\nstore k%s v%s\ntransaction_commit\n' "$i" "$i"
  done
} > "$d/commands"
"$ALIGNBENCH" record --file "$d/t.tdb" --out "$d/t.json" -- tdbtool < "$d/commands" \
  > "$d/record.out" 2> "$d/record.err"
check "tdbtool recorded: exit 0 ($(tail -n 2 "$d/record.err"))" [ $? -eq 0 ]
limits() {  # limits PYTHON-CONDITION-ON-l: some limit of the trace meets it
  "$PY" -c 'import json, sys; t = json.load(open(sys.argv[1]))
sys.exit(0 if any(eval(sys.argv[2]) for l in t["limits"]) else 1)' "$d/t.json" "$1"
}
check "tdb: the shared mapping is a limit" \
  limits 'l.startswith("mmap of ") and "MAP_SHARED" in l and "not traced" in l'
check "tdb: four syncs a transaction, not grouped, said" \
  limits "l.startswith('syncs not grouped: between its lock releases the program made 4 syncs each time ($TRANSACTIONS of $TRANSACTIONS transactions)')"
check "tdb: each sync a commit ($((4 * TRANSACTIONS)))" "$PY" -c '
import json, sys
sys.exit(0 if len(json.load(open(sys.argv[1]))["commits"]) == int(sys.argv[2]) else 1)' \
  "$d/t.json" "$((4 * TRANSACTIONS))"
check "tdb: record's summary names the limit" grep -q "limit: syncs not grouped" "$d/record.out"
finish
