# The JSON Schema under results/schema/ against real output: results made with different
# settings must validate, and documents broken on purpose must not (a schema that accepts
# everything fails here). Also checks the schema itself: valid draft 2020-12, a description
# on every key of the alignbench part, additionalProperties false on every object there, and
# enums equal to the names the C++ tables print.
source "$(dirname "$0")/lib.sh"

# Like check, but what the command printed (every schema error with its path) comes after
# the FAIL line it explains.
check() {
  local what=$1 out
  shift
  if out=$("$@" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
    [ -z "$out" ] || printf '%s\n' "$out" >&2
  fi
}

SCHEMA="$ALIGNBENCH_SOURCE_DIR/results/schema/alignbench-result.schema.json"
[ -f "$SCHEMA" ] || { echo "FAIL: no schema at $SCHEMA" >&2; failed=1; finish; exit 1; }
if ! "$PY" -c 'from jsonschema import Draft202012Validator' 2> /dev/null; then
  skip "python3-jsonschema missing"
fi

# Shared by every python3 -c below: load the schema and a document strictly (bare NaN or
# Infinity is not JSON; Python would accept it), print every error with its path.
COMMON='
import json, re, sys
from jsonschema import Draft202012Validator

def reject_constant(name):
    raise ValueError("not JSON: bare " + name)

def load(path):
    with open(path) as f:
        return json.load(f, parse_constant=reject_constant)

schema = load(sys.argv[1])
validator = Draft202012Validator(schema)

def where(error):
    return "/" + "/".join(str(p) for p in error.absolute_path)

def all_errors(errors):  # with the sub-errors of anyOf/oneOf/if-then
    for e in errors:
        yield e
        yield from all_errors(e.context)

def report(errors, indent="    "):
    for e in errors:
        if e.context:  # anyOf/oneOf: say which branch failed how, not the whole instance
            print("%sat %s: no branch of %s holds:" % (indent, where(e), e.validator))
            report(e.context, indent + "  ")
        else:
            print("%sat %s: %s (%s)" % (indent, where(e), e.message[:300], e.validator))
'

# --- the schema itself -------------------------------------------------------------------
check_schema() {
  "$PY" -c "$COMMON"'
Draft202012Validator.check_schema(schema)
' "$SCHEMA"
}
check "schema is a valid draft 2020-12 schema" check_schema

schema_conventions() {
  # shellcheck disable=SC2016  # a Python program, then its arguments
  "$PY" -c "$COMMON"'
defs = schema["$defs"]
def resolve(s):
    while isinstance(s, dict) and "$ref" in s:
        s = defs[s["$ref"].rsplit("/", 1)[1]]
    return s
problems, seen = [], set()
def walk(s, path):
    if not isinstance(s, dict) or id(s) in seen:
        return
    seen.add(id(s))
    if "$ref" in s:
        walk(resolve(s), path)
    if s.get("type") == "object" and s.get("additionalProperties") is not False:
        problems.append(path + ": object without additionalProperties false")
    for key, sub in s.get("properties", {}).items():
        if not s.get("type") == "object":
            continue  # a fragment inside if/then/not, described where it is defined
        if "description" not in sub and "description" not in resolve(sub):
            problems.append(path + "/" + key + ": no description")
        walk(sub, path + "/" + key)
    for key in ("items", "then", "else", "not"):
        walk(s.get(key), path)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in s.get(key, []):
            walk(sub, path)
walk(schema["properties"]["alignbench"], "alignbench")
# Units are in the key names; a description must not contradict them.
unit_words = {"_ns": "nanosecond", "_pct": "percent", "_kib": "KiB", "_bytes": "byte"}
def units(s, path):
    if not isinstance(s, dict):
        return
    for key, sub in s.get("properties", {}).items():
        text = sub.get("description", "") or resolve(sub).get("description", "")
        for suffix, word in unit_words.items():
            if key.endswith(suffix) and word.lower() not in text.lower():
                problems.append("%s/%s: description does not say %s" % (path, key, word))
for name, d in defs.items():
    units(d, name)
for p in problems:
    print("    " + p)
sys.exit(1 if problems else 0)
' "$SCHEMA"
}
check "every key described, every object closed, units in descriptions" schema_conventions

# The enums must hold exactly the names the C++ tables print (lib/config/axes.h,
# kVerdicts in lib/stats/compare.h), in the same order; then a verdict's older name.
enums_match_source() {
  # shellcheck disable=SC2016  # a Python program, then its arguments
  "$PY" -c "$COMMON"'
src = sys.argv[2]
axes = open(src + "/lib/config/axes.h").read()
compare = open(src + "/lib/stats/compare.h").read()
log_rules = open(src + "/lib/config/log_rules.h").read()
expected = {
    "log_contrast": re.findall(r"\{\"(\w+)\",\s*LogContrast::", log_rules),
    "file_state": re.findall(r"\{\"(\w+)\",\s*FileState::", log_rules),
    "sync_method": re.findall(r"\{\"(\w+)\",\s*SyncMethod::", axes),
    "io_mode": re.findall(r"\{\"(\w+)\",\s*IoMode::", axes),
    "layout": re.findall(r"\{\"(\w+)\",\s*Layout::", axes),
    "cache_state": re.findall(r"\{\"(\w+)\",\s*CacheState::", axes),
    "direct_unaligned": re.findall(r"\{\"(\w+)\",\s*DirectUnaligned::", axes),
    # and the older name the reader still takes (lib/result/json_read.cc)
    "verdict": re.findall(r"\{\"([^\"]+)\",\s*Verdict::", compare) + ["shifted faster"],
}
bad = 0
for name, names in expected.items():
    if not names or schema["$defs"][name]["enum"] != names:
        print("    %s: schema %s, source %s" % (name, schema["$defs"][name]["enum"], names))
        bad += 1
sys.exit(1 if bad else 0)
' "$SCHEMA" "$ALIGNBENCH_SOURCE_DIR"
}
check "enums equal the names in axes.h, log_rules.h and kVerdicts" enums_match_source

# --- real results ------------------------------------------------------------------------
validate() {  # validate FILE: valid, or every error with its path
  "$PY" -c "$COMMON"'
try:
    doc = load(sys.argv[2])
except ValueError as e:
    print("    %s: %s" % (sys.argv[2], e))
    sys.exit(1)
errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
report(errors)
sys.exit(1 if errors else 0)
' "$SCHEMA" "$1"
}

same_json() {  # same_json A B: both JSON, and the same document
  "$PY" -c "$COMMON"'
sys.exit(0 if load(sys.argv[2]) == load(sys.argv[3]) else 1)
' "$SCHEMA" "$1" "$2"
}

validate_each() {  # validate_each FILE COUNT: an array of COUNT documents, each valid
  "$PY" -c "$COMMON"'
docs = load(sys.argv[2])
if not isinstance(docs, list) or len(docs) != int(sys.argv[3]):
    print("    not an array of %s documents" % sys.argv[3])
    sys.exit(1)
errors = [e for doc in docs for e in validator.iter_errors(doc)]
report(errors)
sys.exit(1 if errors else 0)
' "$SCHEMA" "$1" "$2"
}

# produce_and_validate NAME alignbench-args...: one run, then validate what --out saved and
# what --format json printed, which must be the same document.
produce_and_validate() {
  local name=$1
  shift
  local dir="$WORK/$name"
  mkdir -p "$dir"
  if "$ALIGNBENCH" --dir "$dir" --out "$WORK/$name.json" --format json "$@" \
    > "$WORK/$name.stdout" 2> "$WORK/$name.err"; then
    check "$name: output validates" validate "$WORK/$name.json"
    check "$name: --format json printed the document --out saved" \
      same_json "$WORK/$name.stdout" "$WORK/$name.json"
  else
    local status=$?
    failed=$((failed + 1))
    echo "FAIL: $name: alignbench $* exited $status, no result to validate:" >&2
    tail -n 3 "$WORK/$name.err" | sed 's/^/    /' >&2
  fi
}

# The curated reference tables are results too: they must validate, and alignbench must
# read them back.
for reference in "$ALIGNBENCH_SOURCE_DIR"/results/reference/derby-*.json; do
  check "$(basename "$reference"): validates" validate "$reference"
  check "$(basename "$reference"): alignbench show reads it" \
    "$ALIGNBENCH" show "$reference" --format derby > /dev/null
done

produce_and_validate plain --sizes 4K,64K --writes 8
produce_and_validate repeated --sizes 4K --writes 8 --repetitions 2 --sync fsync,none
produce_and_validate direct --sizes 4K --writes 8 --repetitions 1 --io direct --shift 24
produce_and_validate cold --sizes 4K --writes 8 --repetitions 1 --layout prewritten --cache cold --redact-host
# The odd corners: one write of one run (no spread to speak of), no sync at all, too few runs
# for a verdict, and a plan whose every pair is not measurable.
produce_and_validate one-write --sizes 4K --writes 1 --repetitions 1
produce_and_validate no-sync --sizes 4K,8K --writes 4 --repetitions 3 --sync none
produce_and_validate two-runs --sizes 4K --writes 4 --repetitions 2
produce_and_validate none-measurable --sizes 4K,8K --writes 2 --repetitions 1 --io direct --shift 24
# Log-append workloads (cases/*-wal.json, innodb-redo.json without their requirements): the
# rules, the labels and the bytes per commit, for a byte contrast and a file contrast.
echo '{"sizes": ["700"], "log": {"header": "2K", "block": 512, "contrast": "pad", "aligned": "8K"}}' \
  > "$WORK/log-pad-case.json"
echo '{"sizes": ["128"], "log": {"record_header": 7, "chunk": "32K", "contrast": "file",
  "unaligned": "new", "aligned": "recycled"}, "cache": "cold"}' > "$WORK/log-file-case.json"
produce_and_validate log-pad --case "$WORK/log-pad-case.json" --writes 4 --repetitions 1
produce_and_validate log-file --case "$WORK/log-file-case.json" --writes 4 --repetitions 1

# Everything alignbench wrote, alignbench reads back (validate above already refused a bare
# NaN or Infinity, and the schema a null where a number belongs).
for name in plain repeated direct cold one-write no-sync two-runs none-measurable log-pad \
  log-file; do
  [ -f "$WORK/$name.json" ] || continue
  check "$name: alignbench show reads it back" "$ALIGNBENCH" show "$WORK/$name.json" > /dev/null
done
# show and compare --format json print the documents they read: the file's, and an array of
# the files' in the order given.
if [ -f "$WORK/plain.json" ] && [ -f "$WORK/cold.json" ]; then
  "$ALIGNBENCH" show "$WORK/cold.json" --format json > "$WORK/show.stdout"
  check "show --format json: the file's document" same_json "$WORK/show.stdout" "$WORK/cold.json"
  check "show --format json: it validates" validate "$WORK/show.stdout"
  "$ALIGNBENCH" compare "$WORK/plain.json" "$WORK/cold.json" "$WORK/plain.json" --format json \
    > "$WORK/compare.stdout"
  check "compare --format json: an array of the three documents, each valid" \
    validate_each "$WORK/compare.stdout" 3
  check "compare --format json: in the order given" "$PY" -c '
import json, sys
docs = json.load(open(sys.argv[1]))
sys.exit(0 if docs[1] == json.load(open(sys.argv[2])) else 1)
' "$WORK/compare.stdout" "$WORK/cold.json"
fi
# Every measured variant carries its histograms, whose counts add up to the summary's.
histograms_present() {
  "$PY" -c "$COMMON"'
bad = 0
for p in load(sys.argv[2])["alignbench"]["pairs"]:
    for v in (p["unaligned"], p["aligned"]):
        h = v.get("histograms", {}).get("write_sync")
        if not h or sum(c for _, c in h["buckets"]) != v["write_sync"]["count"]:
            bad += 1
print("    variants without matching histograms: %d" % bad)
sys.exit(1 if bad else 0)
' "$SCHEMA" "$1"
}
[ -f "$WORK/repeated.json" ] && check "repeated: histograms in every variant" \
  histograms_present "$WORK/repeated.json"
undecided_reason() {
  "$PY" -c "$COMMON"'
p = load(sys.argv[2])["alignbench"]["pairs"][0]
ok = p["verdict"] == "undecided" and p["verdict_reason"] == "undecided: 2 runs"
print("    " + json.dumps({k: p.get(k) for k in ("verdict", "verdict_reason")}))
sys.exit(0 if ok else 1)
' "$SCHEMA" "$WORK/two-runs.json"
}
[ -f "$WORK/two-runs.json" ] && check "two runs: undecided, and says why" undecided_reason

# The direct run must contain what it is here for: a not-measurable variant with an error
# object. Only where the filesystem demands aligned direct I/O (it says so through statx);
# tmpfs, for one, takes O_DIRECT at any offset.
if [ -f "$WORK/direct.json" ]; then
  covered=$("$PY" -c "$COMMON"'
doc = load(sys.argv[2])["alignbench"]
align = doc["environment"]["target"].get("dio_offset_align_bytes")
if align is None or doc["settings"]["shift_bytes"] % align == 0:
    print("uncovered"); sys.exit(0)
errors = [v["error"] for p in doc["pairs"] for v in (p["unaligned"], p["aligned"]) if "error" in v]
print("yes" if any(e.get("errno_name") == "EINVAL" for e in errors) else "no")
' "$SCHEMA" "$WORK/direct.json")
  if [ "$covered" = uncovered ]; then
    echo "note: this filesystem accepts O_DIRECT at offset 24; the not-measurable branch is not covered" >&2
  else
    check "direct: unaligned variant not measurable, with an EINVAL error object" [ "$covered" = yes ]
  fi
fi

# --- documents the schema must accept or reject ----------------------------------------
# mutate reject KEYWORD PYTHON: apply PYTHON to d (the plain result; a is its alignbench
# object, p its first pair) and expect the schema to reject it with KEYWORD among the errors.
# mutate accept - PYTHON: the same, and expect it to be accepted.
mutate() {
  local kind=$1 keyword=$2 code=$3
  "$PY" -c "$COMMON"'
kind, keyword, code = sys.argv[3], sys.argv[4], sys.argv[5]
d = load(sys.argv[2])
p = d["alignbench"]["pairs"][0]
exec(code, {"d": d, "p": p, "a": d["alignbench"]})
errors = list(validator.iter_errors(d))
with open(sys.argv[6], "w") as f:
    json.dump(d, f)
if kind == "accept":
    report(errors)
    sys.exit(1 if errors else 0)
if not errors:
    print("    accepted, but must be rejected")
    sys.exit(1)
if not any(e.validator == keyword for e in all_errors(errors)):
    print("    rejected, but not by \"%s\":" % keyword)
    report(errors)
    sys.exit(1)
' "$SCHEMA" "$WORK/plain.json" "$kind" "$keyword" "$code" "$WORK/mutated.json" || return 1
  # One definition of a valid result: what the schema refuses, show refuses.
  "$ALIGNBENCH" show "$WORK/mutated.json" > /dev/null 2> "$WORK/mutated.err"
  local shown=$?
  if [ "$kind" = accept ] && [ "$shown" -ne 0 ]; then
    echo "    the schema accepts it, alignbench show refuses it: $(head -n1 "$WORK/mutated.err")"
    return 1
  fi
  if [ "$kind" = reject ] && [ "$shown" -eq 0 ]; then
    echo "    the schema refuses it, alignbench show accepts it"
    return 1
  fi
}

if [ -f "$WORK/plain.json" ]; then
  check "rejects an unknown key inside a pair" \
    mutate reject additionalProperties 'p["colour"] = "blue"'
  check "rejects an unknown key in the alignbench object" \
    mutate reject additionalProperties 'a["notes"] = "x"'
  check "rejects schema_version 4" \
    mutate reject enum 'a["schema_version"] = 4'
  check "rejects version 2's name for a gain in version 3" \
    mutate reject not 'p["median_gain_pct"] = p["medians_gain_pct"]'
  check "rejects version 3's names in a version 2 file" \
    mutate reject not 'a["schema_version"] = 2'
  check "rejects a verdict not in the enum" \
    mutate reject enum 'p["verdict"] = "aligned slower"'
  check "rejects a missing pairs key" \
    mutate reject required 'del a["pairs"]'
  check "rejects a sync method not in the enum" \
    mutate reject enum 'a["settings"]["sync"] = ["fsync", "fsync_range"]'
  check "rejects a summary without mean_ns" \
    mutate reject required 'del p["aligned"]["write_sync"]["mean_ns"]'
  check "rejects null for a number (how nlohmann writes NaN)" \
    mutate reject type 'p["gain_pct"] = None'
  check "rejects device null without device_unavailable_reason" \
    mutate reject required 'a["environment"]["target"]["device"] = None; a["environment"]["target"].pop("device_unavailable_reason", None)'
  check "rejects an error on a measured variant without failed repetitions" \
    mutate reject dependentRequired 'p["aligned"]["error"] = {"message": "x"}'
  check "rejects a verdict its p-value contradicts" \
    mutate reject exclusiveMaximum 'p["verdict"] = "aligned faster"; p["p_value"] = 0.5'
  check "rejects a histogram bucket with count 0" \
    mutate reject minimum 'p["aligned"]["histograms"]["write_sync"]["buckets"][0][1] = 0'
  check "rejects another bucket layout" \
    mutate reject const 'p["aligned"]["histograms"]["buckets_per_octave"] = 64'
  check "accepts a file made before histograms (none, exact percentiles)" \
    mutate accept - '
for v in (p["unaligned"], p["aligned"]):
    v.pop("histograms")
    for key in ("write_sync", "write", "sync"):
        v[key].pop("percentile_relative_error")
'
  check "accepts extra keys in Google Benchmark's context" \
    mutate accept - 'd["context"]["anything"] = [1, 2]'
  # A curated reference table: only the alignbench object, only the mean of write+sync, no
  # split, no counters, no run times, a gain but no statistics.
  check "accepts a reference table (alignbench object only, means only)" \
    mutate accept - '
del d["context"], d["benchmarks"], a["started_at"], a["finished_at"]
for pair in a["pairs"]:
    for key in ("medians_gain_pct", "gain_interval_pct", "p_value", "verdict"):
        pair.pop(key, None)
    for v in (pair["unaligned"], pair["aligned"]):
        for key in ("write", "sync", "device_per_write", "process_per_write"):
            v.pop(key, None)
        v["write_sync"] = {k: v["write_sync"][k] for k in ("count", "mean_ns")}
'
fi

finish
