# The manual page the build writes (build/packaging/alignbench.1, from lib/cli/man_page.cc):
# groff with every warning enabled has nothing to say about it, man-db renders it as
# lintian does (its warnings are lintian's groff-message), and the rendered page has
# every section, the usage line and every exit code of --help (docs.sh checks that it
# describes every option of every --help). Its compressed copy is the page itself,
# compressed without a name or time stamp (gzip -n), as Debian wants.
source "$(dirname "$0")/lib.sh"
: "${ALIGNBENCH_BUILD_DIR:?set ALIGNBENCH_BUILD_DIR to the build tree}"
page=$ALIGNBENCH_BUILD_DIR/packaging/alignbench.1

check "the build wrote $page" [ -s "$page" ]
[ -s "$page" ] || { finish; exit; }
command -v groff > /dev/null || skip "groff missing (Debian package groff-base)"
command -v man > /dev/null || skip "man missing (Debian package man-db)"

groff -man -ww -z "$page" > "$WORK/groff.txt" 2>&1
status=$?
check "groff -man -ww -z: exit 0 (got $status)" [ "$status" -eq 0 ]
check "groff -man -ww -z: no warning: $(head -n 3 "$WORK/groff.txt")" [ ! -s "$WORK/groff.txt" ]

# As lintian's manpages check runs it, at the width of a terminal.
LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" \
  > /dev/null 2> "$WORK/man.err"
check "man --warnings -l: no warning: $(head -n 3 "$WORK/man.err")" [ ! -s "$WORK/man.err" ]

MANWIDTH=200 man -l "$page" 2> /dev/null | col -bx > "$WORK/page.txt"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS SUBCOMMANDS "EXIT STATUS" FILES EXAMPLES \
  "SEE ALSO"; do
  check "man -l renders the section $section" grep -qx "$section" "$WORK/page.txt"
done
"$ALIGNBENCH" --help > "$WORK/help.txt" || { echo "FAIL: alignbench --help" >&2; exit 1; }
while read -r code; do
  check "exit code $code of --help is on the rendered page" grep -qE "^ +${code//+/\\+}( |$)" "$WORK/page.txt"
done < <(sed -n '/^Exit codes:/,$s/^  \([0-9+N]*\) .*/\1/p' "$WORK/help.txt")
sed 's/^ *//' "$WORK/page.txt" > "$WORK/page-trimmed.txt"
while read -r usage; do
  check "the synopsis shows the usage line '$usage' of --help" \
    grep -qxF -- "$usage" "$WORK/page-trimmed.txt"
done < <(sed -n '1,/^$/{s/^Usage: //;s/^ *//;/./p}' "$WORK/help.txt")

if [ -f "$page.gz" ]; then
  check "alignbench.1.gz is the page" cmp -s "$page" <(gzip -dc "$page.gz")
  # gzip -n: the header's MTIME field (bytes 5-8) is zero and no name is stored (FLG 0).
  check "alignbench.1.gz has no time stamp and no name (gzip -n)" \
    [ "$(od -An -tx1 -j3 -N5 "$page.gz" | tr -d ' ')" = 0000000000 ]
else
  check "the build wrote $page.gz" false
fi
finish
