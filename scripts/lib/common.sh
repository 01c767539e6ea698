# Shared by the README's two commands: install what is missing, then build.
# Idempotent: packages already installed are not touched, the build is incremental.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_PACKAGES=(g++ make ninja-build cmake git libbenchmark-dev libboost-program-options-dev
                nlohmann-json3-dev catch2)
# What the tests use, and nothing else: the scripts that need more (fio for the cross-check,
# python3-scipy for statistics-table.py) say or install it. btrfs-progs: the btrfs rig test.
# ansible-core, lintian, dpkg-dev (dpkg-shlibdeps) and file (CPack's ELF check): the
# package and fleet tests.
# clang-format: .ci/run's format check must not depend on it happening to be installed.
# groff-base and man-db: the manual page is checked with groff and man, as lintian does.
# openssh-server, sudo, iproute2 and python3-apt: the SSH fleet test's hosts (their sshd, the
# user's become, their veth pairs, Ansible's apt module); install_missing starts no sshd.
# strace and sqlite3: `alignbench record` and its test, which records sqlite3.
# sshfs, fuse3 and openssh-client: scripts/netfs-rig's mount, its unmount and its sftp.
TEST_PACKAGES=(python3 python3-jsonschema libbenchmark-tools util-linux e2fsprogs xfsprogs
               python3-matplotlib clang-format ansible-core lintian dpkg-dev file groff-base
               man-db openssh-server sudo iproute2 python3-apt strace sqlite3 sshfs fuse3
               openssh-client btrfs-progs)

# The engine tier (tests/engines/, CTest label `engines`): the databases whose logs the
# cases model, as Debian 12 ships them (PostgreSQL 15, SQLite 3.40, RocksDB 7.8 with its
# headers for the test's client, MariaDB 10.11), and strace for their write patterns; and
# two programs no case models, for `alignbench record` (Redis 7, etcd 3.4 and its client).
ENGINE_PACKAGES=(postgresql-15 sqlite3 librocksdb-dev mariadb-server strace redis-server
                 etcd-server etcd-client)

# install_engines: ENGINE_PACKAGES, as root only (the tier needs root to run at all; a user
# is told what to run). Their services do not start: install_missing starts none.
install_engines() {
  if [ "$(id -u)" -ne 0 ]; then
    local pkg missing=()
    for pkg in "${ENGINE_PACKAGES[@]}"; do
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] ||
      echo "note: the engine tests need root and these packages; they skip (as root: apt-get install -y ${missing[*]})" >&2
    return 0
  fi
  install_missing "${ENGINE_PACKAGES[@]}"
}

# help_if_asked SCRIPT ARGS...: with -h or --help first, print SCRIPT's opening comment
# (its usage) and exit 0, before anything is installed, built or changed.
help_if_asked() {
  local script=$1
  shift
  case "${1:-}" in
    -h | --help)
      sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$script"
      exit 0
      ;;
  esac
}

# usage_error SCRIPT MESSAGE: a script's own wrong argument: the message, SCRIPT's usage
# line (the "#   scripts/..." line of its opening comment) and exit 1, before anything is
# installed, built or changed.
usage_error() {
  local script=$1
  shift
  echo "${script##*/}: error: $*" >&2
  sed -n '2,/^[^#]/{s/^#   *\(scripts\/.*\)/usage: \1/p}' "$script" | head -n 1 >&2
  exit 1
}

# split_args SCRIPT MAX MODE ARGS...: SCRIPT's positional arguments (at most MAX) into POS.
# MODE "pass": what follows "--" goes to alignbench, into REST; MODE "own": the script
# takes no "--". Any option before "--" is not the script's own and is refused.
split_args() {
  local script=$1 max=$2 mode=$3 hint=''
  shift 3
  POS=() REST=()
  [ "$mode" = pass ] && hint=" (alignbench's options go after --)"
  while [ $# -gt 0 ]; do
    case $1 in
      --) [ "$mode" = pass ] || usage_error "$script" "unknown option '--'"
        shift
        REST=("$@")
        break ;;
      -?*) usage_error "$script" "unknown option '$1'$hint" ;;
      *) POS+=("$1") ;;
    esac
    shift
  done
  [ "${#POS[@]}" -le "$max" ] || usage_error "$script" "at most $max arguments, got ${#POS[@]}$hint"
}

# check_runs SCRIPT RUNS, check_dir SCRIPT DIR, check_rate SCRIPT RATE: a script's own
# operands checked before it installs, builds or makes anything (usage_error if not):
# a count of at least 1, an existing directory, a rate of writes per second (--busy).
check_runs() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "$1" "RUNS wants a count >= 1, got '$2'"
}
check_dir() { [ -d "$2" ] || usage_error "$1" "no directory '$2'"; }
check_rate() {
  [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
    usage_error "$1" "--busy wants writes per second (a number >= 0), got '$2'"
}

# install_missing PACKAGE...: apt-get update and install only when something is missing.
# Without root and without sudo it says in one line what to do and fails. apt's and dpkg's
# output (hundreds of lines) goes to a log: one line per step here, the log's path on failure.
install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "error: missing Debian packages; run this as root, or as root first: apt-get install -y ${missing[*]}" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  echo "installing ${#missing[@]} missing packages: ${missing[*]}" >&2
  local log status=0 policy=/usr/sbin/policy-rc.d saved=''
  log=$(mktemp "${TMPDIR:-/tmp}/alignbench-install.XXXXXX.log") || return 1
  # No service is started by what is installed here (openssh-server would start the
  # machine's sshd, the engines their servers): a policy-rc.d that refuses every start
  # (invoke-rc.d and deb-systemd-invoke then start nothing), for the install only; the
  # machine's own policy-rc.d, if it has one, is put back after, also when the install is
  # interrupted (Ctrl-C, kill): a policy left behind would refuse every service start on
  # the machine from then on. The subshell's EXIT trap does it on every way out.
  if [ -e "$policy" ]; then
    saved=$(mktemp "${TMPDIR:-/tmp}/alignbench-policy-rc.d.XXXXXX") &&
      "${sudo[@]}" cp -p "$policy" "$saved" || return 1
  fi
  (
    restore_policy() {
      if [ -n "$saved" ]; then "${sudo[@]}" mv "$saved" "$policy"; else "${sudo[@]}" rm -f "$policy"; fi
    }
    trap restore_policy EXIT
    # Interrupted, the log names nothing on screen: it goes too.
    trap 'rm -f "$log"; exit 130' INT
    trap 'rm -f "$log"; exit 143' TERM
    trap 'rm -f "$log"; exit 129' HUP
    printf '#!/bin/sh\n# alignbench install_missing: no service starts while it installs\nexit 101\n' |
      "${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod 755 "$policy" || exit 1
    step "$log" "apt-get update" "${sudo[@]}" apt-get update -q &&
      step "$log" "apt-get install" \
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q -o APT::Status-Fd=1 "${missing[@]}"
  ) || status=$?
  [ "$status" -eq 0 ] || return 1
  rm -f "$log"
}

# seconds_since START: the whole seconds from START (an $EPOCHREALTIME) to now.
seconds_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }

# record_phase NAME START: NAME took the seconds since START; adds "NAME<TAB>SECONDS" to
# the file ALIGNBENCH_PHASES names, if any (.ci/run prints that file as its table).
record_phase() {
  [ -z "${ALIGNBENCH_PHASES:-}" ] ||
    printf '%s\t%s\n' "$1" "$(seconds_since "$2")" >> "$ALIGNBENCH_PHASES"
}

# timed NAME COMMAND...: runs COMMAND as the phase NAME (record_phase), whatever its status.
timed() {
  local name=$1 start=$EPOCHREALTIME status=0
  shift
  "$@" || status=$?
  record_phase "$name" "$start"
  return "$status"
}

# step LOG WHAT COMMAND...: one line on stderr for the whole step, with its seconds, the
# command's output in LOG. On a terminal the line counts what apt has set up so far
# ("12/40"). When the command fails, the line names LOG and the error lines from it
# follow, so the reason is on screen.
step() {
  local log=$1 what=$2 status=0 poller='' start=$EPOCHREALTIME
  shift 2
  printf '  %s ... ' "$what" >&2
  # The poller only reads the log: the command itself runs in the foreground, so that
  # Ctrl-C reaches it.
  [ -t 2 ] && { show_progress "$log" "$what" & poller=$!; }
  "$@" >>"$log" 2>&1 </dev/null || status=$?
  if [ -n "$poller" ]; then
    kill "$poller" 2>/dev/null || true
    wait "$poller" 2>/dev/null || true
    printf '\r  %s ... ' "$what" >&2
  fi
  if [ "$status" -eq 0 ]; then
    echo "done ($(seconds_since "$start") s)${poller:+            }" >&2
  else
    echo "failed (exit $status); its output is in $log" >&2
    # The reason, not the hundreds of lines before it: apt's "E:" lines, the compiler's and
    # CMake's errors; the log's last lines where there are none.
    local reason
    reason=$(grep -E '^E: |error|Error' "$log" | tail -n 20)
    [ -n "$reason" ] || reason=$(tail -n 10 "$log")
    printf '%s\n' "$reason" | sed 's/^/    /' >&2
    return "$status"
  fi
}

# progress_of LOG: how far a step is, from its log, in apt's and Ninja's own counts: apt's
# status lines (APT::Status-Fd) while it downloads ("downloading 34 %") and while dpkg
# unpacks and sets up ("installing 56 %"), Ninja's "[37/160]" ("37/160 compiled");
# nothing before the first of them.
progress_of() {
  local last
  last=$(grep -aoE '^(dlstatus|pmstatus):[^:]*:[0-9.]+|^\[[0-9]+/[0-9]+\]' "$1" | tail -n 1)
  case $last in
    dlstatus:*) printf 'downloading %.0f %%' "${last##*:}" ;;
    pmstatus:*) printf 'installing %.0f %%' "${last##*:}" ;;
    \[*) last=${last#[}; printf '%s compiled' "${last%]}" ;;
  esac
}

# show_progress LOG WHAT: every second, "WHAT ... <progress_of LOG>" in place. It ends
# with the script ($$ is the script's PID in this subshell too): a background job ignores
# Ctrl-C, so it must not outlive a script that Ctrl-C ended.
show_progress() {
  local now
  while sleep 1 && kill -0 "$$" 2>/dev/null; do
    now=$(progress_of "$1")
    [ -z "$now" ] || printf '\r  %s ... %s ' "$2" "$now" >&2
  done
}

# own_build_dir DIR: the build tree this user builds in: DIR, or DIR-USER beside it when
# DIR holds files this user cannot write (a root build of an older wrapper, or one that
# was interrupted before build() handed the tree over), with one line on stderr saying
# so. Root can write every tree: DIR.
own_build_dir() {
  local dir=$1 me foreign
  me=$(id -un)
  [ "$(id -u)" -ne 0 ] || { echo "$dir"; return 0; }
  foreign=$(find "$dir" -maxdepth 1 ! -writable -print -quit 2> /dev/null)
  if [ -z "$foreign" ]; then
    echo "$dir"
    return 0
  fi
  echo "note: ${dir#"$ROOT"/}/ belongs to $(stat -c %U "$foreign"), who built there;" \
    "this run builds in ${dir#"$ROOT"/}-$me/" >&2
  echo "$dir-$me"
}

# build DIR [TARGET...]: configure (Release, plus CMAKE_ARGS) and build into DIR, one line
# per phase on stderr; the compiler's output goes to DIR/build.log, shown only on failure.
CMAKE_ARGS=()
build() {
  local dir=$1
  shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  local rel=${dir#"$ROOT"/}/ generator=()
  # Ninja where it is installed (it is on this project's machines): it starts the next
  # compile as soon as a core is free and keeps each one's seconds in .ninja_log. A
  # directory configured before keeps its generator.
  [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja > /dev/null && generator=(-G Ninja)
  # A tree this user cannot write (root's, from before build() handed trees over): one
  # line that says so, not the shell's error (scripts/derby builds in a tree of its own
  # instead: own_build_dir).
  local path
  for path in "$dir" "$dir/build.log"; do
    if [ -e "$path" ] && [ ! -w "$path" ]; then
      echo "error: $rel belongs to $(stat -c %U "$path"), who built here first; remove it" \
        "as that user (rm -rf $dir) or run this as that user" >&2
      return 1
    fi
  done
  mkdir -p "$dir" && : >"$dir/build.log" || return 1
  local status=0
  timed "configure $rel" step "$dir/build.log" "cmake: configure $rel" \
    cmake -S "$ROOT" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${CMAKE_ARGS[@]}" &&
    timed "build $rel" step "$dir/build.log" "cmake: build ${targets:+${targets[*]:1} }in $rel" \
      cmake --build "$dir" -j"$(nproc)" "${targets[@]}" || status=$?
  # Root building a user's clone (the README's first hour on a fresh machine) builds on
  # the user's behalf: the tree goes to the clone's owner, who can then run and rebuild it.
  if [ "$(id -u)" -eq 0 ] && [ "$(stat -c %u "$ROOT")" -ne 0 ]; then
    chown -R --reference="$ROOT" "$dir"
  fi
  return "$status"
}
