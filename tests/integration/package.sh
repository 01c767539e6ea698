# The Debian package: cpack builds alignbench_<version>_<arch>.deb from this build tree,
# dpkg-deb -c lists the binary, the cases, the schema, the rig script, the manual page and
# the README, its Depends come from dpkg-shlibdeps (no -dev package, no compiler), the
# binary extracted from it finds a case by name and runs it, an unknown name lists where
# it looked, man renders the extracted page without a warning, and lintian reports no
# error and no warning.
source "$(dirname "$0")/lib.sh"

: "${ALIGNBENCH_BUILD_DIR:?set ALIGNBENCH_BUILD_DIR to the build tree}"
source "$ALIGNBENCH_SOURCE_DIR/tests/integration/package_lib.sh"
skip_sanitized
command -v cpack >/dev/null || skip "cpack missing (Debian package cmake)"
command -v dpkg-shlibdeps >/dev/null || skip "dpkg-shlibdeps missing (Debian package dpkg-dev)"
command -v lintian >/dev/null || skip "lintian missing (Debian package lintian)"

# build_deb DIR: the .deb of this build tree in DIR; prints its path.
deb=$(build_deb "$WORK/pkg") || { echo "FAIL: cpack -G DEB" >&2; exit 1; }
version=$(sed -n 's/^project(alignbench VERSION \([0-9.]*\).*/\1/p' "$ALIGNBENCH_SOURCE_DIR/CMakeLists.txt")
check "the package is named alignbench_<version>_<arch>.deb" \
  [ "$(basename "$deb")" = "alignbench_${version}_$(dpkg --print-architecture).deb" ]

dpkg-deb -c "$deb" | awk '{print $NF}' > "$WORK/contents.txt"
for path in ./usr/bin/alignbench ./usr/share/alignbench/cases/quick.json \
  ./usr/share/alignbench/cases/derby-2004.json \
  ./usr/share/alignbench/schema/alignbench-result.schema.json \
  ./usr/share/alignbench/scripts/loop-rig ./usr/share/alignbench/scripts/lib/common.sh \
  ./usr/share/doc/alignbench/copyright \
  ./usr/share/doc/alignbench/README.md ./usr/share/man/man1/alignbench.1.gz; do
  check "dpkg-deb -c lists $path" grep -qx "$path" "$WORK/contents.txt"
done
check "every case of the tree is in the package" bash -c "
  for c in '$ALIGNBENCH_SOURCE_DIR'/cases/*.json; do
    grep -qx \"./usr/share/alignbench/cases/\$(basename \"\$c\")\" '$WORK/contents.txt' || exit 1
  done"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
check "Depends names libc6 (from dpkg-shlibdeps)" grep -q "libc6" <<<"$depends"
check "Depends names Google Benchmark's library" grep -q "libbenchmark" <<<"$depends"
check "Depends needs no -dev package and no compiler" bash -c "! grep -Eq -- '-dev|g\+\+|gcc ' <<<'$depends'"

dpkg-deb -x "$deb" "$WORK/root"
mkdir "$WORK/run"
(cd "$WORK" && "$WORK/root/usr/bin/alignbench" --case quick --dir "$WORK/run" \
  --out "$WORK/quick.json" > "$WORK/quick.txt" 2> "$WORK/quick.err")
check "the extracted binary runs --case quick (found by name)" [ $? -eq 0 ]
[ -f "$WORK/quick.json" ] && check "it ran the quick case" \
  json_check "$WORK/quick.json" 'a["settings"]["case"]["name"] == "quick"' \
  'len(a["pairs"]) == 3'
check "no test file left behind" no_leftovers "$WORK/run"
# The packaged loop-rig finds what it sources beside it.
check "the extracted loop-rig runs (--help)" \
  bash -c "'$WORK/root/usr/share/alignbench/scripts/loop-rig' --help > /dev/null"

"$WORK/root/usr/bin/alignbench" --case no-such-case --dir "$WORK/run" > /dev/null 2> "$WORK/missing.err"
check "an unknown case name is a usage error (exit 1)" [ $? -eq 1 ]
check "it says where it looked" grep -q "share/alignbench/cases/no-such-case.json" "$WORK/missing.err"

check "the package's README is the tree's" cmp -s "$WORK/root/usr/share/doc/alignbench/README.md" \
  "$ALIGNBENCH_SOURCE_DIR/README.md"
# Every page the installed README and its docs link to is installed beside them.
doc=$WORK/root/usr/share/doc/alignbench
for page in "$doc"/*.md "$doc"/docs/*.md; do
  while read -r link; do
    check "${page#"$doc"/} links to $link, which is installed" [ -f "$(dirname "$page")/$link" ]
  done < <(grep -o '](\([^)#:]*\.md\)' "$page" | sed 's/^](//' | sort -u)
done
check "the installed docs hold the reference" [ -f "$doc/docs/reference.md" ]
man_page=$WORK/root/usr/share/man/man1/alignbench.1.gz
if command -v man > /dev/null; then
  # As lintian's manpages check runs it; man reads the .gz itself.
  LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$man_page" \
    > /dev/null 2> "$WORK/man.err"
  check "man --warnings -l on the packaged page: no warning: $(head -n 3 "$WORK/man.err")" \
    [ ! -s "$WORK/man.err" ]
  MANWIDTH=100 man -l "$man_page" 2> /dev/null | col -bx > "$WORK/man.txt"
  check "man -l renders the packaged page: its NAME line" \
    grep -qx " *alignbench - measure what unaligned synchronous writes cost" "$WORK/man.txt"
  check "... and its EXIT STATUS" grep -qx "EXIT STATUS" "$WORK/man.txt"
  check "... and names the installed cases" grep -q "/usr/share/alignbench/cases/" "$WORK/man.txt"
else
  echo "SKIP (part): man missing (Debian package man-db): the packaged page is not rendered" >&2
fi

lintian --tag-display-limit 0 "$deb" > "$WORK/lintian.txt" 2>&1
cat "$WORK/lintian.txt"
check "lintian reports no error" bash -c "! grep -q '^E:' '$WORK/lintian.txt'"
check "lintian reports no warning" bash -c "! grep -q '^W:' '$WORK/lintian.txt'"
check "lintian finds the manual page (no no-manual-page)" \
  bash -c "! grep -q 'no-manual-page' '$WORK/lintian.txt'"
finish
