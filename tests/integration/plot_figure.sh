# The figures of scripts/plot, read as a newcomer reads them, checked on their structure:
# the times on log axes, in a panel for the means and one for the p99 (so that the p99 does
# not squash the means); each variant one line style and one marker in every panel of
# times, each series one colour, so no two lines look the same; fill used only by the gain
# panel (significant or not); a label on every axis of every panel, in the CDF figure too.
# And the run's conditions, read from the figures' own words and markers: under the title,
# a line per disturbed or imprecise file in the answer line's words, none for a clean one;
# above the gain panel, the intervals' level and the precision asked; a significant verdict
# of a disturbed file never drawn as the plain filled diamond of a firm one.
# Inputs: the curated results of this machine class (one, then four side by side), two
# fresh runs of the smoke case, which have the histograms the CDF figure needs, and made
# from the first of them: results clean, on a busy disk, short of their precision with
# warnings, and incomplete beside busy CPUs. No root.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
"$PY" -c 'import matplotlib' 2> /dev/null || skip "python3-matplotlib not installed"

for sync in fsync fdatasync; do
  "$ALIGNBENCH" --case quick --dir "$WORK" --sync "$sync" --out "$WORK/quick-$sync.json" \
    > /dev/null 2> "$WORK/run.err" || { cat "$WORK/run.err" >&2; echo "FAIL: quick run" >&2; exit 1; }
done

# Made from the fsync smoke run, each a result alignbench show accepts: clean (every
# interval within its ±5, firm, nobody busy, no warning); on a disk others wrote to 188
# times a second; two of three intervals wider than the ±5 asked, with four warnings; and
# the clean one incomplete, with an error and a warning, beside CPUs others used 60 % of.
CLEAN=$WORK/clean.json BUSY_DISK=$WORK/busy-disk.json WIDE=$WORK/wide.json
"$PY" - "$WORK/quick-fsync.json" "$WORK" <<'PY'
import json, sys
source, work = sys.argv[1:]


def made(name, change):
    doc = json.load(open(source))
    ab = doc["alignbench"]
    ab["warnings"], ab["errors"], ab["complete"] = [], [], True
    for pair in ab["pairs"]:
        pair["gain_interval_pct"].update(low=18.0, high=22.0, estimate_pct=20.0)
        pair["p_value"], pair["verdict"], pair["others_cpu_share"] = 0.001, "aligned faster", 0.01
        for v in ("unaligned", "aligned"):
            if "device_background_per_write" in pair[v]:
                pair[v]["device_background_per_write"]["writes"] = 0.0
    change(ab)
    json.dump(doc, open("%s/%s.json" % (work, name), "w"))


def busy_disk(ab):
    for pair in ab["pairs"]:
        for v in ("unaligned", "aligned"):
            mean_s = pair[v]["write_sync"]["mean_ns"] * 1e-9
            pair[v]["device_background_per_write"] = {
                "reads": 0.0, "read_kib": 0.0, "writes": 188 * mean_s, "written_kib": 0.0}


def wide(ab):
    for pair in ab["pairs"][:2]:
        pair["gain_interval_pct"].update(low=-10.0, high=18.0, estimate_pct=4.0)
        pair["p_value"], pair["verdict"] = 0.3, "no significant difference"
    ab["warnings"] = ["warning %d made for this test" % k for k in range(4)]


def incomplete(ab):
    for pair in ab["pairs"]:
        pair["others_cpu_share"] = 0.6
    ab["complete"] = False
    ab["errors"] = ["interrupted by SIGINT"]
    ab["warnings"] = ["a warning made for this test"]


made("clean", lambda ab: None)
made("busy-disk", busy_disk)
made("wide", wide)
made("made", incomplete)
PY
for made in clean busy-disk wide; do
  check "alignbench show accepts the $made result" "$ALIGNBENCH" show "$WORK/$made.json" > /dev/null
done
check "alignbench show accepts the made result" "$ALIGNBENCH" show "$WORK/made.json" > /dev/null
"$SRC/scripts/plot" --out "$WORK/made" "$WORK/made.json" > /dev/null 2> "$WORK/made.err"
made="plot: made: the CPUs were busy (others used 60 % of their time); incomplete: the run"
made+=" was interrupted or stopped by an error; 1 warning and 1 error (alignbench show prints them)"
check "scripts/plot prints the made run's conditions ($(head -n 1 "$WORK/made.err"))" \
  grep -qxF "$made" "$WORK/made.err"

CLEAN=$CLEAN BUSY_DISK=$BUSY_DISK WIDE=$WIDE MADE=$WORK/made.json \
"$PY" - "$SRC/scripts/plot" "$WORK" "$SRC"/results/vm-loop/*.json <<'PY'
import importlib.machinery, importlib.util, sys
import matplotlib
matplotlib.use("Agg")
script, work, curated = sys.argv[1], sys.argv[2], sys.argv[3:]
loader = importlib.machinery.SourceFileLoader("plot", script)
plot = importlib.util.module_from_spec(importlib.util.spec_from_loader("plot", loader))
loader.exec_module(plot)
failed = 0


def check(what, ok):
    global failed
    if not ok:
        failed += 1
        print("FAIL: " + what, file=sys.stderr)


def figures(files):
    series, subtitle = plot.collect(files)
    for s, c in zip(series, plot.colours(len(series))):
        s["colour"] = c
    return series, plot.draw_means(series, subtitle), plot.draw_cdf(series, subtitle, [])


def labelled(name, axes):
    for i, ax in enumerate(axes):
        check("%s panel %d: x axis labelled" % (name, i), ax.get_xlabel().strip() != "")
        check("%s panel %d: y axis labelled" % (name, i), ax.get_ylabel().strip() != "")


def on_its_bar(name, ax):
    """Every gain point of the panel sits on the 95 % bar drawn at its size, if any."""
    bars = [seg for c in ax.collections if hasattr(c, "get_segments") for seg in c.get_segments()]
    points = [xy for c in ax.collections if hasattr(c, "get_offsets") and hasattr(c, "get_sizes")
              and len(c.get_sizes()) for xy in c.get_offsets()]
    check(name + ": the gain panel has bars", len(bars) >= 1)
    for x, y in points:
        bar = [(min(a[1], b[1]), max(a[1], b[1])) for a, b in bars if abs(a[0] - x) <= 1e-9 * x]
        for low, high in bar:
            check("%s: the gain at %g (%+.2f) sits on its bar [%+.2f, %+.2f]"
                  % (name, x, y, low, high), low - 1e-9 <= y <= high + 1e-9)


# A result whose gains of means lie outside their intervals, as a few slow writes make
# them: the panel must draw the interval's centre, the gain the table prints.
import json
apart = json.load(open("%s/quick-fsync.json" % work))
for pair in apart["alignbench"]["pairs"]:
    interval = pair.get("gain_interval_pct") or {}
    if "high" in interval:
        pair["gain_pct"] = interval["high"] + 50
json.dump(apart, open("%s/apart.json" % work, "w"))

names = {"aligned": "aligned", "unaligned": "shifted"}
for files in ([curated[0]], curated, ["%s/quick-fsync.json" % work, "%s/quick-fdatasync.json" % work],
              ["%s/apart.json" % work]):
    name = "means of %d file(s)" % len(files)
    series, means, cdf = figures(files)
    axes = means.get_axes()
    check(name + ": three panels (mean, p99, gain)", len(axes) == 3)
    labelled(name, axes)
    for ax in axes:
        check(name + ": x axis log", ax.get_xscale() == "log")
    cues = {}
    for panel, ax in zip(("mean", "p99"), axes[:2]):
        check("%s: %s panel's y axis log" % (name, panel), ax.get_yscale() == "log")
        lines = [l for l in ax.get_lines() if not l.get_label().startswith("_")]
        check("%s: %s panel: two lines per series" % (name, panel), len(lines) == 2 * len(series))
        seen = set()
        for line in lines:
            variant = line.get_label().rsplit(" ", 1)[1]
            cue = (line.get_marker(), line.get_linestyle())
            cues.setdefault(variant, set()).add(cue)
            look = (str(line.get_color()), cue)
            check("%s: %s panel: %s looks like another line" % (name, panel, line.get_label()),
                  look not in seen)
            seen.add(look)
            check("%s: %s panel: %s filled as its line (fill is the gain's cue)"
                  % (name, panel, line.get_label()),
                  matplotlib.colors.same_color(line.get_markerfacecolor(), line.get_color()))
    check(name + ": one marker and style per variant, in both panels of times: %s" % cues,
          all(len(c) == 1 for c in cues.values()))
    check(name + ": the variants' marker and style differ",
          len({next(iter(c)) for c in cues.values()}) == len(cues))
    variant_markers = {m for c in cues.values() for m, _ in c}
    gain_markers = {c.get_paths()[0].vertices.shape[0] for c in axes[2].collections
                    if hasattr(c, "get_sizes") and len(c.get_sizes())}
    check(name + ": the gain panel has its points", len(gain_markers) >= 1)
    check(name + ": the gain's marker is no variant's", plot.GAIN_MARKER not in variant_markers)
    on_its_bar(name, axes[2])
    if cdf is not None:
        panels = [ax for ax in cdf.get_axes() if ax.get_visible()]
        labelled("CDF of %d file(s)" % len(files), panels)
        for ax in panels:
            check("CDF: x axis log", ax.get_xscale() == "log")
            looks = [(str(l.get_color()), l.get_linestyle()) for l in ax.get_lines()]
            check("CDF %s: one colour and style per line" % ax.get_title(),
                  len(looks) == len(set(looks)))
    elif files[0].startswith(work):
        check("the smoke runs have a CDF figure", False)

# --- the run's conditions -------------------------------------------------------------
import os
from matplotlib.markers import MarkerStyle
clean, busy_disk, wide, made = (os.environ[k] for k in ("CLEAN", "BUSY_DISK", "WIDE", "MADE"))
CONDITION_WORDS = ("busy", "wider than", "warning", "error", "incomplete")
full = MarkerStyle(plot.GAIN_MARKER)
full = full.get_path().transformed(full.get_transform()).vertices


def words(fig):
    """Every word the figure writes: its title, the panels' titles, labels and legend."""
    return "\n".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))


def title_lines(fig):
    """The title's lines, a wrapped line (its rest indented) joined again."""
    lines = []
    for line in fig.texts[0].get_text().split("\n") if fig is not None else []:
        if line.startswith("    ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def gain_points(series, ax):
    """The gain panel's points as (series label, filled plain: a whole diamond in the
    series' colour), one per marker drawn."""
    colours = {tuple(matplotlib.colors.to_rgba(s["colour"])): s["label"] for s in series}
    points = []
    for c in ax.collections:
        if not (hasattr(c, "get_sizes") and len(c.get_sizes()) and len(c.get_offsets())):
            continue
        vertices = c.get_paths()[0].vertices
        whole = vertices.shape == full.shape and (abs(vertices - full) < 1e-9).all()
        faces = c.get_facecolors()
        for i in range(len(c.get_offsets())):
            face = tuple(faces[i if len(faces) > 1 else 0])
            if face in colours:
                points.append((colours[face], whole))
    return points


def significant(path):
    pairs = json.load(open(path))["alignbench"]["pairs"]
    return sum(p.get("verdict") in ("aligned faster", "unaligned faster", "leans aligned",
                                    "leans unaligned") for p in pairs)


for path, conditions in ((clean, []),
                         (busy_disk, ["the disk was busy (188 writes/s from others)"]),
                         (wide, ["2 of 3 intervals wider than ±5 (up to ±14.0)",
                                 "4 warnings (alignbench show prints them)"]),
                         (made, ["the CPUs were busy (others used 60 % of their time)",
                                 "incomplete: the run was interrupted or stopped by an error",
                                 "1 warning and 1 error (alignbench show prints them)"])):
    name = os.path.basename(path).removesuffix(".json")
    series, means, cdf = figures([path])
    lines = title_lines(means)[2:]
    check("%s: the title's lines under the subtitle are its conditions %s, got %s"
          % (name, conditions, lines),
          lines == (["%s: %s" % (name, "; ".join(conditions))] if conditions else []))
    if cdf is not None:
        check("%s: the CDF figure says the same under its title" % name,
              title_lines(cdf)[2:] == lines)
    if not conditions:
        check("%s: no word of a condition anywhere on the figure" % name,
              not any(w in words(means).lower() for w in CONDITION_WORDS))
    caption = means.get_axes()[2].get_title(loc="left")
    check("%s: the gain panel's caption says the level and the precision asked: %r"
          % (name, caption),
          caption.startswith("bars: 95 % intervals; ")
          and ("2 of 3 wider than the ±5 asked (up to ±14.0)" if path == wide
               else "within the ±5 asked") in caption)
    points = gain_points(series, means.get_axes()[2])
    plain, marked = sum(whole for _, whole in points), sum(not whole for _, whole in points)
    n = significant(path)
    if path in (clean, made):
        check("%s: all %d pairs significant (the check needs them)" % (name, n), n == 3)
    if path == clean:
        check("%s: its %d significant verdicts are plain filled diamonds (got %d, %d marked)"
              % (name, n, plain, marked), plain == n and marked == 0)
    elif path != wide:
        check("%s: disturbed: none of its %d significant verdicts is a plain filled diamond "
              "(got %d plain, %d marked)" % (name, n, plain, marked),
              n > 0 and plain == 0 and marked == n)
        check("%s: the legend says what a marked diamond is" % name,
              "with a condition\nnamed under the title" in words(means))

# Several files on one figure: a line for each file with a condition, in the files' order,
# none for the clean one; each file's significant verdicts drawn as its own run deserves.
series, means, cdf = figures([busy_disk, clean, made])
lines = title_lines(means)[2:]
check("three files: a condition line for each disturbed file, none for the clean one: %s" % lines,
      len(lines) == 2 and lines[0].startswith("busy-disk: the disk was busy")
      and lines[1].startswith("made: the CPUs were busy")
      and not any(line.startswith("clean") or clean in line for line in lines))
points = gain_points(series, means.get_axes()[2])
by_label = {}
for label, whole in points:
    by_label.setdefault(label, set()).add(whole)
clean_labels = {s["label"] for s in series if s["path"] == clean}
check("three files: the clean file's verdicts filled plain, the others' not: %s" % by_label,
      all(by_label.get(l) == {True} for l in clean_labels)
      and all(wholes == {False} for l, wholes in by_label.items() if l not in clean_labels))
print("figure checks: %d failed" % failed)
sys.exit(1 if failed else 0)
PY
status=$?
check "scripts/plot's figures keep their structure" [ "$status" -eq 0 ]
finish
