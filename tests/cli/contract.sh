#!/usr/bin/env bash
# CLI contract test: runs alignbench once per row of contract.tsv (format at its top) and
# checks exit status, stderr and that no test file is left behind.
# Env: ALIGNBENCH (the binary), ALIGNBENCH_SOURCE_DIR (the source tree). Exit 77 = skipped.
set -u
bin=${ALIGNBENCH:-}
src=${ALIGNBENCH_SOURCE_DIR:-}
if [[ ! -x $bin || ! -d $src/tests/cli ]]; then
  echo "SKIP: set ALIGNBENCH to the binary and ALIGNBENCH_SOURCE_DIR to the source tree"
  exit 77
fi
here=$src/tests/cli
root=$(mktemp -d) || exit 2
child=
# On any exit: stop the running case (timeout passes the signal on), then remove the temp dirs.
cleanup() { [[ -n $child ]] && kill "$child" 2>/dev/null && wait "$child"; rm -rf "$root"; }
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

crash='terminate called|Aborted|Segmentation|what\(\):|Assertion|runtime error'
allowed="^(alignbench: error: .*|Try 'alignbench --help'\.|--- .*|measuring .*|result saved to .*)$"
passed=0 failed=0 lineno=0
shopt -s globstar dotglob nullglob
while IFS=$'\t' read -r want re args; do
  lineno=$((lineno + 1))
  [[ -z $want || $want == \#* ]] && continue
  tmp=$root/$lineno
  mkdir "$tmp"
  why=() argv=() as=() stdout=
  IFS=' ' read -ra words <<<"$args"
  for w in "${words[@]}"; do
    case $w in
      @STDOUT:FULL@) stdout=/dev/full; continue ;;
      @STDOUT:CLOSED@) stdout=closed; continue ;;
    esac
    while [[ $w =~ @FILE:([^@]+)@ ]]; do
      f=${BASH_REMATCH[1]}
      cp "$here/fixtures/$f" "$tmp/$f" || why+=("no fixture $f")
      w=${w//"@FILE:$f@"/$tmp/$f}
    done
    if [[ $w == *@RODIR@* ]]; then
      [[ -d $tmp/ro ]] || mkdir -m 555 "$tmp/ro"
      # root ignores permission bits: run this row as nobody
      if ((EUID == 0)); then chmod 755 "$root" "$tmp"; as=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
    fi
    w=${w//@TMP@/$tmp} w=${w//@SRC@/$src} w=${w//@RODIR@/$tmp/ro}
    [[ $w == @EMPTY@ ]] && w=
    argv+=("$w")
  done
  re=${re//@TMP@/$tmp}

  # ulimit: a runaway allocation must fail here, not take the machine down
  # (AddressSanitizer reserves terabytes of address space and has its own limit)
  (if [ -z "${ALIGNBENCH_SANITIZED:-}" ]; then ulimit -v 4000000; fi
   case $stdout in /dev/full) exec >/dev/full ;; closed) exec >&- ;; esac
   cd "$tmp" && exec timeout -k 2 10 "${as[@]}" "$bin" "${argv[@]}") \
    >"$root/$lineno.out" 2>"$root/$lineno.err" &
  child=$!
  wait "$child"
  got=$? child=
  err=$(<"$root/$lineno.err")

  [[ $got == "$want" ]] || why+=("exit $got, want $want")
  [[ $err =~ $re ]] || why+=("stderr does not match /$re/")
  [[ $err =~ $crash ]] && why+=("stderr has crash text '${BASH_REMATCH[0]}'")
  # The lines read by the shell itself: a grep or find per check and row was two thirds
  # of the test's time.
  mapfile -t lines <<<"$err"
  errors=0 usage_line='' stray=''
  for line in "${lines[@]}"; do
    [[ $line == 'alignbench: error: '* ]] && errors=$((errors + 1))
    [[ $line == "Try 'alignbench --help'." ]] && usage_line=1
    [[ -z $stray && -n $line && ! $line =~ $allowed ]] && stray=$line
  done
  if ((want == 0)); then
    ((errors == 0)) || why+=("error line on success")
  else
    ((errors == 1)) || why+=("$errors 'alignbench: error:' lines, want 1")
  fi
  if [[ -n $usage_line ]]; then
    ((want == 1)) || why+=("'Try --help' line on a non-usage exit")
  else
    ((want != 1)) || why+=("no 'Try --help' line")
  fi
  [[ -z $stray ]] || why+=("stray stderr line: $stray")
  left=("$tmp"/**/.alignbench-*)  # globstar, dotglob, nullglob: any depth, hidden too
  ((${#left[@]} == 0)) || why+=("left ${left[0]#"$tmp"/}")

  if ((${#why[@]} == 0)); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    first=$(grep -m1 "^alignbench: error: " <<<"$err" || grep -m1 . <<<"$err")
    msg=$(printf '%s; ' "${why[@]}")
    echo "FAIL contract.tsv:$lineno [$args]: ${msg%; } | stderr: ${first:-<empty>}"
  fi
done <"$here/contract.tsv"

echo "$passed passed, $failed failed"
((failed == 0))
