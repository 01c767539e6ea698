# End to end: cases/quick.json in a temporary directory. The run prints the compact report;
# the detailed table (show --details of its result) and the JSON must agree,
# the JSON must keep Google Benchmark's document, and nothing may be left behind, also after
# a failed run and after Ctrl-C.
source "$(dirname "$0")/lib.sh"

target="$WORK/target"
mkdir "$target"
echo "keep me" > "$target/existing"
"$ALIGNBENCH" --case "$ALIGNBENCH_SOURCE_DIR/cases/quick.json" --dir "$target" \
  --out "$WORK/quick.json" > "$WORK/table.txt" 2> "$WORK/stderr.txt"
check "quick run exits 0" [ $? -eq 0 ]
check "no .alignbench-* left after a run" no_leftovers "$target"
check "pre-existing file untouched" grep -qx "keep me" "$target/existing"
check "table on stdout, context on stderr" grep -q "^--- $target (" "$WORK/stderr.txt"
check "the run prints the compact report: the pointer to --details, 80 columns" \
  eval "grep -q '^more: --details' '$WORK/table.txt' && ! awk 'length > 80' '$WORK/table.txt' | grep -q ."
# The detailed table, as show --details prints the saved result, against the JSON.
"$ALIGNBENCH" show --details "$WORK/quick.json" > "$WORK/details.txt" 2>&1

agree() {
  "$PY" - "$WORK/quick.json" "$WORK/details.txt" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read()
assert set(doc) == {"context", "benchmarks", "alignbench"}, list(doc)
runs = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
assert len(runs) == 36, len(runs)  # 3 sizes x 2 variants x 6 runs
ab = doc["alignbench"]
assert ab["schema_version"] == 3
assert 0 <= ab["settings"]["seed"] < 2**53
assert [p["size_bytes"] for p in ab["pairs"]] == [65536, 4096, 1024]
rows = re.findall(r"^\s*(\d+K) \|\s+([\d.]+) \|\s+([\d.]+) \|\s+([+-][\d.]+) \|", table, re.M)
assert [r[0] for r in rows] == ["64K", "4K", "1K"], rows
for pair, row in zip(ab["pairs"], rows):
    u = pair["unaligned"]["write_sync"]["mean_ns"] / 1e6
    a = pair["aligned"]["write_sync"]["mean_ns"] / 1e6
    assert pair["unaligned"]["write_sync"]["count"] == 96  # 6 x 16 writes
    assert abs(pair["means_gain_pct"] - (100 * u / a - 100)) < 1e-9, pair["means_gain_pct"]
    assert pair["gain_pct"] == pair["gain_interval_pct"]["estimate_pct"], pair
    assert float(row[1]) == round(u, 4) and float(row[2]) == round(a, 4), (row, u, a)
    assert float(row[3]) == round(pair["means_gain_pct"], 2), (row, pair["means_gain_pct"])
    assert pair["verdict"] in ("aligned faster", "unaligned faster", "leans aligned",
                               "leans unaligned", "no significant difference")
    interval = pair["gain_interval_pct"]
    lo, hi = interval["low"], interval["high"]
    # The estimate may sit one double past an open end: a Walsh average the test rejects
    # (many blocks tied there) beside a gap it accepts.
    assert -100 < lo <= interval["estimate_pct"] + 1e-9 and interval["estimate_pct"] <= hi + 1e-9, interval
    assert (pair["p_value"] < 0.05) == (lo > 0 or hi < 0), (pair["p_value"], interval)
    # The estimate is Hodges-Lehmann's: the median of the Walsh averages of the blocks'
    # log ratios of run medians.
    import math, statistics
    by_block = {r["block"]: r["p50_ns"] for r in pair["aligned"]["runs"]}
    d = [math.log(r["p50_ns"] / by_block[r["block"]]) for r in pair["unaligned"]["runs"]]
    walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
    hl = statistics.median(walsh)
    assert abs(100 * math.expm1(hl) - interval["estimate_pct"]) < 1e-6, (hl, interval)
    assert interval["method"] == "signed-rank-log-median" and interval["units"] == 6, interval
    # Blocks: one run of each variant, back to back.
    for ru, ra in zip(sorted(pair["unaligned"]["runs"], key=lambda r: r["block"]),
                      sorted(pair["aligned"]["runs"], key=lambda r: r["block"])):
        assert ru["block"] == ra["block"] and abs(ru["order"] - ra["order"]) == 1, (ru, ra)
    # Google Benchmark's own times (ms per write, one per run) average
    # to our mean: every repetition has the same number of writes.
    bench = [b["real_time"] for b in runs if b["name"].startswith(
        "alignbench/%dK/unaligned/" % (pair["size_bytes"] // 1024))]
    assert len(bench) == 6 and abs(sum(bench) / 6 - u) < 1e-6 * max(1, u), (bench, u)
PY
}
check "table and JSON agree" agree

# --seed repeats the order of the runs; another seed gives another.
order_of() {  # order_of SEED NAME: "size:variant" per run, in the order measured
  "$ALIGNBENCH" --dir "$target" --sizes 4K,8K,16K --writes 2 --repetitions 3 --seed "$1" \
    --out "$WORK/$2.json" > /dev/null 2>&1 || return 1
  "$PY" - "$WORK/$2.json" "$1" <<'PY'
import json, sys
ab = json.load(open(sys.argv[1]))["alignbench"]
runs = [(r["order"], p["size_bytes"], v) for p in ab["pairs"]
        for v in ("unaligned", "aligned") for r in p[v]["runs"]]
assert ab["settings"]["seed"] == int(sys.argv[2])
print(" ".join("%d:%s" % (size, v) for _, size, v in sorted(runs)))
PY
}
same_seed_same_order() {
  local a b c
  a=$(order_of 7 seed-7a) && b=$(order_of 7 seed-7b) && c=$(order_of 8 seed-8) || return 1
  echo "    seed 7: $a"
  echo "    seed 8: $c"
  [ "$a" = "$b" ] && [ "$a" != "$c" ]
}
check "the same --seed gives the same order, another seed another" same_seed_same_order

shows_same() {
  "$ALIGNBENCH" show "$WORK/quick.json" > "$WORK/shown.txt" && diff -q "$WORK/table.txt" "$WORK/shown.txt"
}
check "show re-renders the same table" shows_same

# A run that fails during setup (the directory vanishes) leaves nothing either.
"$ALIGNBENCH" --case "$ALIGNBENCH_SOURCE_DIR/cases/quick.json" --dir "$WORK/missing" \
  > /dev/null 2> "$WORK/err.txt"
check "missing dir: setup exit code 2" [ $? -eq 2 ]
check "missing dir: one clear line" grep -q "^alignbench: error: .*$WORK/missing.*(ENOENT)" "$WORK/err.txt"

# Ctrl-C mid-run: the signal's exit status and no leftover file.
# Job control gives the background job the default SIGINT action, as a terminal would.
set -m
"$ALIGNBENCH" --dir "$target" --sizes 1K --writes 1000000 --sync fsync > /dev/null 2>&1 &
pid=$!
set +m
check "a run's file exists while it runs" wait_for_run_file "$target"
kill -INT "$pid"
wait "$pid"
status=$?
check "SIGINT: exit status 130 (got $status)" [ "$status" -eq 130 ]
check "SIGINT: no .alignbench-* left" no_leftovers "$target"
check "pre-existing file still untouched" grep -qx "keep me" "$target/existing"
finish
