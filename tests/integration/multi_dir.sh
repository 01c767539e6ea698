# Several directories in one run: --dir A --dir B on an ext4 and an xfs loop rig measures
# the same plan in both, the runs of both in one interleaved schedule (so that both see the
# same minutes of the machine's noise, not one after the other); one
# result per directory, each valid and holding only its own runs; a summary line for each.
source "$(dirname "$0")/lib.sh"
make_rig --fs ext4 --sector 4096
EXT4=$RIG
make_rig --fs xfs --sector 4096
XFS=$RIG

"$ALIGNBENCH" --dir "$EXT4" --dir "$XFS" --case "$ALIGNBENCH_SOURCE_DIR/cases/quick.json" \
  --out "$WORK/fleet.json" > "$WORK/out.txt" 2> "$WORK/err.txt"
status=$?
check "two directories: exit 0 (got $status; $(tail -n1 "$WORK/err.txt"))" [ "$status" -eq 0 ]
# Both rigs are mounted at .../mnt: the second label gets its position.
ext4_file="$WORK/fleet-in-mnt.json"
xfs_file="$WORK/fleet-in-dir2-mnt.json"
check "one result file per directory, named after it ($(cd "$WORK" && echo fleet.*))" \
  [ -s "$ext4_file" ] && [ -s "$xfs_file" ]
check "no result under the bare --out name" [ ! -e "$WORK/fleet.json" ]
check "a summary line per directory, after the tables" \
  [ "$(grep -c "^--- $EXT4 (ext4 .*): 3 pairs: " "$WORK/out.txt")" -eq 1 ] && \
  [ "$(grep -c "^--- $XFS (xfs .*): 3 pairs: " "$WORK/out.txt")" -eq 1 ]
check "one table with a column group per directory" \
  grep -q "^size | *\[1\] %gain .* | *\[2\] %gain" "$WORK/out.txt"
check "the groups are labelled by host, disk and directory" \
  grep -q "^\[2\] .* / .* / $XFS\$" "$WORK/out.txt"
check "the fields that differ name the filesystems" \
  grep -Eq "^ *filesystem *\| *ext4 *\| *xfs" "$WORK/out.txt"
check "stderr says the schedule is interleaved" \
  grep -q "in each of 2 directories, interleaved" "$WORK/err.txt"
check "the ext4 result is the ext4 directory's, with its own runs only" \
  json_check "$ext4_file" "a['settings']['dir'] == '$EXT4'" \
  "a['environment']['target']['fs_type'] == 'ext4'" "len(a['pairs']) == 3"
check "the xfs result is the xfs directory's" \
  json_check "$xfs_file" "a['settings']['dir'] == '$XFS'" \
  "a['environment']['target']['fs_type'] == 'xfs'"
check "both have the same seed" \
  "$PY" -c "import json,sys; s=[json.load(open(f))['alignbench']['settings']['seed'] for f in sys.argv[1:]]; sys.exit(s[0] != s[1])" \
  "$ext4_file" "$xfs_file"
# Interleaved: 3 pairs x 2 variants x 6 runs in each directory, 72 runs in all, numbered
# in the order measured. One directory after the other would switch directories once along
# that order; shuffled blocks switch about 18 times (once only with probability 1e-10).
check "the runs of both directories are interleaved in one schedule" \
  "$PY" - "$ext4_file" "$xfs_file" <<'PY'
import json, sys
dir_of = {}
for n, f in enumerate(sys.argv[1:]):
    a = json.load(open(f))["alignbench"]
    for p in a["pairs"]:
        for v in ("unaligned", "aligned"):
            for r in p[v]["runs"]:
                dir_of[r["order"]] = n
assert sorted(dir_of) == list(range(1, 73)), "orders are not 1..72"
switches = sum(dir_of[k] != dir_of[k + 1] for k in range(1, 72))
assert switches > 1, f"{switches} switch: one directory after the other"
PY
check "Google Benchmark's entries of each file are its directory's" \
  "$PY" - "$ext4_file" "$xfs_file" <<'PY'
import json, sys
for n, f in enumerate(sys.argv[1:], 1):
    names = [b["name"] for b in json.load(open(f))["benchmarks"]]
    assert len(names) == 36 and all(x.startswith(f"alignbench/dir{n}/") for x in names), names[:3]
PY
check "each result validates against the schema" \
  "$PY" -c "
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open('$ALIGNBENCH_SOURCE_DIR/results/schema/alignbench-result.schema.json'))
for f in sys.argv[1:]:
    Draft202012Validator(schema).validate(json.load(open(f)))
" "$ext4_file" "$xfs_file"
check "nothing left in either directory" no_leftovers "$EXT4"
check "nothing left in the xfs directory" no_leftovers "$XFS"

"$ALIGNBENCH" --dir "$EXT4" --dir "$EXT4/" --sizes 4K --writes 1 > /dev/null 2> "$WORK/twice.txt"
check "the same directory twice, once with a slash, is refused" \
  grep -q "option --dir: '$EXT4/' is the same directory as '$EXT4'" "$WORK/twice.txt"
finish
