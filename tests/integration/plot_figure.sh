# The figures of scripts/plot, read as a newcomer reads them, checked on their structure:
# the times on log axes, in a panel for the means and one for the p99 (so that the p99 does
# not squash the means); each variant one line style and one marker in every panel of
# times, each series one colour, so no two lines look the same; fill used only by the gain
# panel (significant or not); a label on every axis of every panel, in the CDF figure too.
# Inputs: the curated results of this machine class (one, then four side by side) and two
# fresh runs of the smoke case, which have the histograms the CDF figure needs. No root.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
"$PY" -c 'import matplotlib' 2> /dev/null || skip "python3-matplotlib not installed"

for sync in fsync fdatasync; do
  "$ALIGNBENCH" --case quick --dir "$WORK" --sync "$sync" --out "$WORK/quick-$sync.json" \
    > /dev/null 2> "$WORK/run.err" || { cat "$WORK/run.err" >&2; echo "FAIL: quick run" >&2; exit 1; }
done

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
print("figure checks: %d failed" % failed)
sys.exit(1 if failed else 0)
PY
status=$?
check "scripts/plot's figures keep their structure" [ "$status" -eq 0 ]
finish
