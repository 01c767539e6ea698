# Fault injection over the scripts around the binary: every catchable signal whose default
# action ends a process, sent to scripts/cache-matrix, scripts/loop-rig create,
# scripts/plot and scripts/fleet/local at the start, the middle and the end of their work,
# and to loop-rig destroy before its teardown, must leave the disk's write cache restored,
# no child running (ansible-playbook, alignbench), and no rig, mount, state or temporary
# file behind; the script exits 128+N.
# Each signal meets the script at a known point: the script runs ALIGNBENCH_TEST_HOOK at
# its phases; cache-matrix's middle is an alignbench on PATH that waits before measuring,
# and fleet/local's is the alignbench of the package the play extracts, which waits
# under ansible-playbook. The hook waits on a FIFO until the script has been signalled and
# has exited.
# SAMPLE: signals per (script, phase): a number (default 1, CI), "all" (every signal:
# about 35 minutes), or a list of names ("QUIT,USR1") sent at every phase. SEED picks the sample (default: the day of the year, so CI covers
# other signals on other days); it is printed, to repeat a failing sample.
source "$(dirname "$0")/lib.sh"
S=$ALIGNBENCH_SOURCE_DIR/scripts
SAMPLE=${SAMPLE:-1}
SEED=${SEED:-$((10#$(date -u +%j)))}
[[ $SAMPLE == all || $SAMPLE =~ ^[1-9][0-9]*$ || $SAMPLE =~ ^[A-Z0-9+-]+(,[A-Z0-9+-]+)*$ ]] ||
  { echo "FAIL: SAMPLE must be a number, all, or signal names such as QUIT,USR1" >&2; exit 1; }
[[ $SEED =~ ^[0-9]+$ ]] || { echo "FAIL: SEED must be a number" >&2; exit 1; }
started_at=$SECONDS

# SIGNALS: all of them; SAMPLED: what a sample draws from, the 31 real-time signals stood
# for by their two ends, as they are handled alike.
SIGNALS=() SAMPLED=()
for s in $(compgen -A signal); do
  [[ $s == SIG* && $s != *"("* ]] || continue  # not SIGJUNK(32): a libc-reserved number
  case ${s#SIG} in KILL | STOP | CHLD | CONT | TSTP | TTIN | TTOU | URG | WINCH) continue ;; esac
  SIGNALS+=("${s#SIG}")
  case $s in *[+-]*) ;; *) SAMPLED+=("${s#SIG}") ;; esac
done

# ignored_on_entry (lib.sh): a signal this test's scripts ignore is not sent.
usable=()
for s in "${SIGNALS[@]}"; do
  if ignored_on_entry "$s"; then
    echo "NOTE: SIG$s was ignored when this test started (a background job?): not sent" >&2
  else
    usable+=("$s")
  fi
done
SIGNALS=("${usable[@]}")
# A signal to this test itself still removes its rigs and ends its runs: lib.sh's traps
# cover INT and TERM only.
for s in "${SIGNALS[@]}"; do
  # shellcheck disable=SC2064  # each trap's exit status is its own signal's, fixed now
  case $s in INT | TERM) ;; *) trap "exit $((128 + $(kill -l "$s")))" "$s" ;; esac
done
if [[ $SAMPLE == *[A-Z]* ]]; then
  IFS=, read -r -a named <<< "$SAMPLE"
  for sig in "${named[@]}"; do
    kill -l "$sig" > /dev/null 2>&1 || { echo "FAIL: SAMPLE: no signal named $sig" >&2; exit 1; }
  done
fi
usable=()
for s in "${SAMPLED[@]}"; do ignored_on_entry "$s" || usable+=("$s"); done
SAMPLED=("${usable[@]}")

# --- the rigs -------------------------------------------------------------------------------
make_rig --sector 4096 --fs ext4 --size 64M
disk=$(findmnt -no SOURCE "$RIG")
disk=${disk#/dev/}
WC=/sys/block/$disk/queue/write_cache
[ -w "$WC" ] || { echo "FAIL: no write_cache for '$disk' under $RIG" >&2; exit 1; }
STATE=/run/alignbench/cache-matrix-$disk.state
cleanup_hooks=("echo '$(cat "$WC")' > '$WC'" "rm -f '$STATE'" "${cleanup_hooks[@]}")
# Not the kernel's default, so that a run that "restores" the default is caught.
echo "write through" > "$WC"
LRBASE=$WORK/lr-base
mkdir "$LRBASE"
cleanup_hooks+=("for r in '$LRBASE'/alignbench-rig.*; do [ -e \"\$r\" ] && '$S/loop-rig' destroy \"\$r\"; done >/dev/null 2>&1")
PLOTTING=yes
"$PY" -c 'import matplotlib' 2> /dev/null || PLOTTING=no
if [ $PLOTTING = yes ]; then
  "$ALIGNBENCH" --sizes 4K --writes 8 --repetitions 2 --dir "$WORK" --out "$WORK/input.json" \
    > /dev/null 2>&1 || { echo "FAIL: no result file for plot" >&2; exit 1; }
else
  echo "SKIP (part): python3-matplotlib not installed: scripts/plot is not signalled" >&2
fi

FLEETING=yes
for tool in ansible-playbook dpkg-deb; do
  command -v $tool > /dev/null && continue
  echo "SKIP (part): $tool missing (Debian packages ansible-core, dpkg): scripts/fleet/local is not signalled" >&2
  FLEETING=no
done
if [ $FLEETING = yes ]; then
  # A package of a few lines, not cpack's: its alignbench pauses at the hook, then runs a
  # short measurement, so a whole play takes seconds.
  FLEET_TMP=$WORK/fleet-tmp
  mkdir -p "$FLEET_TMP" "$WORK/fake-deb/DEBIAN" "$WORK/fake-deb/usr/bin"
  printf '%s\n' "Package: alignbench" "Version: 0.0-test" "Architecture: all" \
    "Maintainer: test <test@example.invalid>" "Description: pauses, then runs alignbench" \
    > "$WORK/fake-deb/DEBIAN/control"
  cat > "$WORK/fake-deb/usr/bin/alignbench" << EOS
#!/bin/bash
"$WORK/hook" fleet-local measuring
exec "$ALIGNBENCH" "\$@" --sizes 4K --writes 8 --repetitions 2
EOS
  chmod 755 "$WORK/fake-deb/usr/bin/alignbench"
  dpkg-deb --root-owner-group -b "$WORK/fake-deb" "$WORK/fleet.deb" > /dev/null ||
    { echo "FAIL: dpkg-deb -b: no package for the play" >&2; exit 1; }
fi
# What a failed fleet run left: its rigs under its temporary directory, then the rest.
undo_fleet() {
  for r in "$FLEET_TMP"/*/alignbench-rig.*; do [ -e "$r" ] && "$S/loop-rig" destroy "$r"; done > /dev/null 2>&1
  rm -rf --one-file-system "${FLEET_TMP:?}"/* 2> /dev/null
  return 0
}
[ $FLEETING = yes ] && cleanup_hooks+=("undo_fleet")

# --- the pause -------------------------------------------------------------------------------
mkfifo "$WORK/gate"
cat > "$WORK/hook" << EOS
#!/bin/bash
# Pauses once, at the phase named in want; every other phase passes.
[ "\$1 \$2" = "\$(cat "$WORK/want" 2> /dev/null)" ] || exit 0
rm -f "$WORK/want"
echo \$\$ > "$WORK/hooked"
read -r _ < "$WORK/gate"
exit 0
EOS
cat > "$WORK/alignbench" << EOS
#!/bin/bash
case " \$* " in *" --out "*) "$WORK/hook" cache-matrix middle ;; esac
exec "$ALIGNBENCH" "\$@"
EOS
chmod +x "$WORK/hook" "$WORK/alignbench"
open_gate() { exec 3<> "$WORK/gate"; echo go >&3; exec 3>&-; }
# Whatever a failing run leaves blocked is released before the work directory goes.
cleanup_hooks=("pkill -KILL -f -- '$WORK/' 2> /dev/null; sleep 0.2" "${cleanup_hooks[@]}")

# Every process of a run has this test's work directory in its command line; pgrep leaves
# itself out, and this shell's own command line does not hold it.
no_run_left() { ! pgrep -f -- "$WORK/" > /dev/null; }

# --- one injection ---------------------------------------------------------------------------
# inject SCRIPT PHASE SIGNAL: the script paused at PHASE, SIGNAL sent to it, then its traces.
inject() {
  local script=$1 phase=$2 sig=$3 what="$1 $2 SIG$3" pid hooked='' status out before=$failed
  out=$WORK/out-$script-$phase-$sig
  if [ "$script" = loop-rig-destroy ]; then  # a rig to destroy
    VICTIM=$("$S/loop-rig" create --base "$LRBASE" --size 32M 2> "$out.create.err") ||
      { echo "FAIL: $what: no rig to destroy: $(tail -n1 "$out.create.err")" >&2; failed=$((failed + 1)); return; }
  fi
  rm -f "$WORK/hooked"
  echo "${script%-destroy} $phase" > "$WORK/want"  # destroy is loop-rig too
  # Job control: the script gets its own process group and keeps SIGINT and SIGQUIT, which
  # a background job of a non-interactive shell would start with ignored.
  set -m
  case $script in
    cache-matrix)
      ALIGNBENCH=$WORK/alignbench ALIGNBENCH_TEST_HOOK=$WORK/hook \
        "$S/cache-matrix" "$RIG" --out-dir "$out" -- --sizes 4K --writes 8 --repetitions 2 \
        > /dev/null 2> "$out.err" & ;;
    loop-rig)
      ALIGNBENCH_TEST_HOOK=$WORK/hook "$S/loop-rig" create --base "$LRBASE" --size 32M \
        > "$out.mount" 2> "$out.err" & ;;
    loop-rig-destroy)
      ALIGNBENCH_TEST_HOOK=$WORK/hook "$S/loop-rig" destroy "$VICTIM" > /dev/null 2> "$out.err" & ;;
    plot)
      mkdir -p "$out"
      ALIGNBENCH_TEST_HOOK=$WORK/hook "$S/plot" --out "$out/figure" --cdf-data "$out/cdf.tsv" \
        "$WORK/input.json" > /dev/null 2> "$out.err" & ;;
    fleet-local)
      TMPDIR=$FLEET_TMP ALIGNBENCH_TEST_HOOK=$WORK/hook \
        "$S/fleet/local" "$WORK/fleet.deb" "$ALIGNBENCH" "$out" > /dev/null 2> "$out.err" & ;;
  esac
  pid=$!
  set +m
  for _ in $(seq 600); do  # up to 60 s to reach the phase
    [ -s "$WORK/hooked" ] && { hooked=$(cat "$WORK/hooked"); break; }
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  check "$what: reached the phase" [ -n "$hooked" ]
  check "$what: the signal was sent" kill "-$sig" "$pid"
  for _ in $(seq 300); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2> /dev/null; then
    echo "FAIL: $what: still running 30 s after the signal" >&2
    failed=$((failed + 1))
    open_gate
    kill -KILL -- "-$pid" 2> /dev/null
  fi
  wait "$pid"
  status=$?
  check "$what: exit 128+$(kill -l "$sig") (got $status)" [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
  check "$what: the paused child ended with the script" [ ! -e "/proc/${hooked:-none}" ]
  # A child left blocked at the gate would now go on: give it the time to show.
  open_gate
  sleep 0.5
  check "$what: no process of the run is left" no_run_left
  case $script in
    cache-matrix)
      check "$what: write cache restored" [ "$(cat "$WC")" = "write through" ]
      check "$what: no state file left" bash -c "[ ! -e '$STATE' ] && [ ! -e '$STATE.tmp' ]"
      check "$what: no test file left on the disk" no_leftovers "$RIG"
      [ "$phase" = compared ] || check "$what: no result written after the signal" \
        [ -z "$(find "$out" -name '*.json' -print -quit 2> /dev/null)" ] ;;
    loop-rig | loop-rig-destroy)
      check "$what: no rig directory left" [ -z "$(ls -A "$LRBASE")" ]
      check "$what: no loop device left" bash -c "! losetup -a | grep -qF '$LRBASE/'"
      check "$what: no mount left" bash -c "! grep -qF '$LRBASE/' /proc/mounts" ;;
    plot)
      check "$what: no temporary file left" \
        [ -z "$(find "$out" -name '*.tmp-*' -print -quit)" ] ;;
    fleet-local)
      check "$what: no loop device left" bash -c "! losetup -a | grep -qF '$FLEET_TMP/'"
      check "$what: no mount left" bash -c "! grep -qF '$FLEET_TMP/' /proc/mounts"
      check "$what: no temporary file or directory left" [ -z "$(ls -A "$FLEET_TMP")" ] ;;
  esac
  [ "$failed" -eq "$before" ] || sed "s/^/    ($what) /" "$out.err" >&2
  # What a failed injection left is undone here, so the next one starts clean.
  if [ "$failed" -ne "$before" ]; then
    pkill -KILL -f -- "$WORK/" 2> /dev/null
    for r in "$LRBASE"/alignbench-rig.*; do [ -e "$r" ] && "$S/loop-rig" destroy "$r"; done > /dev/null 2>&1
    echo "write through" > "$WC"
    rm -f "$STATE" "$STATE.tmp"
    [ $FLEETING = yes ] && undo_fleet
  fi
  injections=$((injections + 1))
}

# --- the sample -------------------------------------------------------------------------------
RANDOM=$SEED
echo "SAMPLE=$SAMPLE SEED=$SEED (SAMPLE=all sends every signal; SEED=$SEED repeats this sample)"
scripts=(cache-matrix loop-rig loop-rig-destroy)
[ $PLOTTING = yes ] && scripts+=(plot)
[ $FLEETING = yes ] && scripts+=(fleet-local)
injections=0
for script in "${scripts[@]}"; do
  for phase in start middle end; do
    case $script:$phase in
      cache-matrix:start) p=switched-write-back ;; cache-matrix:middle) p=middle ;;
      cache-matrix:end) p=compared ;;
      loop-rig:start) p=start ;; loop-rig:middle) p=attached ;; loop-rig:end) p=mounted ;;
      # destroy has one pause, before its teardown, which it finishes before it exits.
      loop-rig-destroy:start) p=destroying ;; loop-rig-destroy:*) continue ;;
      plot:start) p=loaded ;; plot:middle) p=saving-png ;; plot:end) p=written ;;
      fleet-local:start) p=start ;; fleet-local:middle) p=measuring ;;
      fleet-local:end) p=played ;;
    esac
    if [ "$SAMPLE" = all ]; then
      chosen=("${SIGNALS[@]}")
    elif [[ $SAMPLE == *[A-Z]* ]]; then
      chosen=()
      IFS=, read -r -a named <<< "$SAMPLE"
      for sig in "${named[@]}"; do ignored_on_entry "$sig" || chosen+=("$sig"); done
    else
      chosen=()
      for _ in $(seq "$SAMPLE"); do chosen+=("${SAMPLED[RANDOM % ${#SAMPLED[@]}]}"); done
    fi
    # A phase left without a signal (every named one ignored on entry) would pass unseen.
    check "$script $p: at least one signal to send" [ ${#chosen[@]} -gt 0 ]
    for sig in "${chosen[@]}"; do inject "$script" "$p" "$sig"; done
  done
done
check "at least one injection ran" [ "$injections" -gt 0 ]
echo "$injections injections in $((SECONDS - started_at)) s"
finish
