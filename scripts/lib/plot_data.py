"""What scripts/plot reads: a result file under alignbench's own bounds and checks (its
size, its JSON, its histograms' layout), and the series drawn from the files: one per
file and sync/io/layout/cache combination, with what describes it and its label, and the
run's conditions: what disturbed it and how precise its intervals are, in the words of
alignbench's answer line (lib/render/answer.cc, conditions.cc)."""
import json
import math
import os
import stat
import sys

from plot_exits import die, os_error
from shown import shown

AXES = ("sync", "io", "layout", "cache")
# alignbench's own bound on a result file (kMaxResultFileBytes): a file it would refuse is
# refused here too, and /dev/zero cannot fill the memory.
MAX_RESULT_BYTES = 64 << 20
# Histogram layout of alignbench (lib/stats/histogram.h): 128 buckets per octave, exact
# below 128 ns, one last bucket from 2^40 ns.
SUB_BITS = 7
TOP_BIT = 40
# From how much others' writes and CPU time make the disk and the CPUs busy
# (kBusyWritesPerSecond, kBusyCpuShare in lib/render/conditions.h).
BUSY_WRITES_PER_SECOND = 5
BUSY_CPU_SHARE = 0.25
# The precision a result without precision_points is read with (the schema's rule).
DEFAULT_PRECISION = 5


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def whole(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def read_bounded(path):
    """The file's bytes as alignbench reads them (lib/io/file_io.cc): opened without
    waiting for a FIFO's writer, a regular file only, at most MAX_RESULT_BYTES."""
    hint = "give the path of an alignbench result file"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        os_error("open result file", path, e, hint)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            die("read result file %s: is a directory (EISDIR); %s" % (path, hint))
        if not stat.S_ISREG(st.st_mode):
            die("read result file %s: not a regular file (a device, FIFO or socket); %s"
                % (path, hint))
        limit = "; at most %d bytes are read" % MAX_RESULT_BYTES
        if st.st_size > MAX_RESULT_BYTES:
            die("read result file %s: %d bytes is too large%s" % (path, st.st_size, limit))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_RESULT_BYTES:  # it grew while we read
                die("read result file %s: too large%s" % (path, limit))
        return b"".join(chunks)
    except OSError as e:
        os_error("read result file", path, e, hint)
    finally:
        os.close(fd)


def bucket_of(ns):
    sub = 1 << SUB_BITS
    if ns < sub:
        return ns
    top = ns.bit_length() - 1
    if top >= TOP_BIT:
        return sub * (TOP_BIT - SUB_BITS + 1)
    shift = top - SUB_BITS
    return sub * (shift + 1) + (ns >> shift) - sub


def bucket_lower(index):
    sub = 1 << SUB_BITS
    if index < sub:
        return index
    if index >= sub * (TOP_BIT - SUB_BITS + 1):
        return 1 << TOP_BIT
    shift = index // sub - 1
    return (index - sub * shift) << shift


def histogram_error(h, where):
    """What alignbench's reader (lib/result/json_histogram.cc) says of these histograms,
    or None: a file it refuses is not drawn."""
    if not isinstance(h, dict):
        return "key '%s': expected an object" % where
    if h.get("buckets_per_octave") != 1 << SUB_BITS or isinstance(h.get("buckets_per_octave"), bool):
        return "key '%s.buckets_per_octave': expected %d" % (where, 1 << SUB_BITS)
    for part in ("write_sync", "write", "sync"):
        why = one_histogram_error(h.get(part), where + "." + part)
        if why:
            return why
    return None


def one_histogram_error(one, at):
    """histogram_error of one of the three histograms (write_sync, write, sync), at key at."""
    if one is None:
        return "key '%s': missing" % at
    if not isinstance(one, dict):
        return "key '%s': expected an object" % at
    for key in ("count", "sum_ns", "min_ns", "max_ns"):
        if not whole(one.get(key)):
            return "key '%s.%s': expected a non-negative whole number" % (at, key)
    if not isinstance(one.get("buckets"), list):
        return "key '%s.buckets': expected a list" % at
    total, last = 0, -1
    for i, b in enumerate(one["buckets"]):
        if not (isinstance(b, list) and len(b) == 2 and whole(b[0]) and whole(b[1]) and b[1] > 0):
            return "key '%s.buckets[%d]': expected [lower bound in ns, count > 0]" % (at, i)
        index = bucket_of(min(b[0], (1 << 63) - 1))
        if bucket_lower(index) != b[0] or index <= last:
            return "key '%s.buckets[%d]': not a bucket bound of this layout, or out of order" % (at, i)
        last, total = index, total + b[1]
    if total != one["count"] or one["min_ns"] > one["max_ns"]:
        return "key '%s': bucket counts do not add up to count, or min > max" % at
    return None


def load(path):
    """The file's "alignbench" object, refused in one line where alignbench refuses it."""
    data = read_bounded(path)
    try:
        # utf-8-sig: a byte order mark is skipped, as alignbench's JSON reader skips it.
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        die("read %s: not valid JSON, so not an alignbench result file (%s); give a result file"
            % (path, str(e)[:80]))
    ab = doc.get("alignbench") if isinstance(doc, dict) else None
    if not isinstance(ab, dict) or not isinstance(ab.get("pairs"), list):
        die("read %s: not an alignbench result file (no 'alignbench' object with pairs)" % path)
    version = ab.get("schema_version")
    if not whole(version) or version > 3:
        die("read %s: schema_version %r: this script reads 1 to 3; use a newer scripts/plot"
            % (path, version))
    check_pairs(path, ab["pairs"])
    return ab


def check_pairs(path, pairs):
    """Each pair an object with a size, and its histograms, where it has them, readable."""
    for i, p in enumerate(pairs):
        where = "alignbench.pairs[%d]" % i
        if not isinstance(p, dict):
            die("read %s: not an alignbench result: key '%s': expected an object" % (path, where))
        if not whole(p.get("size_bytes")):
            die("read %s: not an alignbench result: key '%s.size_bytes': expected a "
                "non-negative whole number" % (path, where))
        for key in ("aligned", "unaligned"):
            v = p.get(key)
            if isinstance(v, dict) and "histograms" in v:
                why = histogram_error(v["histograms"], "%s.%s.histograms" % (where, key))
                if why:
                    die("read %s: not an alignbench result: %s" % (path, why))


def attributes(ab):
    """What describes a file's runs: the candidates for labels."""
    target = (ab.get("environment") or {}).get("target") or {}
    device = target.get("device")
    settings = ab.get("settings") or {}
    host = ((ab.get("environment") or {}).get("host") or {}).get("hostname")
    return {
        "host": str(host or "?"),
        "fs": str(target.get("fs_type") or "unknown-fs"),
        "disk": str(device.get("model") or device.get("disk")) if isinstance(device, dict) else "no disk",
        "wc": "write cache " + str(device.get("write_cache")) if isinstance(device, dict) else "",
        "dir": str(target.get("dir") or settings.get("dir") or "?"),
        "shift": "shift %s B" % settings.get("shift_bytes", "?"),
        # A log case names its variants itself ("unpadded", "padded").
        "labels": log_labels(settings),
    }


def log_labels(settings):
    """(unaligned label, aligned label) of a log case, or None."""
    log = settings.get("log")
    labels = log.get("labels") if isinstance(log, dict) else None
    if not isinstance(labels, dict):
        return None
    pair = (labels.get("unaligned"), labels.get("aligned"))
    return pair if all(isinstance(x, str) for x in pair) else None


def collect(files):
    """One series per (file, axis combination) with its measured pairs, each labelled by
    what differs between them; and the subtitle, what they share. Every series of a file
    shares its run's conditions (s["run"], see run_of)."""
    series = []
    for path in files:
        series += series_of(path)
    name_runs(series)
    return series, label(series)


def series_of(path):
    """The series of one file: its measured pairs by axis combination, sorted by size."""
    ab = load(path)
    combos, skipped = {}, 0
    for p in ab["pairs"]:
        if not (isinstance(p, dict) and num(p.get("gain_pct")) and p["size_bytes"] > 0
                and all(isinstance(p.get(k), dict) for k in ("aligned", "unaligned"))):
            skipped += 1
            continue
        key = tuple(str(p.get(a, "?")) for a in AXES)
        combos.setdefault(key, []).append(p)
    if not combos:
        die("%s: no measured pairs (none of its %d pairs has a gain)" % (path, len(ab["pairs"])))
    if skipped:
        print("plot: %s: skipped %d pair(s) that were not measured" % (shown(path), skipped),
              file=sys.stderr)
    series, run = [], run_of(ab, path)
    for key, pairs in combos.items():
        attrs = attributes(ab)
        attrs.update(zip(AXES, key))
        series.append({"path": path, "attrs": attrs, "run": run,
                       "pairs": sorted(pairs, key=lambda p: p["size_bytes"])})
    return series


def interval_of(pair):
    """The pair's gain interval (low, high), or None."""
    i = pair.get("gain_interval_pct") if isinstance(pair, dict) else None
    if isinstance(i, dict) and num(i.get("low")) and num(i.get("high")):
        return i["low"], i["high"]
    return None


def half_width(pair):
    low, high = interval_of(pair)
    return (high - low) / 2


def wider(pair, precision):
    """Whether the pair's interval is wider than the precision asked (±precision points),
    as the answer line judges it (Interval::HalfWidth() > precision)."""
    return interval_of(pair) is not None and half_width(pair) > precision


def reached_points(half):
    """A half-width as the answer line prints it (ReachedPoints, lib/pairs/pairs.cc):
    rounded up to a tenth."""
    return "%.1f" % (math.ceil(10 * half - 1e-9) / 10)


def others_writes_per_second(pair):
    """Others' writes a second on the disk in the idle windows before the pair, the higher
    of its two variants (OthersWritesPerSecond); None where none was sampled."""
    rates = []
    for key in ("unaligned", "aligned"):
        v = pair.get(key) if isinstance(pair.get(key), dict) else {}
        background = v.get("device_background_per_write")
        ws = v.get("write_sync")
        mean = ws.get("mean_ns") if isinstance(ws, dict) else None
        if (isinstance(background, dict) and num(background.get("writes"))
                and num(mean) and mean > 0):
            rates.append(background["writes"] / (mean * 1e-9))
    return max(rates) if rates else None


def run_of(ab, path):
    """A file's run as the figure tells it: its precision asked and interval level, and
    its conditions, each a clause in the answer line's words: "the disk was busy (188
    writes/s from others)", "the CPUs were busy (others used 50 % of their time)", an
    incomplete run, its warnings and errors, and "4 of 13 intervals wider than ±5 (up to
    ±14.0)". disturbed: others kept the disk or the CPUs busy, the run did not finish, or
    it has warnings or errors, so that no verdict of the file is drawn as firm."""
    settings = ab.get("settings") if isinstance(ab.get("settings"), dict) else {}
    precision = settings.get("precision_points")
    precision = precision if num(precision) and precision > 0 else DEFAULT_PRECISION
    statistics = ab.get("statistics") if isinstance(ab.get("statistics"), dict) else {}
    level = statistics.get("confidence_level")
    pairs = [p for p in ab["pairs"] if isinstance(p, dict)]
    disturbances = []
    writes = [w for w in map(others_writes_per_second, pairs) if w is not None]
    if writes and max(writes) >= BUSY_WRITES_PER_SECOND:
        disturbances.append("the disk was busy (%.0f writes/s from others)" % max(writes))
    cpus = [p["others_cpu_share"] for p in pairs if num(p.get("others_cpu_share"))]
    if cpus and max(cpus) >= BUSY_CPU_SHARE:
        disturbances.append("the CPUs were busy (others used %.0f %% of their time)"
                            % (100 * max(cpus)))
    if ab.get("complete") is False:
        disturbances.append("incomplete: the run was interrupted or stopped by an error")
    measured = [p for p in pairs if interval_of(p) is not None]
    wide = [p for p in measured if wider(p, precision)]
    widest = max(map(half_width, wide)) if wide else None
    conditions = list(disturbances)
    if wide:
        conditions.append("%s intervals wider than ±%g (up to ±%s)"
                          % (counted(len(wide), len(measured)), precision, reached_points(widest)))
    counts = [(len(ab[k]), k[:-1]) for k in ("warnings", "errors")
              if isinstance(ab.get(k), list) and ab[k]]
    if counts:
        notes = "%s (alignbench show prints %s)" % (
            " and ".join("%d %s%s" % (n, word, "" if n == 1 else "s") for n, word in counts),
            "it" if sum(n for n, _ in counts) == 1 else "them")
        disturbances.append(notes)
        conditions.append(notes)
    return {"path": path, "name": None, "precision": precision,
            "level": level if num(level) and 0 < level < 1 else None,
            "intervals": len(measured), "wide": len(wide), "widest": widest,
            "disturbed": bool(disturbances), "conditions": conditions}


def counted(n, of):
    """"4 of 13", or "all 13" where n is all of them."""
    return "all %d" % of if n == of else "%d of %d" % (n, of)


def name_runs(series):
    """Names each file's run after its file, without .json; by its path where two files
    share a name."""
    each = runs(series)
    names = [os.path.basename(r["path"]).removesuffix(".json") for r in each]
    for r, name in zip(each, names):
        r["name"] = name if names.count(name) == 1 else r["path"]


def runs(series):
    """The files' runs, once each, in the order of the files."""
    return list({id(s["run"]): s["run"] for s in series}.values())


def condition_lines(series):
    """The lines the figures carry under their title: one per file that has a condition,
    "NAME: clause; clause"; none for a file measured undisturbed and to its precision."""
    return ["%s: %s" % (r["name"], "; ".join(r["conditions"]))
            for r in runs(series) if r["conditions"]]


def caveated(s, pair):
    """Whether a significant verdict of this pair is drawn with a caveat, not as firm: its
    file's run was disturbed, or its own interval is wider than the precision asked."""
    return s["run"]["disturbed"] or wider(pair, s["run"]["precision"])


def interval_caption(series):
    """What the gain panel's bars are and how precise: "bars: 95 % intervals; all 13 within
    the ±5 asked", or "bars: 95 % intervals; 4 of 13 wider than the ±5 asked (up to
    ±14.0)"; per precision where the files asked for different ones. Empty where no pair
    has an interval (a mailing-list table)."""
    rs = [r for r in runs(series) if r["intervals"]]
    if not rs:
        return ""
    levels = sorted({r["level"] for r in rs if r["level"] is not None}, reverse=True)
    text = "bars: %s intervals" % ("/".join("%g %%" % (100 * v) for v in levels) or "95 %")
    parts = []
    for precision in sorted({r["precision"] for r in rs}):
        these = [r for r in rs if r["precision"] == precision]
        total, wide = sum(r["intervals"] for r in these), sum(r["wide"] for r in these)
        if wide:
            widest = max(r["widest"] for r in these if r["wide"])
            parts.append("%s wider than the ±%g asked (up to ±%s)"
                         % (counted(wide, total), precision, reached_points(widest)))
        else:
            parts.append("all %d within the ±%g asked" % (total, precision))
    return text + "; " + "; ".join(parts)


def label(series):
    """Sets each series' label to what differs between them (its file's name first where
    that is not enough to tell them apart); returns what they share, the subtitle."""
    differ = [k for k in ("host", "disk", "fs", "wc", "dir") + AXES + ("shift",)
              if len({s["attrs"][k] for s in series}) > 1]
    for s in series:
        s["label"] = ", ".join(s["attrs"][k] for k in differ if s["attrs"][k] not in ("", "?"))
    if len({s["label"] for s in series}) < len(series):
        for s in series:
            name = os.path.basename(s["path"]).removesuffix(".json")
            s["label"] = name + (": " + s["label"] if s["label"] else "")
    same = [s for s in series[0]["attrs"] if s not in differ and s not in ("host", "labels")]
    return " · ".join(series[0]["attrs"][k] for k in same if series[0]["attrs"][k])
