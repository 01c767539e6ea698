# One definition of a valid result: the JSON Schema and the reader of `show` and `compare`
# accept the same files. The test walks the schema and, at every place of the result it
# describes, makes documents that break each of its keywords there (another type, null, a
# word outside an enum, a string outside a pattern, a number past a bound or not whole, a
# required key missing, an unknown key, a list too short, too long or with a repeat, a
# const changed) and some that keep them (bounds themselves, an optional key dropped or
# added, another word of an enum). Each document is put to the schema (python3-jsonschema)
# and to `alignbench show FILE` and `alignbench compare FILE GOOD`: a document the schema
# refuses must be refused with exit code 1 and one error that names the file and a key
# at or beside the one broken; one it accepts must print with exit code 0. Never a crash,
# never a sanitizer's report. Every disagreement is printed, then their count.
#
# "The schema" here is the schema with the rules its descriptions state that JSON Schema
# cannot (the $defs/alignbench description): as many runs as repetitions, histogram counts
# that add up, min_ns <= max_ns, bucket bounds of the layout in ascending order, a log's
# chunk larger than its record header, the settings' rules that every run keeps (a group
# of commits, atomic writes) and atomic write units that are none or min <= max.
#
# The documents come from a run made here, from it with no device and with variants that
# could not be measured, from a log case's run (the file contrast), from the old log
# case's result in tests/fixtures, and from the curated reference tables. The results of
# results/vm-loop are version 1, which the schema does not describe (show reads them
# leniently, tests/unit/old_results_test.cc holds their output): here they are only read.
source "$(dirname "$0")/lib.sh"

SCHEMA="$ALIGNBENCH_SOURCE_DIR/results/schema/alignbench-result.schema.json"
if ! "$PY" -c 'from jsonschema import Draft202012Validator' 2> /dev/null; then
  skip "python3-jsonschema missing"
fi

# --- the documents to start from ---------------------------------------------------------
mkdir -p "$WORK/run" "$WORK/log" "$WORK/bases" "$WORK/mutated"
cat > "$WORK/case.json" << 'EOF'
{"name": "mutations", "description": "a run to break", "expect": "anything",
 "requires": [], "sizes": "4K", "writes": 1, "repetitions": 6}
EOF
echo '{"sizes": ["128"], "log": {"record_header": 7, "chunk": "32K", "contrast": "file",
  "unaligned": "new", "aligned": "recycled"}, "cache": "cold"}' > "$WORK/log-case.json"
# --budget with --repetitions: the fixed first round, then rounds (each pair's "rounds").
"$ALIGNBENCH" --case "$WORK/case.json" --dir "$WORK/run" --budget 0.1 \
  --out "$WORK/bases/run.json" > /dev/null 2> "$WORK/run.err" ||
  { echo "FAIL: the run to mutate:" >&2; tail -n 3 "$WORK/run.err" >&2; exit 1; }
"$ALIGNBENCH" --case "$WORK/log-case.json" --dir "$WORK/log" --writes 4 --repetitions 1 \
  --out "$WORK/bases/log-file.json" > /dev/null 2> "$WORK/log.err" ||
  { echo "FAIL: the log case's run to mutate:" >&2; tail -n 3 "$WORK/log.err" >&2; exit 1; }
cp "$ALIGNBENCH_SOURCE_DIR"/results/reference/*.json \
  "$ALIGNBENCH_SOURCE_DIR/tests/fixtures/log-case-schema-2.json" "$WORK/bases/"

for old in "$ALIGNBENCH_SOURCE_DIR"/results/vm-loop/*.json; do
  check "$(basename "$old") (version 1): show reads it" "$ALIGNBENCH" show "$old" > /dev/null
done

# --- mutate, ask both, compare ----------------------------------------------------------
# EVERY=N asks every Nth document (default 1: all), which Nth drawn by SEED (default: the
# day of the year), both printed: the slow tier asks all, the fast tier and the sanitizer
# pass, where each start of alignbench costs tens of milliseconds, a tenth and a thirtieth
# (tests/CMakeLists.txt), a different one each day.
EVERY=${EVERY:-1}
SEED=${SEED:-$((10#$(date -u +%j)))}
[[ $EVERY =~ ^[1-9][0-9]*$ && $SEED =~ ^[0-9]+$ ]] ||
  { echo "FAIL: EVERY must be a number from 1, SEED a number" >&2; exit 1; }
"$PY" - "$SCHEMA" "$ALIGNBENCH" "$WORK" "$EVERY" "$SEED" << 'PY'
import copy, json, math, multiprocessing, os, re, subprocess, sys
from jsonschema import Draft202012Validator

schema_path, alignbench, work = sys.argv[1:4]
every, seed = int(sys.argv[4]), int(sys.argv[5])

def reject_constant(name):
    raise ValueError("not JSON: bare " + name)

def load(path):
    with open(path) as f:
        return json.load(f, parse_constant=reject_constant)

schema = load(schema_path)
defs = schema["$defs"]
validator = Draft202012Validator(schema)

def resolve(s):
    while isinstance(s, dict) and "$ref" in s:
        s = defs[s["$ref"].rsplit("/", 1)[1]]
    return s

# --- the rules the schema states in words (its $defs/alignbench description) -------------
SUB, TOP = 7, 40
def bucket_of(ns):
    if ns < (1 << SUB):
        return ns
    top = ns.bit_length() - 1
    if top >= TOP:
        return (1 << SUB) * (TOP - SUB + 1)
    shift = top - SUB
    return (1 << SUB) * (shift + 1) + (ns >> shift) - (1 << SUB)

def bucket_lower(index):
    if index < (1 << SUB):
        return index
    if index >= (1 << SUB) * (TOP - SUB + 1):
        return 1 << TOP
    shift = index // (1 << SUB) - 1
    return (index - (1 << SUB) * shift) << shift

def settings_rule(s):
    """The rules every run keeps (lib/config/case_file.h BrokenRule), or None."""
    cps, writers, depth = (s.get(k, 1) for k in ("commits_per_sync", "writers", "queue_depth"))
    group, together = max(cps, writers, depth), max(writers, depth)
    replay, direct = s.get("replay") is not None, set(s["io"]) == {"direct"}
    if group > 1 and replay:
        return "a group with a replay"
    if writers > 1 and depth > 1:
        return "writers and queue_depth both above 1"
    if together > 1 and cps not in (1, together):
        return "commits_per_sync neither 1 nor the group of writers or queue_depth"
    if cps > 1 and not set(s["sync"]) <= {"fsync", "fdatasync"}:
        return "commits_per_sync above 1 with a sync method that makes no sync call"
    if s["writes"] % group or s.get("warmup_writes", 0) % group:
        return "writes or warmup_writes not a multiple of the group"
    if depth > 1 and not direct:
        return "queue_depth above 1 without io direct alone"
    if writers > 1 and s["direct_unaligned"] == "stage":
        return "writers above 1 with direct_unaligned stage"
    if s.get("atomic_writes") == "on" and (replay or not direct):
        return "atomic_writes on with a replay or without io direct alone"
    return None

def atomic_units_rule(o, powers_of_two):
    low, high = o.get("atomic_write_unit_min_bytes"), o.get("atomic_write_unit_max_bytes")
    if low is None or high is None:
        return None
    low, high = int(low), int(high)  # 4096.0 is an integer to JSON Schema
    if (low == 0) != (high == 0) or low > high:
        return "atomic write units neither both 0 nor min <= max"
    if powers_of_two and (low & (low - 1) or high & (high - 1)):
        return "atomic write units not powers of two"
    return None

def stated_rules(doc):
    """The first rule the document breaks that the schema states in words only."""
    a = doc.get("alignbench")
    log = a.get("settings", {}).get("log")
    if log and 0 < log["chunk_bytes"] <= log["record_header_bytes"]:
        return "alignbench.settings.log: chunk_bytes not larger than record_header_bytes"
    broken = settings_rule(a["settings"])
    if broken:
        return "alignbench.settings: " + broken
    target = a["environment"]["target"]
    broken = atomic_units_rule(target, True) or atomic_units_rule(target.get("device") or {}, False)
    if broken:
        return "alignbench.environment.target: " + broken
    shifts = a["settings"].get("shift_bytes")
    shifts = shifts if isinstance(shifts, list) else [shifts]
    for i, pair in enumerate(a.get("pairs", [])):
        if pair.get("shift_bytes", shifts[0] if len(shifts) == 1 else None) not in shifts:
            return "alignbench.pairs[%d].shift_bytes: not one of settings.shift_bytes" % i
        for side in ("unaligned", "aligned"):
            v = pair.get(side, {})
            where = "alignbench.pairs[%d].%s" % (i, side)
            if "runs" in v and len(v["runs"]) != v.get("repetitions"):
                return where + ".runs: %d runs, repetitions %s" % (len(v["runs"]), v.get("repetitions"))
            for key in ("write_sync", "write", "sync"):
                h = v.get("histograms", {}).get(key)
                if not isinstance(h, dict):
                    continue
                at = where + ".histograms." + key
                if sum(b[1] for b in h["buckets"]) != h["count"]:
                    return at + ": bucket counts do not add up to count"
                if h["min_ns"] > h["max_ns"]:
                    return at + ": min_ns > max_ns"
                lowers = [int(b[0]) for b in h["buckets"]]
                if any(bucket_lower(bucket_of(min(x, 2**63 - 1))) != x for x in lowers):
                    return at + ": a lower bound that is not one of the layout"
                if any(x >= y for x, y in zip(lowers, lowers[1:])):
                    return at + ": buckets not in ascending order"
    return None

def schema_answer(doc):
    """None when the schema accepts the document, else its first complaint."""
    errors = sorted(validator.iter_errors(doc), key=lambda e: len(e.absolute_path))
    if errors:
        e = errors[0]
        return "/".join(map(str, e.absolute_path)) + ": " + e.message[:150]
    return stated_rules(doc)

# --- places and values ------------------------------------------------------------------
def dotted(path):  # ["alignbench", "pairs", 0, "sync"] -> alignbench.pairs[0].sync
    out = ""
    for p in path:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + p
    return out

def at(doc, path):
    for p in path:
        doc = doc[p]
    return doc

REMOVED = "<removed>"

def edited(doc, edits):
    """doc, changed by each (path, value) in turn; REMOVED as the value removes the key."""
    for path, value in edits:
        if not path:
            doc = copy.deepcopy(value)
        elif value == REMOVED:
            del at(doc, path[:-1])[path[-1]]
        else:
            at(doc, path[:-1])[path[-1]] = copy.deepcopy(value)
    return doc

# A value each pattern of the schema accepts, for keys no document has.
PATTERN_EXAMPLES = {
    "^fnv1a64:[0-9a-f]{16}$": "fnv1a64:0123456789abcdef",
    "^(E[A-Z0-9]+|errno [0-9]+)$": "EIO",
}

def example(s):
    """A value that keeps the keywords of s itself (cross-field rules may still refuse)."""
    s = resolve(s)
    if "oneOf" in s:
        return example(s["oneOf"][0])
    if "const" in s:
        return s["const"]
    if "enum" in s:
        return s["enum"][-1] if s.get("type") == "integer" else s["enum"][0]
    t = s.get("type")
    if t == "string":
        return PATTERN_EXAMPLES.get(s.get("pattern"), "x")
    if t in ("integer", "number"):
        lo = s.get("minimum", s.get("exclusiveMinimum"))
        hi = s.get("maximum", s.get("exclusiveMaximum"))
        if lo is not None and hi is not None:
            return (lo + hi) // 2 if t == "integer" else (lo + hi) / 2
        if lo is not None:
            return lo + 1 if "exclusiveMinimum" in s else lo
        return 1
    if t == "boolean":
        return False
    if t == "array":
        return [example(s["items"])] * max(1, s.get("minItems", 0)) if "items" in s else []
    if t == "object":
        props = s.get("properties", {})
        return {k: example(props[k]) for k in s.get("required", []) if k in props}
    return None

def pattern_breakers(value):
    """Near misses of a string: characters changed, added, cut; the schema says which break."""
    out = [("empty", ""), ("a character more", value + "x"), ("a character before", "x" + value),
           ("the last character cut", value[:-1]), ("a space before", " " + value),
           ("in capitals", value.upper()),
           ("repeated to 200000 characters", (value * (200000 // len(value) + 1))[:200000])]
    for i, ch in enumerate(value[:24]):
        other = ("0" if ch == "9" else "9") if ch.isdigit() else "Z" if ch.islower() else \
            "9" if ch.isupper() else ""
        out.append(("character %d made %r" % (i, other), value[:i] + other + value[i + 1:]))
    return out

def number_values(s, value, integer):
    out = []
    lo, xlo = s.get("minimum"), s.get("exclusiveMinimum")
    hi, xhi = s.get("maximum"), s.get("exclusiveMaximum")
    below = (lambda x: x - 1) if integer else (lambda x: math.nextafter(x, -math.inf))
    above = (lambda x: x + 1) if integer else (lambda x: math.nextafter(x, math.inf))
    if lo is not None:
        out += [("minimum", lo), ("below minimum", below(lo))]
    if xlo is not None:
        out += [("exclusive minimum", xlo), ("just above exclusive minimum", above(xlo))]
    if hi is not None:
        out += [("maximum", hi), ("above maximum", above(hi))]
    if xhi is not None:
        out += [("exclusive maximum", xhi), ("just below exclusive maximum", below(xhi))]
    if lo is None and xlo is None:
        out.append(("very negative", -2**63 if integer else -1e308))
    if integer:
        out += [("one more", value + 1), ("a fraction", value + 0.5),
                ("whole, written as a fraction", float(value))]
        if hi is None and xhi is None:
            out += [("2^63", 2**63), ("2^64", 2**64)]
    else:
        if hi is None and xhi is None:
            out.append(("huge", 1e308))
        if value == int(value):
            out.append(("whole, written without a point", int(value)))
    return out

def values_at(s, value):
    """(what, value) to put in the place of `value`, whose schema is s; each `what` once."""
    out = [("null", None)]
    t = s.get("type")
    if "const" in s:
        k = s["const"]
        other = (not k) if isinstance(k, bool) else k + 1 if isinstance(k, (int, float)) else k + "x"
        out += [("another value than the const", other), ("the const in a list", [k])]
        if isinstance(k, int) and not isinstance(k, bool):
            out.append(("the const, written as a fraction", float(k)))
    if "enum" in s and t != "integer":
        out += [("a word outside the enum", "no such " + str(value)), ("a number", 7),
                ("a word of the enum in a list", [s["enum"][0]])]
        if isinstance(value, str):
            out.append(("the word in capitals", value.upper()))
        out += [("the enum's " + json.dumps(e), e) for e in s["enum"] if e != value]
    elif "enum" in s:
        out += [("one past the value, not in the enum", value + 1)]
        out += [("the enum's %d" % e, e) for e in s["enum"][:3] + s["enum"][-1:]]
    if t == "string":
        out.append(("a number", 7))
        if "pattern" in s:
            # Keyed by the pattern: the two times share theirs, and one is enough.
            out += [("near miss of %s: %s" % (s["pattern"], what), v)
                    for what, v in pattern_breakers(value)]
        else:
            out += [("empty", ""), ("one character", "a"),
                    ("5100 characters, not ASCII", "\u00e9\u2014\u00fc" * 1700)]
    elif t == "boolean":
        out += [("a number", 1), ("a string", "true"), ("the other one", not value)]
    elif t in ("integer", "number"):
        out.append(("a string", str(value)))
        out += number_values(s, value, t == "integer")
    elif t == "object":
        out += [("a list", []), ("a string", "x")]
    elif t == "array":
        out += [("an object", {}), ("a string", "x"), ("empty", [])]
        if value:
            out.append(("the last item twice", value + [value[-1]]))
            if len(value) > 1:
                out.append(("first item only", value[:1]))
    return out

class Mutations:
    """Each document to ask about: a base document and the edits that make it. A place of
    the schema is mutated once: pairs[0] stands for every pair, the summary write_sync for
    write and sync, the variant unaligned for aligned; the first base document that has
    the place gives it its context."""
    def __init__(self):
        self.seen = set()
        self.items = []  # (base name, edits, path, what, value, place in the schema)

    def add(self, base, edits, splace, path, what, value):
        """Whether the mutation is new (else another document made it already)."""
        key = what if what.startswith("near miss of ^") else (splace, what)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.items.append((base, edits + [(path, value)], path, what, value, splace))
        return True

def def_name(s):  # the $defs entry s stands for, or None
    name = None
    while isinstance(s, dict) and "$ref" in s:
        name = s["$ref"].rsplit("/", 1)[1]
        s = defs[name]
    return name

def walk(m, base, edits, doc, path, s, splace):
    """Every mutation at `path` of doc (base after `edits`) and below; splace names the
    place in the schema."""
    inner = def_name(s) or splace
    s = resolve(s)
    value = at(doc, path)
    if "oneOf" in s:  # an object of its $ref, or null
        for branch in s["oneOf"]:
            if (value is None) == (resolve(branch).get("type") == "null"):
                inner = def_name(branch) or inner
                s = resolve(branch)
                break
    for what, v in values_at(s, value):
        if v != value or type(v) != type(value):
            m.add(base, edits, splace, path, what, v)
    if isinstance(value, dict) and s.get("type") == "object":
        props = s.get("properties", {})
        required = s.get("required", [])
        for key in value:
            m.add(base, edits, inner + "." + key, path + [key], "required key removed"
                  if key in required else "optional key removed", REMOVED)
        m.add(base, edits, inner + ".no_such_key", path + ["no_such_key"], "unknown key", 1)
        for key, sub in props.items():
            if key in value:
                walk(m, base, edits, doc, path + [key], sub, inner + "." + key)
                continue
            # Absent from this document: added, then broken in its turn where the
            # schema takes it as added (else every mutation below would be refused for
            # the same reason).
            edit = (path + [key], example(sub))
            if not m.add(base, edits, inner + "." + key, path + [key], "optional key added",
                         edit[1]):
                continue
            added = edited(copy.deepcopy(doc), [edit])
            if schema_answer(added) is None:
                walk(m, base, edits + [edit], added, path + [key], sub, inner + "." + key)
    elif isinstance(value, list):
        if "prefixItems" in s and len(value) >= len(s["prefixItems"]):
            for i, sub in enumerate(s["prefixItems"]):
                walk(m, base, edits, doc, path + [i], sub, "%s[%d]" % (inner, i))
        elif "items" in s and value:
            walk(m, base, edits, doc, path + [0], s["items"], inner + "[]")
        elif "items" in s:
            edit = (path, [example(s["items"])])
            if not m.add(base, edits, inner, path, "one item added", edit[1]):
                return
            added = edited(copy.deepcopy(doc), [edit])
            if schema_answer(added) is None:
                walk(m, base, edits + [edit], added, path + [0], s["items"], inner + "[]")

# --- the documents: files, and variations of the run that reach other branches ----------
bases = {}
first = ["run.json", "log-file.json", "log-case-schema-2.json"]
for name in first + sorted(set(os.listdir(work + "/bases")) - set(first)):
    doc = load(work + "/bases/" + name)
    # results/reference holds the tables a result was converted from, too
    if isinstance(doc, dict) and doc.get("alignbench", {}).get("schema_version") in (2, 3):
        bases[name] = doc
# The schema's checks take time in proportion to a document: one of Google Benchmark's
# entries is as good as all, and two pairs of a table as thirteen.
for doc in bases.values():
    if "benchmarks" in doc:
        del doc["benchmarks"][1:]
    del doc["alignbench"]["pairs"][2:]
run = bases["run.json"]

no_device = copy.deepcopy(run)
target = no_device["alignbench"]["environment"]["target"]
target["device"] = None
target["device_unavailable_reason"] = "no block device under this directory (tmpfs)"
for pair in no_device["alignbench"]["pairs"]:
    for side in ("unaligned", "aligned"):
        pair[side].pop("device_per_write", None)
        pair[side].pop("device_background_per_write", None)

not_measured = copy.deepcopy(run)  # the aligned variant refused, the other failed once
pair = not_measured["alignbench"]["pairs"][0]
for key in ("gain_pct", "means_gain_pct", "medians_gain_pct", "gain_interval_pct", "p_value", "cross_check",
            "verdict", "verdict_reason", "no_interval_reason", "run_notes", "mechanisms"):
    pair.pop(key, None)
pair["aligned"] = {"repetitions": 0, "staged": False, "error": {
    "message": "pwrite: Invalid argument (EINVAL)", "errno": 22, "errno_name": "EINVAL"}}
if "rounds" in pair:
    pair["rounds"]["state"] = "not measurable"
failed = pair["unaligned"]
failed["error"] = {"message": "pwrite: Input/output error (EIO)", "errno": 5, "errno_name": "EIO"}
failed["failed_repetitions"] = 1
bases = dict([("run.json", run), ("run-no-device.json", no_device),
              ("run-not-measured.json", not_measured)] + list(bases.items())[1:])

for name, doc in bases.items():
    problem = schema_answer(doc)
    if problem:
        print("FAIL: the document %s to start from is not valid: %s" % (name, problem))
        sys.exit(1)
    with open(work + "/bases/" + name, "w") as f:
        json.dump(doc, f)

m = Mutations()
for name, doc in bases.items():
    walk(m, name, [], doc, [], schema, "")
texts = {name: json.dumps(doc) for name, doc in bases.items()}

# --- ask both ----------------------------------------------------------------------------
def reader(args):
    r = subprocess.run([alignbench] + args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    return r.returncode, r.stderr

def related(named, broken):
    """The key an error names is the one broken, holds it, is in it, or sits beside it."""
    a = re.split(r"\.|(?=\[)", named)
    b = re.split(r"\.|(?=\[)", broken)
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return (common >= min(len(a), len(b)) or common >= len(b) - 2 or
            broken in ("", "alignbench"))

def judge(job):
    n, (base, edits, path, what, value, splace) = job
    file = "%s/mutated/%d.json" % (work, n)
    doc = edited(json.loads(texts[base]), edits)
    with open(file, "w") as f:
        json.dump(doc, f)
    refused = schema_answer(doc)
    wrong = []
    for args in (["show", file], ["compare", file, work + "/bases/" + base]):
        code, err = reader(args)
        first = err.splitlines()[0] if err else ""
        said = "exit %d%s" % (code, (": " + first[:200]) if first else "")
        if code < 0 or code >= 128 or "Sanitizer" in err or "runtime error" in err:
            wrong.append((args[0], "crashed: " + said))
        elif refused is None and code != 0:
            wrong.append((args[0], said))
        elif refused is not None and code != 1:
            wrong.append((args[0], said))
        elif refused is not None:
            named = re.search(r"key '([^']*)'", first)
            broken = dotted(path)
            if not named and re.search(r'no "alignbench" object', first):
                named = re.search(r'"(alignbench)"', first)  # the document itself is wrong
            if file not in first:
                wrong.append((args[0], "does not name the file: " + said))
            elif len(err.splitlines()) > 2:
                wrong.append((args[0], "more than 2 lines: " + said))
            elif not named and "schema_version" not in first:
                wrong.append((args[0], "names no key: " + said))
            elif not named:
                pass  # a newer version than this alignbench reads: said so
            elif named and not related(named.group(1), broken):
                wrong.append((args[0], "names another key: " + said))
    return (base, path, what, value, splace, refused, wrong)

jobs = list(enumerate(m.items))[seed % every::every]
if every > 1:
    print("asked every %dth document from the %dth (EVERY=%d SEED=%d)" % (
        every, seed % every, every, seed))
# Processes, not threads: the schema's checks are Python and want every CPU.
with multiprocessing.Pool(os.cpu_count() or 2) as pool:
    results = pool.map(judge, jobs, chunksize=16)

disagreements = 0
refused_count = 0
for base, path, what, value, splace, refused, wrong in results:
    refused_count += refused is not None
    for command, said in wrong:
        disagreements += 1
        shown = "(removed)" if value == REMOVED else json.dumps(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        print("DISAGREE %s %s = %s (%s, from %s)\n    schema: %s\n    %s: %s" % (
            command, dotted(path), shown, what, base,
            "refuses: " + refused if refused else "accepts", command, said))
print("%d documents (%d the schema refuses, %d it accepts), %d places, %d disagreements" % (
    len(results), refused_count, len(results) - refused_count,
    len({r[4] for r in results}), disagreements))
sys.exit(1 if disagreements else 0)
PY
check "show and compare accept exactly what the schema accepts" [ $? -eq 0 ]
finish
