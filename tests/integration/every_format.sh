# Every shipped result, and a fresh run, through every format of show (the table compact
# and with --details), and compare: each prints, and no table, markdown row or comparison
# shows a gain outside the interval printed beside it, the compact table's rows the
# detailed one's; a row whose gain of means lies outside is named under "where the
# means point elsewhere". Then scripts/plot draws each, and all together. Inputs: the
# mailing-list tables, this machine class's curated results, an old log case's result, and
# a run of the quick case. No root.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
mkdir "$WORK/run"
"$ALIGNBENCH" --case quick --dir "$WORK/run" --out "$WORK/quick.json" > /dev/null 2>&1 ||
  { echo "FAIL: the quick run" >&2; exit 1; }
files=("$SRC"/results/reference/derby-*.json "$SRC"/results/vm-loop/*.json \
  "$SRC"/tests/fixtures/log-case-schema-2.json "$WORK/quick.json")
check "results found" [ "${#files[@]}" -ge 5 ]
for file in "${files[@]}"; do
  name=${file##*/}
  for format in table markdown csv derby ioping; do
    "$ALIGNBENCH" show --format "$format" "$file" > "$WORK/$name.$format" 2> "$WORK/err"
    check "show --format $format $name: exit 0" [ $? -eq 0 ]
  done
  "$ALIGNBENCH" show --details "$file" > "$WORK/$name.details" 2> "$WORK/err"
  check "show --details $name: exit 0" [ $? -eq 0 ]
  "$ALIGNBENCH" compare "$file" "$WORK/quick.json" > "$WORK/$name.compare" 2> "$WORK/err"
  check "compare $name with a run: exit 0" [ $? -eq 0 ]
  "$PY" - "$WORK/$name.details" "$WORK/$name.markdown" "$WORK/$name.compare" \
    "$WORK/$name.table" <<'PY'
import re, sys
table, markdown, compare, compact = (open(p).read() for p in sys.argv[1:])
bad = []
def inside(gain, low, high):  # the gain to two decimals, the interval to one
    return low - 0.05 <= gain <= high + 0.05
# Table and markdown rows: size | u | a | means %gain | %gain | [low, high] | ...
row = re.compile(r"^\|? *(\S+) \| +[\d.]+ \| +[\d.]+ \| +([+-][\d.]+) \| +([+-][\d.]+) \| "
                 r"+\[([+-][\d.]+), ([+-][\d.]+)\]", re.M)
for text, what in ((table, "table"), (markdown, "markdown")):
    apart = text.split("where the means point elsewhere:", 1)
    for size, means, gain, low, high in row.findall(text):
        means, gain, low, high = map(float, (means, gain, low, high))
        if not inside(gain, low, high):
            bad.append("%s %s: %%gain %+.2f outside [%+.1f, %+.1f]" % (what, size, gain, low, high))
        if not inside(means, low, high) and not re.search(
                r"(^| |- )%s:? +means %%gain" % re.escape(size), apart[-1], re.M):
            bad.append("%s %s: means %%gain %+.2f outside [%+.1f, %+.1f], not named"
                       % (what, size, means, low, high))
# The compact table: size | u | a | %gain [low,high] | verdict, each row as the detailed
# table's (the gain to one decimal); its times marked * exactly where the detailed row's
# gain of means lies outside the interval.
compact_row = re.compile(r"^ *(\S+) \| +[\d.]+(\*?) \| +[\d.]+\*? \| +([+-][\d.]+) "
                         r"\[([+-][\d.]+), ?([+-][\d.]+)\] \|", re.M)
for (size, mark, gain, low, high), full in zip(compact_row.findall(compact), row.findall(table)):
    gain, low, high = map(float, (gain, low, high))
    means, full_low, full_high = float(full[1]), float(full[3]), float(full[4])
    # Past the printed digits' rounding either way: inside by 0.05 or outside by 0.05.
    if (mark and full_low + 0.05 <= means <= full_high - 0.05) or (
            not mark and not inside(means, full_low, full_high)):
        bad.append("compact %s: times marked %r, the detailed row's means %s in [%s, %s]" % (
            size, mark, full[1], full[3], full[4]))
    if not inside(gain, low, high):
        bad.append("compact %s: %%gain %+.1f outside [%+.1f, %+.1f]" % (size, gain, low, high))
    if size != full[0] or abs(float(full[2]) - gain) > 0.051:
        bad.append("compact %s: %%gain %+.1f, the detailed table's row %s %s" % (
            size, gain, full[0], full[2]))
if len(compact_row.findall(compact)) != len(row.findall(table)):
    bad.append("compact: %d rows with an interval, the detailed table %d" % (
        len(compact_row.findall(compact)), len(row.findall(table))))
# compare: "+2.2 [+13.0,+19.9]" cells
for gain, low, high in re.findall(r"([+-][\d.]+) \[([+-][\d.]+),([+-][\d.]+)\]", compare):
    if not inside(float(gain), float(low), float(high)):
        bad.append("compare: %s outside [%s, %s]" % (gain, low, high))
for b in bad:
    print("    " + b, file=sys.stderr)
print(len(row.findall(table)))
sys.exit(1 if bad else 0)
PY
  check "$name: every gain inside its interval, every means apart named" [ $? -eq 0 ]
done > "$WORK/rows"
check "the quick run's rows were read (got $(tail -n 1 "$WORK/rows"))" [ "$(tail -n 1 "$WORK/rows")" -ge 3 ]

# The figures of every one, alone and all together (a log case's names and a mailing-list
# table's missing percentiles once ended scripts/plot with an internal error).
if /usr/bin/python3 -c 'import matplotlib' 2> /dev/null; then
  for file in "${files[@]}"; do
    name=${file##*/}
    "$SRC/scripts/plot" --out "$WORK/fig-$name" "$file" > /dev/null 2> "$WORK/err"
    check "scripts/plot $name: exit 0 ($(tail -n 1 "$WORK/err"))" [ $? -eq 0 ]
    check "scripts/plot $name: the figure" [ -s "$WORK/fig-$name.png" ]
  done
  "$SRC/scripts/plot" --out "$WORK/fig-all" "${files[@]}" > /dev/null 2> "$WORK/err"
  check "scripts/plot of all of them: exit 0 ($(tail -n 1 "$WORK/err"))" [ $? -eq 0 ]
else
  echo "SKIP (part): python3-matplotlib missing: scripts/plot not run (scripts/test installs it)" >&2
fi
finish
