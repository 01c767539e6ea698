# The scripts' Python reads no module from where another user could plant one: not from
# PYTHONPATH, the user's site-packages or the working directory. A plant of each kind
# (sitecustomize.py, usercustomize.py, and json.py, shown.py, helper_args.py, which the
# helpers import) notes in a file that it was imported; the plant works on a plain
# python3, and nothing of it is imported by scripts/repeatability end to end (its helper
# through lib_python), nor by any Python program in scripts/ run by its shebang. And
# every line of shell in scripts/ that runs python3 runs it with -I, or -E -s and a path.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
PY_VERSION=$("$PY" -I -c 'import sys; print("%d.%d" % sys.version_info[:2])')

plant=$WORK/plant home=$WORK/home marker=$WORK/imported
user_site=$home/.local/lib/python$PY_VERSION/site-packages
mkdir -p "$plant" "$user_site"
for module in sitecustomize json shown helper_args; do
  printf 'open(%s, "a").write("%s\\n")\n' "'$marker'" "$module" > "$plant/$module.py"
done
printf 'open(%s, "a").write("usercustomize\\n")\n' "'$marker'" > "$user_site/usercustomize.py"
planted() { (cd "$plant" && PYTHONPATH=$plant HOME=$home "$@"); }
nothing_imported() { [ ! -s "$marker" ]; }

# The rig itself: each plant is imported by a plain python3, so that the checks below
# can fail.
planted env -u PYTHONPATH "$PY" -c 'import json' 2> /dev/null
check "the rig: a plain python3 -c imports json.py from the working directory" \
  grep -qx json "$marker"
rm -f "$marker"
(cd / && PYTHONPATH=$plant HOME=$home "$PY" "$SRC/scripts/lib/verdicts.py" --help) > /dev/null 2>&1
check "the rig: a plain python3 imports sitecustomize.py from PYTHONPATH" \
  grep -qx sitecustomize "$marker"
(cd / && HOME=$home "$PY" "$SRC/scripts/lib/verdicts.py" --help) > /dev/null 2>&1
check "the rig: a plain python3 imports usercustomize.py from the user's site" \
  grep -qx usercustomize "$marker"
rm -f "$marker"

# scripts/repeatability end to end, in a copy of the scripts (its results go under the
# copy), with a stand-in alignbench (ALIGNBENCH: nothing is built) that writes the result
# of the session its --out names: intervals [0, 2] and [3, 5], disjoint.
mkdir -p "$WORK/tree" "$WORK/sessions"
cp -r "$SRC/scripts" "$WORK/tree/"
for i in 1 2; do
  printf '{"alignbench": {"settings": {"precision_points": 5}, "pairs": [{"size_bytes": 4096,
    "sync": "fsync", "verdict": "no significant difference", "unaligned": {}, "aligned": {},
    "gain_interval_pct": {"low": %d, "high": %d}}]}}\n' $((3 * i - 3)) $((3 * i - 1)) \
    > "$WORK/sessions/session-$i.json"
done
cat > "$WORK/alignbench" << EOF
#!/bin/bash
while [ \$# -gt 1 ]; do [ "\$1" != --out ] || cp "$WORK/sessions/\${2##*/}" "\$2"; shift; done
EOF
chmod 755 "$WORK/alignbench"
planted env ALIGNBENCH="$WORK/alignbench" "$WORK/tree/scripts/repeatability" "$WORK" 2 \
  > "$WORK/repeatability.out" 2> "$WORK/repeatability.err"
check "scripts/repeatability under the plants: exit 0" [ $? -eq 0 ]
check "its helper counted the sessions' disjoint intervals" grep -q \
  "^all 1 pairs: 1 of 1 session pairs disjoint (100.0 %" "$WORK/repeatability.out"
check "scripts/repeatability imported nothing planted ($({ tr '\n' ' ' < "$marker"; } 2> /dev/null))" \
  nothing_imported
rm -f "$marker"

# Every Python program in scripts/, by its shebang.
programs=0
while IFS= read -r -d '' file; do
  head -n 1 -- "$file" | grep -q '^#!.*python' || continue
  programs=$((programs + 1))
  check "${file#"$SRC"/}: its shebang is #!/usr/bin/python3 -Es" \
    [ "$(head -n 1 -- "$file")" = "#!/usr/bin/python3 -Es" ]
  [ -x "$file" ] || continue
  planted "$file" --help > /dev/null 2>&1
  check "${file#"$SRC"/} --help: exit 0, nothing planted imported" [ $? -eq 0 ]
  check "${file#"$SRC"/} imported nothing planted" nothing_imported
  rm -f "$marker"
done < <(find "$SRC/scripts" -type f -print0 | sort -z)
check "found the Python programs ($programs)" [ "$programs" -ge 10 ]

# Every python3 that a line of shell in scripts/ runs (python3, or /usr/bin/python3, then
# an option, a path or a variable): with -I, or -E -s. install_missing's package names
# and messages are followed by neither.
while IFS= read -r -d '' file; do
  head -n 1 -- "$file" | grep -q '^#!.*python' && continue
  grep -nE '(^|[^-[:alnum:]_./])(/usr/bin/)?python3 +[-"$/]' -- "$file" |
    grep -vE 'python3 +(-I|-E -s) ' | sed "s|^|${file#"$SRC"/}:|"
done < <(find "$SRC/scripts" -type f ! -name '*.py' -print0) > "$WORK/unisolated.txt"
check "every python3 in the shell scripts runs with -I or -E -s" [ ! -s "$WORK/unisolated.txt" ]
sed 's/^/  /' "$WORK/unisolated.txt" >&2
[ "$failed" -eq 0 ] || cat "$WORK/repeatability.err" >&2
finish
