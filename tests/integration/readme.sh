# The README is true: every path and script it names exists (in code blocks and links
# too), every option its example commands use is one the command knows, every
# `alignbench ...` example runs when made small (the same options, with --dir a private
# directory and 4 writes of 4K in 6 blocks, so it measures for a second), and every
# paragraph that states a measured time is dated.
source "$(dirname "$0")/lib.sh"
SRC=$ALIGNBENCH_SOURCE_DIR
README=$SRC/README.md

"$ALIGNBENCH" --help > "$WORK/help.txt" || { echo "FAIL: alignbench --help" >&2; exit 1; }

# (a) Paths: every word that starts like a folder of the tree, or a link's target. What a
# run makes (results/runs/) and placeholders in capitals (HOST-TIME) are not in a tree.
missing=$("$PY" - "$SRC" "$README" <<'PY'
import os, re, sys
src, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
folders = r"(?:scripts|cases|docs|results|lib|bench|tests|cmake|packaging|fuzz|\.ci)"
paths = set(re.findall(r"(?<![\w./-])(%s/[\w./-]*)" % folders, text))
paths |= {t.split("#")[0] for t in re.findall(r"\]\(([^)]+)\)", text) if "://" not in t}
for path in sorted(p.rstrip(".,:;") for p in paths):
    if not path or path.startswith("results/runs/") or re.search(r"[A-Z]{3,}", path):
        continue
    if not os.path.exists(os.path.join(src, path)):
        print(path)
PY
)
check "every path the README names exists${missing:+: $missing}" [ -z "$missing" ]

# The example commands: code spans and the lines of code blocks whose first word is
# alignbench or a script, without their comments.
"$PY" - "$README" > "$WORK/commands" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
found = []
for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
    found += [line.split("#")[0].strip() for line in block.splitlines()]
found += re.findall(r"`((?:alignbench|scripts/)[^`]*)`", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M))
for command in found:
    if command.split() and (command.startswith("alignbench ") or command.startswith("scripts/")):
        print(command)
PY
check "the README has example commands" [ -s "$WORK/commands" ]

while read -r -a words; do
  command=${words[0]}
  case $command in
    scripts/*)
      check "$command: a script that runs" [ -x "$SRC/$command" ]
      # Its own options are in its usage; scripts/derby passes the others to alignbench.
      "$SRC/$command" --help > "$WORK/script-help.txt" 2> /dev/null
      for word in "${words[@]:1}"; do
        [[ $word == --* ]] || continue
        if grep -qF -- "$word" "$WORK/script-help.txt"; then
          continue
        fi
        check "${words[*]}: $word is an option of $command or of alignbench" \
          grep -qE -- "^  $word( |$)" "$WORK/help.txt"
      done
      ;;
  esac
  # alignbench and scripts/derby examples run, made small; derby's DIR is the private one,
  # and so is unit's (its operand, not --dir).
  case $command in
    alignbench | scripts/derby)
      args=()
      first=1 where=(--dir "$WORK")
      [ "$command" = scripts/derby ] && [[ ${words[1]:-} != -* ]] && first=2
      if [ "${words[1]:-}" = unit ]; then
        "$ALIGNBENCH" unit --help > "$WORK/help.txt"
        args=(unit) where=("$WORK") first=2
        [[ ${words[2]:-} != -* ]] && first=3
      fi
      for ((i = first; i < ${#words[@]}; i++)); do
        word=${words[i]}
        [[ $word == --* ]] && [ "$command" = alignbench ] &&
          check "${words[*]}: $word is in alignbench --help" \
            grep -qE -- "^  $word( |$)" "$WORK/help.txt"
        case $word in
          --dir | --out | --sizes | --writes | --repetitions | --budget) ((i++)) ;;  # replaced
          *) args+=("$word") ;;
        esac
      done
      run=("$ALIGNBENCH")
      [ "$command" = scripts/derby ] && run=(env "ALIGNBENCH=$ALIGNBENCH" "$SRC/scripts/derby")
      (cd "$SRC" && "${run[@]}" "${args[@]}" "${where[@]}" --sizes 4K --writes 4 \
        --repetitions 6 --out "$WORK/example.json" --force > "$WORK/example.out" \
        2> "$WORK/example.err")
      status=$?
      check "${words[*]}: runs made small (exit $status: $(head -n 1 "$WORK/example.err"))" \
        [ "$status" -eq 0 ]
      "$ALIGNBENCH" --help > "$WORK/help.txt"
      ;;
  esac
done < "$WORK/commands"

# The example table looks like a real one: its column header (the columns as wide as
# their cells: spaces squeezed) and its pointer to the rest as a run prints them by default.
header=$(grep -m 1 '^ *size |' "$WORK/example.out" | tr -s ' ' | sed 's/^ //')
check "the example run printed a table header" [ -n "$header" ]
# shellcheck disable=SC2016  # check evals it, with the values then
check "the README's table has the column header a run prints: $header" \
  eval '[ -n "$header" ] && tr -s " " < "$README" | sed "s/^ //" | grep -qxF -- "$header"'
pointer=$(grep -m 1 '^more: --details' "$WORK/example.out")
# shellcheck disable=SC2016  # check evals it, with the values then
check "the README's table has the pointer line a run prints: $pointer" \
  eval '[ -n "$pointer" ] && grep -qxF -- "$pointer" "$README"'

# (b) A paragraph that states a measured time (took 45 s, 15 minutes) says when.
undated=$("$PY" - "$README" <<'PY'
import re, sys
text = re.sub(r"^```.*?^```", "", open(sys.argv[1], encoding="utf-8").read(), flags=re.S | re.M)
for paragraph in text.split("\n\n"):
    if re.search(r"\b\d+(\.\d+)? ?(s|min|minutes|seconds|hours)\b", paragraph) \
            and not re.search(r"\b20\d\d-\d\d-\d\d\b", paragraph) \
            and re.search(r"\btook\b|\btakes\b|\babout\b|\bwall\b", paragraph):
        print(" ".join(paragraph.split())[:100])
PY
)
check "every measured time in the README is dated${undated:+: $undated}" [ -z "$undated" ]
finish
