"""The figures of scripts/plot, drawn with matplotlib from the series of plot_data: the
means figure (three panels over the block size: mean, p99, %gain) and the CDF figure (one
panel per size). One meaning per cue throughout: colour is the series; line style and
marker shape are the variant; fill is used only in the gain panel. Under each figure's
title, a line per file whose run was disturbed or is less precise than asked says so."""
import math
import sys
import textwrap

from plot_data import caveated, condition_lines, interval_caption, num

# (key, name, line style, marker): the variant's cue in every panel of times.
VARIANTS = (("aligned", "aligned", "-", "o"), ("unaligned", "unaligned", "--", "s"))
# The verdicts that are significant at 5 %, firm or leaning; result files name the
# slower side's win "shifted faster" or "unaligned faster", depending on the version that
# wrote them.
SIGNIFICANT = ("aligned faster", "shifted faster", "unaligned faster", "leans aligned",
               "leans unaligned")
# The gain's marker, a shape no variant uses: its fill says whether the verdict is significant.
GAIN_MARKER = "D"
# The fill of a gain that has no interval: Derby's gain of means, no verdict.
NO_INTERVAL_FILL = "#bbbbbb"
# The half of the gain's marker filled where a significant verdict has a caveat: its run
# was disturbed, or its interval is wider than asked (plot_data.caveated).
CAVEAT_FILL = "bottom"
# Characters per line of the conditions under a title, before it wraps.
TITLE_WIDTH = 140


def size_label(size):
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if size >= scale:
            return "%g%s" % (size / scale, unit)
    return "%dB" % size


def variant_names(series):
    """What the legends call the two variants: a log case's own names when every
    series shares them, else unaligned and aligned."""
    labels = {s["attrs"]["labels"] for s in series}
    if len(labels) == 1 and None not in labels:
        unaligned, aligned = labels.pop()
        return {"unaligned": unaligned, "aligned": aligned}
    return {"unaligned": "unaligned", "aligned": "aligned"}


def typical_gain(pair):
    """The gain the table prints: the centre of the pair's 95 % interval, so that the point
    sits on its bar; Derby's gain of means where there is no interval (a mailing-list
    table, or fewer runs than a verdict needs)."""
    interval = pair.get("gain_interval_pct") or {}
    return interval["estimate_pct"] if num(interval.get("estimate_pct")) else pair["gain_pct"]


def colours(n):
    import matplotlib
    cmap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def ms(variant, key):
    v = (variant or {}).get("write_sync") or {}
    return v[key] / 1e6 if num(v.get(key)) else math.nan


def title(first, subtitle, series):
    """A figure's title: what it shows, what its series share, and the conditions of
    every file that has any (plot_data.condition_lines), each wrapped to the figure."""
    lines = [first, subtitle]
    for line in condition_lines(series):
        lines += textwrap.wrap(line, TITLE_WIDTH, subsequent_indent="    ", break_on_hyphens=False)
    # A "$" would start matplotlib's mathematics.
    return "\n".join(line.replace("$", r"\$") for line in lines if line)


def legend(fig, series, styles):
    """Line styles first, then one colour per series, right of the panels."""
    import matplotlib.pyplot as plt
    handles = styles + [plt.Line2D([], [], color=s["colour"], lw=6, label=s["label"])
                        for s in series if s["label"]]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.93), fontsize=9,
               frameon=False)


def time_axis(ax, label):
    """A panel of milliseconds: log, so that the same ratio looks the same at 0.2 ms and at
    20 ms, with plain numbers on the ticks."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    values = [y for line in ax.lines for y in line.get_ydata() if num(y) and y > 0]
    ax.set_ylabel(label)
    if not values:  # a mailing-list table: means only, no percentile
        ax.text(0.5, 0.5, "not in these results", transform=ax.transAxes,
                ha="center", va="center")
        ax.set_yticks([])
        return
    ax.set_yscale("log")
    # Within a decade or so every 1..9 step is a tick; over more, 1, 2 and 5 of each decade.
    narrow = values and max(values) / min(values) < 30
    subs = tuple(float(k) for k in range(1, 10)) if narrow else (1.0, 2.0, 5.0)
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    ax.yaxis.set_minor_formatter(NullFormatter())


def gain_span(series):
    """The gain panel's range: every interval and 0, with a margin; None without intervals."""
    ends = [0.0]
    for s in series:
        for p in s["pairs"]:
            interval = p.get("gain_interval_pct") or {}
            ends += [v for v in (interval.get("low"), interval.get("high")) if num(v)]
    if len(ends) == 1:
        return None
    margin = 0.1 * (max(ends) - min(ends)) or 1.0
    return min(ends) - margin, max(ends) + margin


def draw_means(series, subtitle):
    """Three panels over the block size, one meaning per cue throughout: colour is the
    series; line style and marker shape are the variant (aligned solid with circles, unaligned
    dashed with squares), in the mean panel and the p99 panel alike; fill is used only in
    the gain panel, where a filled diamond is a significant verdict. The p99 has a panel of
    its own, so that its larger values do not squash the means."""
    import matplotlib.pyplot as plt
    fig, (top, middle, bottom) = plt.subplots(
        3, 1, figsize=(12.8, 12.0), sharex=True, gridspec_kw={"height_ratios": [3, 2, 3]})
    step = 0.0 if len(series) == 1 else min(0.08, 0.32 / (len(series) - 1))
    names = variant_names(series)
    span = gain_span(series)
    for i, s in enumerate(series):
        # Gains of several series side by side (in octaves), so their bars stay apart.
        dodged = [p["size_bytes"] * 2 ** ((i - (len(series) - 1) / 2) * step) for p in s["pairs"]]
        draw_times(top, middle, s, names)
        draw_gains(bottom, s, dodged, span)
    time_axis(top, "mean ms per write+sync (log)")
    time_axis(middle, "p99 ms per write+sync (log)")
    means_only = any(not has_interval(p) for s in series for p in s["pairs"])
    with_caveat = any(significant(p) and caveated(s, p) for s in series for p in s["pairs"])
    legend(fig, series, means_styles(names, means_only, with_caveat))
    gain_axis(bottom, span, interval_caption(series))
    sizes = sorted({p["size_bytes"] for s in series for p in s["pairs"]})
    bottom.set_xscale("log", base=2)
    bottom.set_xticks(sizes, [size_label(v) for v in sizes])
    for ax in (top, middle, bottom):
        ax.set_xlabel("bytes per write")
        ax.tick_params(labelbottom=True)
        ax.grid(True, color="#dddddd")
        ax.grid(True, which="minor", axis="y", color="#eeeeee")
    fig.suptitle(title("alignbench: time per write+sync and the gain of aligning", subtitle,
                       series), fontsize=11)
    fig.tight_layout()
    return fig


def draw_times(top, middle, s, names):
    """A series' mean (top) and p99 (middle) over the size, a line per variant."""
    x = [p["size_bytes"] for p in s["pairs"]]
    for key, _, style, marker in VARIANTS:
        label = "%s %s" % (s["label"] or "-", names[key])
        for ax, stat in ((top, "mean_ns"), (middle, "p99_ns")):
            ax.plot(x, [ms(p[key], stat) for p in s["pairs"]], ls=style, marker=marker,
                    color=s["colour"], ms=5, label=label)


def draw_gains(bottom, s, dodged, span):
    """A series' typical gains at the dodged sizes: its 95 % bars, and a diamond per size,
    filled where the verdict is significant, half filled where it is significant with a
    caveat (its run disturbed, its interval wider than asked). A gain of means (a table
    without intervals) beyond every interval sits on the panel's edge with its value
    written beside it, rather than stretching the axis."""
    c = s["colour"]
    gains = [typical_gain(p) for p in s["pairs"]]
    iv = [(x, p.get("gain_interval_pct") or {}) for x, p in zip(dodged, s["pairs"])]
    iv = [(x, i["low"], i["high"]) for x, i in iv if num(i.get("low")) and num(i.get("high"))]
    if iv:
        bottom.vlines(*zip(*iv), color=c, lw=1.5)
    if span:
        shown = [min(max(g, span[0]), span[1]) for g in gains]
        for xg, g, y in zip(dodged, gains, shown):
            if g != y:
                bottom.annotate("%+.0f %%" % g, (xg, y), xytext=(7, -10 if g > y else 3),
                                textcoords="offset points", ha="left", fontsize=8, color=c)
        gains = shown
    bottom.plot(dodged, gains, "-", color=c, lw=1)
    bottom.scatter(dodged, gains, marker=GAIN_MARKER,
                   color=[gain_fill(s, p, c) for p in s["pairs"]],
                   edgecolors=[c] * len(s["pairs"]), zorder=3, s=40, label=s["label"] or "-")
    # Over the white diamonds of significant verdicts with a caveat, their lower half.
    half = [(x, y) for x, y, p in zip(dodged, gains, s["pairs"])
            if significant(p) and caveated(s, p)]
    if half:
        from matplotlib.markers import MarkerStyle
        bottom.scatter(*zip(*half), marker=MarkerStyle(GAIN_MARKER, fillstyle=CAVEAT_FILL),
                       color=[c] * len(half), edgecolors=[c] * len(half), zorder=3, s=40)


def has_interval(pair):
    i = pair.get("gain_interval_pct") or {}
    return num(i.get("low")) and num(i.get("high"))


def significant(pair):
    return has_interval(pair) and pair.get("verdict") in SIGNIFICANT


def gain_fill(s, pair, colour):
    """A gain point's fill: the series' colour for a significant verdict, white for none
    and for one with a caveat (draw_gains fills its lower half), grey for a gain of means
    that has no interval to judge it by (a mailing-list table)."""
    if not has_interval(pair):
        return NO_INTERVAL_FILL
    return colour if significant(pair) and not caveated(s, pair) else "white"


def means_styles(names, means_only, with_caveat):
    """The legend's cues of the means figure: a variant's line and marker, the gain's fill
    (half filled only where some significant verdict has a caveat, grey only where some
    gain has no interval)."""
    import matplotlib.pyplot as plt
    gain = [plt.Line2D([], [], color="#333333", marker=GAIN_MARKER, mfc="#333333", ls="",
                       label="gain: significant verdict")]
    if with_caveat:
        gain.append(plt.Line2D([], [], color="#333333", marker=GAIN_MARKER, mfc="#333333",
                               mfcalt="white", fillstyle=CAVEAT_FILL, ls="",
                               label="gain: significant, with a condition\nnamed under the title"))
    fills = [("gain: no significant difference", "white")]
    if means_only:
        fills.append(("gain of means: no interval, no verdict", NO_INTERVAL_FILL))
    return [
        plt.Line2D([], [], color="#333333", ls=style, marker=marker, label=names[key])
        for key, _, style, marker in VARIANTS] + gain + [
        plt.Line2D([], [], color="#333333", marker=GAIN_MARKER, mfc=fill, ls="", label=label)
        for label, fill in fills]


def gain_axis(bottom, span, caption):
    """The gain panel's range, its zero line, its label, and above it the caption of its
    bars: their level and the precision the runs asked for (plot_data.interval_caption)."""
    if span:
        bottom.set_ylim(*span)
    bottom.axhline(0, color="black", lw=1)
    bottom.set_ylabel("%gain: the typical gain of a block, the\n"
                      "centre of its interval (bars);\nelse the gain of means (grey)")
    if caption:
        bottom.set_title(caption, loc="left", fontsize=9)


def has_histogram(variant):
    h = (variant.get("histograms") or {}).get("write_sync")
    return (isinstance(h, dict) and all(isinstance(h.get(k), int) for k in ("count", "min_ns", "max_ns"))
            and h["count"] > 0 and isinstance(h.get("buckets"), list)
            and all(isinstance(b, list) and len(b) == 2 and all(isinstance(x, int) for x in b)
                    for b in h["buckets"]))


def cdf_points(hist):
    """(ms, fraction) at each bucket's upper bound, from its sparse buckets."""
    total, seen = hist["count"], 0
    points = [(hist["min_ns"], 0.0)]
    for lower, count in hist["buckets"]:
        width = 1 << max(0, lower.bit_length() - 8)
        seen += count
        points.append((min(lower + width, hist["max_ns"]), seen / total))
    return points


def draw_cdf(series, subtitle, dump):
    """A panel per size, a curve per series and variant; the points drawn are appended to
    dump as (series, size, variant, ns, fraction). None where no series has histograms."""
    import matplotlib.pyplot as plt
    with_hist = [s for s in series if all(has_histogram(p[k]) for p in s["pairs"] for k in ("aligned", "unaligned"))]
    if len(with_hist) < len(series):
        print("plot: %d series without histograms (made before them): not in the CDF figure"
              % (len(series) - len(with_hist)), file=sys.stderr)
    if not with_hist:
        return None
    sizes = sorted({p["size_bytes"] for s in with_hist for p in s["pairs"]})
    cols = min(4, len(sizes))
    rows = math.ceil(len(sizes) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols + 3, 3.0 * rows + 1), squeeze=False)
    for s in with_hist:
        draw_cdf_curves(axes, sizes, s, dump)
    cdf_panels(axes, sizes)
    names = variant_names(with_hist)
    legend(fig, [s for s in series if s in with_hist],
           [plt.Line2D([], [], color="#333333", ls=style, label=names[key])
            for key, _, style, _ in VARIANTS])
    fig.suptitle(title("alignbench: distribution of write+sync per size (CDF; right = slower)",
                       subtitle, with_hist), fontsize=11)
    fig.tight_layout()
    return fig


def draw_cdf_curves(axes, sizes, s, dump):
    """A series' two curves in the panel of each of its sizes, their points into dump."""
    for p in s["pairs"]:
        ax = axes.flat[sizes.index(p["size_bytes"])]
        for key, name, style, _ in VARIANTS:
            pts = cdf_points(p[key]["histograms"]["write_sync"])
            ax.plot([x / 1e6 for x, _ in pts], [f for _, f in pts], style, color=s["colour"], lw=1.4)
            for x, f in pts:
                dump.append((s["label"] or "-", p["size_bytes"], name, x, f))


def cdf_panels(axes, sizes):
    """Every panel is labelled in full: read alone, none leaves its axes to be guessed.
    Panels beyond the sizes are hidden."""
    from matplotlib.ticker import FuncFormatter
    for ax, size in zip(axes.flat, sizes):
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
        ax.set_title(size_label(size) + " per write", fontsize=10)
        ax.grid(True, color="#dddddd")
        ax.set_ylim(0, 1.005)
        ax.set_ylabel("fraction of writes")
        ax.set_xlabel("ms per write+sync (log)")
    for ax in axes.flat[len(sizes):]:
        ax.set_visible(False)
