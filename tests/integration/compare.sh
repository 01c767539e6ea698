# Comparing results: alignbench compare between two runs and between Jan's 2005 table and a
# run (the differing settings must be named), and Google Benchmark's own compare.py
# (libbenchmark-tools) must read our files.
source "$(dirname "$0")/lib.sh"

for name in base new; do
  mkdir -p "$WORK/$name"
  "$ALIGNBENCH" --dir "$WORK/$name" --sizes 64K,4K --writes 8 --repetitions 2 \
    --out "$WORK/$name.json" > /dev/null 2>&1
  check "$name run" [ $? -eq 0 ]
done
mkdir -p "$WORK/other"
"$ALIGNBENCH" --dir "$WORK/other" --sizes 64K,4K --writes 8 --repetitions 2 --sync fdatasync \
  --out "$WORK/other.json" > /dev/null 2>&1

"$ALIGNBENCH" compare "$WORK/base.json" "$WORK/new.json" > "$WORK/same.txt" 2>&1
check "compare two runs: exit 0" [ $? -eq 0 ]
check "compare two runs: a row for 64K" grep -Eq '^ +64K \|' "$WORK/same.txt"
check "compare two runs: a row for 4K" grep -Eq '^ +4K \|' "$WORK/same.txt"
check "compare two runs: nothing differs in the settings" bash -c "! grep -q 'warning: the two results differ' '$WORK/same.txt'"

"$ALIGNBENCH" compare "$WORK/base.json" "$WORK/other.json" > "$WORK/other.txt" 2>&1
check "compare different sync: no pair matches, and the table says so" \
  grep -q "no pair of BASE matches a pair of NEW" "$WORK/other.txt"
check "compare different sync: the sync method is named" grep -q "sync: fsync -> fdatasync" "$WORK/other.txt"

jan="$ALIGNBENCH_SOURCE_DIR/results/reference/derby-2005-jan-linux-raid1-cache-off.json"
"$ALIGNBENCH" compare "$jan" "$WORK/base.json" > "$WORK/jan.txt" 2>&1
check "compare with Jan's table: exit 0" [ $? -eq 0 ]
check "compare with Jan's table: names the filesystem" grep -q "filesystem: ext3 ->" "$WORK/jan.txt"
check "compare with Jan's table: names the write cache" grep -q "write cache: write through ->" "$WORK/jan.txt"
check "compare with Jan's table: Jan's 64K gain" grep -Eq '^ +64K \| +\+83\.6 ' "$WORK/jan.txt"
check "compare with Jan's table: his unknown p99 is n/a, not nan" bash -c "! grep -qi nan '$WORK/jan.txt'"

# The N-way table: 2, 3 and 10 files (copies of one result, told apart by their file
# names), each within a second in the plain build (0.12 s measured for 10, docs/fleet.md);
# a column group per file and the fields that differ. Under the sanitizers the time says
# nothing about the tool (1.3 s for 10 files in CI), so there the bound is left out, loudly.
[ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
  echo "SKIP (part): the one-second bound is held in the plain build, not under the sanitizers" >&2
for i in $(seq 0 9); do cp "$WORK/base.json" "$WORK/copy$i.json"; done
for n in 2 3 10; do
  files=()
  for i in $(seq 0 $((n - 1))); do files+=("$WORK/copy$i.json"); done
  start=$(date +%s%N)
  "$ALIGNBENCH" compare --format table "${files[@]}" > "$WORK/many$n.txt" 2>&1
  status=$?
  elapsed_ms=$((($(date +%s%N) - start) / 1000000))
  echo "compare of $n files: ${elapsed_ms} ms"
  check "compare of $n files: exit 0" [ $status -eq 0 ]
  [ -n "${ALIGNBENCH_SANITIZED:-}" ] ||
    check "compare of $n files: within a second" [ "$elapsed_ms" -lt 1000 ]
  check "compare of $n files: a column group per file" grep -q "^\[$n\] .*(.*copy$((n - 1)).json)" "$WORK/many$n.txt"
  check "compare of $n files: one row for 64K" [ "$(grep -Ec '^64K +\|' "$WORK/many$n.txt")" -eq 1 ]
done
check "compare of copies: nothing differs" grep -q "no setting or environment field differs" "$WORK/many10.txt"
"$ALIGNBENCH" compare --format csv "$WORK/base.json" "$WORK/other.json" "$jan" > "$WORK/many.csv" 2>&1
check "csv of 3 files: one row per file and pair (2 + 2 + 13)" [ "$(($(wc -l < "$WORK/many.csv") - 1))" -eq 17 ]
check "csv of 3 files: the differing sync is a column" grep -q "^label,.*field_sync," "$WORK/many.csv"
"$ALIGNBENCH" compare --format markdown "$WORK/base.json" "$WORK/other.json" > "$WORK/many.md" 2>&1
check "markdown of 2 files: the sync row of the fields that differ" grep -q "^| sync | fsync | fdatasync |$" "$WORK/many.md"

compare_py=/usr/share/benchmark/compare.py
[ -f "$compare_py" ] || skip "$compare_py missing (Debian package libbenchmark-tools)"
/usr/bin/python3 "$compare_py" benchmarks "$WORK/base.json" "$WORK/new.json" > "$WORK/gbench.txt" 2>&1
check "compare.py reads our files (exit 0)" [ $? -eq 0 ]
check "compare.py lists our benchmarks" grep -q "alignbench/4K/unaligned/fsync/buffered/extend/warm" "$WORK/gbench.txt"
finish
