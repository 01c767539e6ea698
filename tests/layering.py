#!/usr/bin/env python3
"""Every #include in lib/ and bench/ follows ARCHITECTURE.md's order of layers.

ARCHITECTURE.md states the order on its line "Layers, bottom first: ...", groups of
folders separated by '<' (folders in one group, separated by ',', may not include each
other). An include runs back up when it names a folder of a higher group, or one of the
same group other than its own. Inside one folder, files (a .h and its .cc count as one)
must not include each other in a circle. Prints every offence and exits 1 if there is
one.

The format writers (lib/render/: csv, derby, markdown, ioping, text_compact, text_detailed
and its tail_rows) lay out the report view and read nothing of the result: none of their
files names Report, PairResult or VariantResult.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:lib|bench)/[^"]+)"', re.M)
WRITERS = ("csv", "derby", "markdown", "ioping", "text_compact", "text_detailed", "tail_rows")
RESULT_TYPES = re.compile(r"\b(Report|PairResult|VariantResult)\b")


def layers():
    text = (ROOT / "ARCHITECTURE.md").read_text()
    match = re.search(r"^Layers, bottom first: (.+)$", text, re.M)
    if not match:
        sys.exit("layering: ARCHITECTURE.md has no line 'Layers, bottom first: ...'")
    rank = {}
    for level, group in enumerate(match.group(1).split("<")):
        for name in re.findall(r"`([a-z_]+)/?`", group):
            rank[name] = level
    return rank


def folder_of(path):
    parts = pathlib.PurePosixPath(path).parts
    return parts[1] if parts[0] == "lib" and len(parts) > 2 else parts[0]


def main():
    rank = layers()
    offences = []
    edges = {}
    sources = [p for folder in ("lib", "bench") for p in ROOT.glob(folder + "/**/*")
               if p.suffix in (".h", ".cc")]
    for source in sorted(sources):
        rel = source.relative_to(ROOT).as_posix()
        here = folder_of(rel)
        if here not in rank:
            offences.append(f"{rel}: folder '{here}' is not in ARCHITECTURE.md's layers")
            continue
        unit = rel.rsplit(".", 1)[0]
        for target in INCLUDE.findall(source.read_text(errors="replace")):
            there = folder_of(target)
            if target == "lib/version.h":  # generated at build time, bottom of all
                continue
            if there not in rank:
                offences.append(f"{rel}: includes {target}, folder '{there}' has no layer")
            elif there != here and rank[there] >= rank[here]:
                offences.append(f"{rel}: includes {target}: '{there}' is not below '{here}'")
            elif there == here:
                other = target.rsplit(".", 1)[0]
                if other != unit:
                    edges.setdefault(unit, set()).add(other)
    # Circles inside a folder: the strongly connected components of the file-level graph
    # (Tarjan), which do not depend on the order the graph is walked in.
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def connect(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(tuple(sorted(component)))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    for component in components:
        offences.append("files that include each other in a circle: " + ", ".join(component))
    for name in WRITERS:
        for suffix in (".h", ".cc"):
            path = ROOT / "lib" / "render" / (name + suffix)
            for number, line in enumerate(path.read_text().splitlines(), 1):
                found = RESULT_TYPES.search(line)
                if found:
                    offences.append(f"lib/render/{name}{suffix}:{number}: a writer names "
                                    f"{found.group(1)}; writers read the view (report_view.h)")
    for offence in offences:
        print("layering:", offence)
    print(f"layering: {len(offences)} offences")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
