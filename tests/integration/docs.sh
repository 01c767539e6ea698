# The docs stand alone and stay true to the code: every long option of --help is described
# in docs/reference.md and on the manual page; every repository path the docs name in
# backquotes exists; no comment or doc points at a file outside the repository or at an
# issue number, whose reasoning a reader of this tree cannot see; README.md stays a short
# entry (200 lines).
source "$(dirname "$0")/lib.sh"
: "${ALIGNBENCH_BUILD_DIR:?set ALIGNBENCH_BUILD_DIR to the build tree}"
SRC=$ALIGNBENCH_SOURCE_DIR

# (a) Every option of --help (lines "  --name ...") is in the reference.
"$ALIGNBENCH" --help > "$WORK/help.txt" || { echo "FAIL: alignbench --help" >&2; exit 1; }
options=$(grep -oE '^  --[a-z][a-z0-9_-]*' "$WORK/help.txt" | sed 's/^  //')
check "--help prints options" [ -n "$options" ]
for option in $options; do
  check "$option is described in docs/reference.md" grep -qF -- "\`$option" "$SRC/docs/reference.md"
done

# (a') ... and on the manual page the build writes from the same table (a tag
# "\fB\-\-name\fR" in roff), for the run and every subcommand.
page=$ALIGNBENCH_BUILD_DIR/packaging/alignbench.1
check "the build wrote the manual page $page" [ -s "$page" ]
for command in "" env show compare unit; do
  # shellcheck disable=SC2086  # no word: the run's --help
  "$ALIGNBENCH" $command --help > "$WORK/sub-help.txt" ||
    { echo "FAIL: alignbench $command --help" >&2; exit 1; }
  while read -r option; do
    check "alignbench $command --help's $option is on the manual page" \
      grep -qF -- "\\fB${option//-/\\-}\\fR" "$page"
  done < <(grep -oE '^  --[a-z][a-z0-9_-]*' "$WORK/sub-help.txt" | sed 's/^  //')
done

# (b) Every path in backquotes that names a place in this repository exists. A span's
# first word is the path ("scripts/derby [DIR]"); globs and braces must match something;
# a path with a <placeholder> is a pattern, not a file. results/runs/ is made by runs
# and ignored by git, so it is not in a fresh tree.
missing=$("$PY" - "$SRC" <<'PY'
import glob, os, re, sys
src = sys.argv[1]
prefixes = ("lib/", "bench/", "tests/", "scripts/", "cases/", "docs/", "results/", "cmake/",
            "packaging/", "fuzz/", ".ci/")
generated = ("results/runs/",)
docs = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"]
docs += sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "docs", "*.md")))

def expand(path):  # {a,b} alternatives, one level
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [path[:m.start()] + alt + path[m.end():] for alt in m.group(1).split(",")]

for doc in docs:
    text = open(os.path.join(src, doc), encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)  # code blocks are examples
    for number, line in enumerate(text.split("\n"), 1):
        for span in re.findall(r"`([^`]+)`", line):
            words = span.split()
            path = words[0].rstrip(".,:;)") if words else ""
            if "/" not in path or not path.startswith(prefixes) or "<" in path:
                continue
            if path.startswith(generated):
                continue
            for candidate in expand(path):
                if not glob.glob(os.path.join(src, candidate)):
                    print("%s: %s" % (doc, candidate))
PY
)
check "every path named in the docs exists${missing:+: $missing}" [ -z "$missing" ]

# (c) No pointer to a file outside the tree or to an issue number. The pattern is spelt
# with brackets so that this file does not match itself.
outside=$(cd "$SRC" && grep -rniI 'DESIGN[.]md\|issue [0-9]\|[.][.]/shared' --exclude-dir=.git --exclude-dir='build*' .)
check "no comment or doc points outside the tree or at an issue number${outside:+: $outside}" \
  [ -z "$outside" ]

# (d) README.md is an entry point, not the manual.
lines=$(wc -l < "$SRC/README.md")
check "README.md has at most 200 lines (has $lines)" [ "$lines" -le 200 ]

finish
