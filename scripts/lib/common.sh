# Shared by the README's two commands: install what is missing, then build.
# Idempotent: packages already installed are not touched, the build is incremental.
# Shared by every script: a PATH without what another user could fill (trusted_path),
# names escaped for the terminal (shown), and stop signals acted on at once, with the long
# child ended first (on_stop, run_child).

# only_root_can_change DIR: DIR, an absolute path without symbolic links (realpath's),
# and every directory above it are directories of root's (a link among them fails), DIR
# may be written by root alone, and the directories above it by root alone unless sticky
# (/tmp, where nobody may rename another's entry): what DIR holds is root's, and DIR
# names the same directory for as long as root wants. The rule alignbench itself applies
# to its helpers (HelperProgram, lib/io/command.h).
only_root_can_change() {
  root_only_dirs "$1"
  [ "${#ROOT_ONLY[@]}" -eq 1 ]
}
# root_only_dirs DIR...: ROOT_ONLY, those DIRs that only root can change (as above), in
# their order. One stat for them all and every directory above them, not one each: a
# script's start judges a dozen, and each process it starts costs it time.
root_only_dirs() {
  local dir line chain=() lengths=() stats=() n k=0 i=0 uid mode type first ok IFS=$' \t\n'
  ROOT_ONLY=()
  for dir; do
    n=0
    if [[ $dir == /* ]]; then
      while chain+=("$dir") && n=$((n + 1)) && [ "$dir" != / ]; do
        dir=${dir%/*}
        dir=${dir:-/}
      done
    fi
    lengths+=("$n")
  done
  [ "${#chain[@]}" -gt 0 ] || return 0
  # A line per directory, in order, then "ok": a stat that failed (one gone meanwhile)
  # prints no line and no "ok", and then none is judged root's.
  mapfile -t stats < <(command -p stat -c '%u %a %F' -- "${chain[@]}" 2> /dev/null && echo ok)
  [ "${#stats[@]}" -eq $((${#chain[@]} + 1)) ] && [ "${stats[-1]}" = ok ] || return 0
  for dir; do
    n=${lengths[k]} k=$((k + 1)) first=1 ok=$((n > 0))
    for ((; n > 0; n--, i++)); do
      line=${stats[i]}
      uid=${line%% *} line=${line#* }
      mode=${line%% *} type=${line#* }
      [ "$uid" = 0 ] && [ "$type" = directory ] &&
        (( (8#$mode & 8#022) == 0 || (!first && (8#$mode & 8#1000) != 0) )) || ok=0
      first=0
    done
    [ "$ok" -eq 0 ] || ROOT_ONLY+=("$dir")
  done
}
# trusted_path DIRS: DIRS (a PATH) as the scripts use it: never a relative
# or empty entry (the working directory, where another user may have left a program called
# cmake or mount), each entry resolved once to the directory it names then (realpath), and
# kept so, once: a link in an entry, another user's among them, cannot later point it
# elsewhere. As root only the directories only root can change are kept. Set before
# anything else runs; until then only builtins and `command -p` (the system's own
# directories) find a program, also in the line of each script that sources this file.
trusted_path() {
  local entry dir rest=$1 absolute=() resolved=() kept=() seen=:
  while [ -n "$rest" ]; do
    entry=${rest%%:*}
    [[ $rest == *:* ]] && rest=${rest#*:} || rest=''
    [[ $entry != /* ]] || absolute+=("$entry")
  done
  # One realpath for every entry (-z: a name may hold a newline); one that does not
  # exist prints nothing and is dropped.
  [ "${#absolute[@]}" -eq 0 ] ||
    mapfile -t -d '' resolved < <(command -p realpath -z -e -- "${absolute[@]}" 2> /dev/null)
  for dir in ${resolved[@]+"${resolved[@]}"}; do
    { [ -d "$dir" ] && [[ $dir != *:* && $seen != *":$dir:"* ]]; } || continue
    seen+="$dir:"
    kept+=("$dir")
  done
  if [ "$EUID" -eq 0 ] && [ "${#kept[@]}" -gt 0 ]; then
    root_only_dirs "${kept[@]}"
    kept=(${ROOT_ONLY[@]+"${ROOT_ONLY[@]}"})
  fi
  local IFS=:
  echo "${kept[*]}"
}
PATH=$(trusted_path "$PATH")

# why_not_mine PATH KIND MASK [MAX]: nothing, and status 0, when PATH itself (a symbolic
# link is judged as a link, never followed) is a KIND ("directory", or "file": a regular
# one) of this user's with none of the MASK mode bits (022: nobody else may write it) and,
# given MAX, of at most MAX bytes. Else why not, in a few words ending in an errno
# symbol, and status 1. A file of root's in a directory that passes with 022 cannot be
# replaced by another user between this check and its use.
why_not_mine() {
  local path=$1 kind=$2 mask=$3 max=${4:-} uid user mode size type
  read -r uid user mode size < <(command -p stat -c '%u %U %f %s' -- "$path" 2> /dev/null) ||
    { echo "missing or unreadable (ENOENT)"; return 1; }
  mode=$((16#$mode))
  type=$(( mode >> 12 ))
  case $type in
    4) [ "$kind" = directory ] || { echo "a directory, not a regular file (EISDIR)"; return 1; } ;;
    8) [ "$kind" = file ] || { echo "a regular file, not a directory (ENOTDIR)"; return 1; } ;;
    10) echo "a symbolic link (ELOOP)"; return 1 ;;
    *) echo "neither a regular file nor a directory, but a FIFO, socket or device (EINVAL)"
       return 1 ;;
  esac
  [ "$uid" = "$EUID" ] || { echo "owned by $user (uid $uid), not by uid $EUID (EPERM)"; return 1; }
  (( (mode & 8#$mask) == 0 )) ||
    { printf 'of mode %04o, where group and others may have none of %04o (EPERM)\n' \
        $((mode & 8#7777)) $((8#$mask)); return 1; }
  [ -z "$max" ] || [ "$kind" != file ] || [ "$size" -le "$max" ] ||
    { echo "$size bytes long, more than the $max expected (EFBIG)"; return 1; }
}

# read_env_file FILE KEY...: each KEY set to its value in FILE's KEY=VALUE lines (split
# at the first '='; a KEY FILE lacks is set empty), where FILE and its directory are this
# user's (why_not_mine, 022) and FILE is at most 4096 bytes: parsed, never sourced. A line
# that is not NAME=VALUE is skipped, and one line on stderr names FILE. Status 1 when FILE
# is missing (ENV_WHY empty) or fails a check (ENV_WHY: "PATH: why"; nothing is read).
ENV_WHY=''
read_env_file() {
  local _file=$1 _line _k _bad=0
  shift
  for _k; do printf -v "$_k" '%s' ''; done
  ENV_WHY=''
  [[ -e $_file || -L $_file ]] || return 1
  ENV_WHY=$(why_not_mine "${_file%/*}" directory 022) ||
    { ENV_WHY="${_file%/*}: $ENV_WHY"; return 1; }
  ENV_WHY=$(why_not_mine "$_file" file 022 4096) || { ENV_WHY="$_file: $ENV_WHY"; return 1; }
  while IFS= read -r _line || [ -n "$_line" ]; do
    _k=${_line%%=*}
    if [[ $_line != *=* || ! $_k =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
      [ -z "$_line" ] || _bad=$((_bad + 1))
    elif [[ " $* " == *" $_k "* ]]; then
      printf -v "$_k" '%s' "${_line#*=}"
    fi
  done < <(command -p head -c 4096 -- "$_file")
  [ "$_bad" -eq 0 ] || echo "${PROG:-${0##*/}}: warning: $(shown "skipped $_bad line(s) of $_file" \
    "that are not KEY=VALUE")" >&2
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# lib_python HELPER ARGS...: scripts/lib/HELPER (a Python file) run with ARGS by python3
# -E -s: no PYTHON* variable counts (PYTHONPATH, PYTHONHOME, PYTHONSTARTUP...) and no
# user site-packages, so that no module or sitecustomize.py that another user left there
# is imported, least of all by root. Run by its path, a helper has its own folder first
# on sys.path (this file's, which the script already trusts), never the working
# directory. Python given as -c or on standard input puts the working directory first
# instead: the few lines that stay inline run with -I (isolated: no working directory).
lib_python() { python3 -E -s "$ROOT/scripts/lib/$1" "${@:2}"; }

# shellcheck disable=SC2034  # for the scripts that source this file, as the next two
BUILD_PACKAGES=(g++ make ninja-build cmake git pkg-config libbenchmark-dev
                libboost-program-options-dev nlohmann-json3-dev catch2 liburing-dev)
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
# fdisk: sfdisk, for the partition at sector 1 of the stack units test.
# ShellCheck: the test that holds every shell script to it (shellcheck.sh).
# shellcheck disable=SC2034
TEST_PACKAGES=(python3 python3-jsonschema libbenchmark-tools util-linux e2fsprogs xfsprogs
               python3-matplotlib clang-format ansible-core lintian dpkg-dev file groff-base
               man-db openssh-server sudo iproute2 python3-apt strace sqlite3 sshfs fuse3
               openssh-client btrfs-progs fdisk shellcheck)

# The engine tier (tests/engines/, CTest label `engines`): the databases whose logs the
# cases model, as Debian 12 ships them (PostgreSQL 15, SQLite 3.40, RocksDB 7.8 with its
# headers for the test's client, MariaDB 10.11), and strace for their write patterns; and
# programs no case models, for `alignbench record` (Redis 7, etcd 3.4 and its client, and
# LMDB 0.9 and LevelDB 1.23 through Python's bindings: tests/engines/record_journals.sh;
# Samba's tdb through tdbtool: tests/engines/record_tdb.sh; Berkeley DB 5.3 through
# Python's bindings: tests/engines/record_bdb.sh).
ENGINE_PACKAGES=(postgresql-15 sqlite3 librocksdb-dev mariadb-server strace redis-server
                 etcd-server etcd-client python3-lmdb python3-plyvel tdb-tools
                 python3-bsddb3)

# shown TEXT...: TEXT (the words joined by spaces) as it may go to a terminal, escaped as
# alignbench escapes what it prints (EscapeControl in lib/base/error.cc): C0 controls and
# DEL become \n, \r, \t or \xNN; C1 controls, the bidirectional controls and the line and
# paragraph separators become \uXXXX; a byte that is not part of valid UTF-8 becomes \xNN;
# everything else, backslashes included, stays, so escaping twice changes nothing. No
# newline is added. Without TEXT, each line of standard input, escaped, one per line.
# Every path, directory, file, host or user-given name a script prints goes through it: a
# name another user made can hold a terminal's escape sequence or forge a line.
# perl is Essential in Debian; -C0: bytes in, bytes out, whatever PERL_UNICODE says.
shown() {
  # shellcheck disable=SC2016  # a perl program, with perl's $ variables
  local program='
    my $utf8 = qr/[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]
      |[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]
      |\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}/x;
    my %c0 = ("\n" => "\\n", "\r" => "\\r", "\t" => "\\t");
    sub hidden {
      my $u = my $c = shift;
      utf8::decode($u);
      my $cp = ord $u;
      return $c unless ($cp >= 0x80 && $cp <= 0x9f) || $cp == 0x200e || $cp == 0x200f
        || ($cp >= 0x202a && $cp <= 0x202e) || ($cp >= 0x2066 && $cp <= 0x2069)
        || $cp == 0x061c || $cp == 0x2028 || $cp == 0x2029;
      return sprintf "\\u%04x", $cp;
    }
    sub esc {
      my $s = shift;
      $s =~ s{($utf8)|([\x00-\x1f\x7f])|([\x80-\xff])}{
        defined $1 ? hidden($1) : defined $2 ? ($c0{$2} // sprintf "\\x%02x", ord $2)
                   : sprintf "\\x%02x", ord $3}ge;
      return $s;
    }
    if (@ARGV) { print esc(join " ", @ARGV); exit }
    while (my $line = <STDIN>) { my $end = $line =~ s/\n\z//; print esc($line), $end ? "\n" : "" }'
  if [ $# -gt 0 ]; then perl -C0 -e "$program" -- "$@"; else perl -C0 -e "$program"; fi
}

# result_path PATH: a path that is a script's result, alone on a line of standard output:
# as it is where a program reads it, escaped (shown) on a terminal, where a person does.
result_path() {
  if [ -t 1 ]; then shown "$1"; echo; else printf '%s\n' "$1"; fi
}

# --- Stop signals -----------------------------------------------------------------------
# bash runs a trap only once the foreground command has ended: a script that ran
# alignbench, ctest or apt-get in the foreground would act on SIGTERM only when that ended,
# and a Ctrl-C that the child took for its own let the script go on. So a script calls
# on_stop once, and runs each long child with run_child: a background job that the script
# waits for, which a trap can end at once. A background job of a non-interactive shell
# ignores SIGINT and SIGQUIT: SIGTERM is what ends it.

CHILD='' CHILD_IN_BACKGROUND='' STOP_CLEANUP='' STOP_SIGNAL=''
# setpriv --pdeathsig: after SIGKILL of the script, which no trap sees, the kernel still
# ends a child that is a program (setpriv cannot run a shell function).
CHILD_PDEATH=()
setpriv --pdeathsig TERM true > /dev/null 2>&1 && CHILD_PDEATH=(setpriv --pdeathsig TERM)

# run_child [--out FILE] [--log FILE] COMMAND...: runs COMMAND (a program or a shell
# function) with the script's standard input, its standard output to FILE (--out) or both
# its outputs added to FILE (--log), and returns its status. After on_stop (or with
# CHILD_IN_BACKGROUND set by a script with traps of its own), as a background job kept in
# CHILD and waited for, that stop_child ends; before, in the foreground, as always.
# Redirect with --out and --log, not around the call: a trap that runs meanwhile would
# write there too.
# shellcheck disable=SC2034  # file and run: read by the command lines it evals
run_child() {
  local io='<&0' file='' rc=0 run=()
  # shellcheck disable=SC2016  # redirections for the evals below, of $file then
  while :; do
    case $1 in
      --out) file=$2 io='<&0 >"$file"'; shift 2 ;;
      --log) file=$2 io='<&0 >>"$file" 2>&1'; shift 2 ;;
      *) break ;;
    esac
  done
  if [ -z "$CHILD_IN_BACKGROUND" ]; then
    eval '"$@" '"$io"
    return
  fi
  [ "$(type -t "$1")" != file ] || run=(${CHILD_PDEATH[@]+"${CHILD_PDEATH[@]}"})
  eval '${run[@]+"${run[@]}"} "$@" '"$io"' &'
  CHILD=$!
  # A trap that returns (it did not end the script) cuts a wait short: wait again.
  while :; do
    rc=0
    wait "$CHILD" || rc=$?
    { [ "$rc" -gt 128 ] && [ -e "/proc/$CHILD" ]; } || break
  done
  CHILD=''
  return "$rc"
}

# descendants PID: the processes under PID, deepest first.
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2> /dev/null); do descendants "$c"; echo "$c"; done
}

# still_running PID: the process exists and is not a zombie (one that has ended holds
# nothing any more).
still_running() {
  local stat
  { read -r stat < "/proc/$1/stat"; } 2> /dev/null || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

# stop_child: the running child (run_child) and every process under it get SIGTERM (on
# which alignbench removes its test file) and are waited for, up to 10 s: the child until
# it has ended, the others until they are gone (reaped by their parent, or by init once
# orphaned: one that has ended holds nothing, but is listed until then). What still runs
# then gets SIGKILL and is waited for. Listed before any is signalled, as the orphans of a
# child that ended would no longer be found under it.
stop_child() {
  [ -n "$CHILD" ] || return 0
  local child=$CHILD others=() pid i
  CHILD=''
  for pid in $(descendants "$child"); do still_running "$pid" && others+=("$pid"); done
  kill -TERM "$child" ${others[@]+"${others[@]}"} 2> /dev/null || true
  for ((i = 0; i < 100; i++)); do
    if ! still_running "$child" && ! listed ${others[@]+"${others[@]}"}; then break; fi
    sleep 0.1
  done
  for pid in "$child" ${others[@]+"${others[@]}"}; do
    still_running "$pid" && kill -KILL "$pid" 2> /dev/null
    while still_running "$pid"; do sleep 0.1; done
  done
  wait "$child" 2> /dev/null || true
}
# listed PID...: one of them is still in /proc.
listed() {
  local pid
  for pid; do [ -e "/proc/$pid" ] && return 0; done
  return 1
}

# on_stop CLEANUP: how the script ends from here on. On SIGINT, SIGTERM or SIGHUP it ends
# at once with status 128+N (STOP_SIGNAL holds N meanwhile). On every exit, that one
# included, the running child is stopped (stop_child), then CLEANUP (a command, or '')
# runs and the trees build() made go to the clone's owner (hand_over), with those signals
# ignored, so that a second one cannot cut them short. A signal ignored when the script
# started (nohup) stays ignored. run_child runs its command in the background from here on.
on_stop() {
  STOP_CLEANUP=$1 CHILD_IN_BACKGROUND=1
  trap stop_exit EXIT
  trap 'stop_signal 1' HUP
  trap 'stop_signal 2' INT
  trap 'stop_signal 15' TERM
}
stop_signal() {
  trap '' HUP INT TERM
  # shellcheck disable=SC2034  # read by the cleanup, which on_stop's caller wrote
  STOP_SIGNAL=$1
  exit $((128 + $1))
}
stop_exit() {
  local status=$?
  trap '' HUP INT TERM
  stop_child
  eval "$STOP_CLEANUP" || true
  hand_over ${BUILT[@]+"${BUILT[@]}"}
  exit "$status"
}

# --- Every fatal signal -------------------------------------------------------------------
# What a script that must undo what it made (a rig, a switched write cache) traps beyond
# on_stop's three: left to its default action, a closed terminal (HUP), a timer (ALRM) or a
# limit (XCPU) would leave it made.

# FATAL: every signal whose default action ends the process, by name without SIG: not
# KILL and STOP, which no trap sees, nor those whose default is to ignore or stop.
FATAL=()
fatal_signals() {
  local s
  for s in $(compgen -A signal); do
    [[ $s == SIG* && $s != *"("* ]] || continue  # not SIGJUNK(32): a libc-reserved number
    case ${s#SIG} in KILL|STOP|CHLD|CONT|TSTP|TTIN|TTOU|URG|WINCH) continue ;; esac
    FATAL+=("${s#SIG}")
  done
}
fatal_signals
# on_fatal COMMAND: each fatal signal N runs "COMMAND N" (its number).
on_fatal() {
  local s
  # The number goes into the trap as it is now: that is the point.
  # shellcheck disable=SC2064
  for s in "${FATAL[@]}"; do trap "$1 $(kill -l "$s")" "$s"; done
}
# ignore_fatal: every fatal signal ignored from here on: a second one must not cut a
# cleanup short.
ignore_fatal() { trap '' "${FATAL[@]}"; }
# note_fatal N: signal N noted in PENDING, the first one kept (on_fatal note_fatal): for
# what must not be cut short, which then acts on PENDING once it is done.
PENDING=''
note_fatal() { PENDING=${PENDING:-$1}; }

# hook PHASE: a test's pause point. ALIGNBENCH_TEST_HOOK, when set, is run with the
# script's name (PROG) and PHASE, and may block as long as the test wants. In the
# background and waited for once, so that a signal is acted on at once (and a trap that
# returns, as a rig's destroy's does, goes on past it); kept in CHILD meanwhile, so that
# stop_child (or a rig's stop_children) ends it with the rest.
hook() {
  [[ -n ${ALIGNBENCH_TEST_HOOK:-} ]] || return 0
  ${CHILD_PDEATH[@]+"${CHILD_PDEATH[@]}"} "$ALIGNBENCH_TEST_HOOK" "$PROG" "$1" &
  CHILD=$!
  wait "$CHILD" || true
  CHILD=''
}

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
  printf '%s\n' "$(shown "${script##*/}: error: $*")" >&2
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
  # the machine from then on. install_quietly's subshell does it on every way out.
  if [ -e "$policy" ]; then
    saved=$(mktemp "${TMPDIR:-/tmp}/alignbench-policy-rc.d.XXXXXX") &&
      "${sudo[@]}" cp -p "$policy" "$saved" || return 1
  fi
  run_child install_quietly || status=$?
  [ "$status" -eq 0 ] || return 1
  rm -f "$log"
}
# install_quietly: install_missing's apt-get steps (with its locals), in a subshell whose
# EXIT trap puts the machine's policy-rc.d back; a stop signal ends apt-get first, and
# removes the log, which then names nothing on screen.
install_quietly() (
  # shellcheck disable=SC2317  # run by name, by the cleanup on_stop was given
  restore_policy() {
    if [ -n "$saved" ]; then "${sudo[@]}" mv "$saved" "$policy"; else "${sudo[@]}" rm -f "$policy"; fi
  }
  # shellcheck disable=SC2016  # on_stop runs it when the script ends, with the values then
  on_stop 'restore_policy; [ -z "$STOP_SIGNAL" ] || rm -f "$log"'
  printf '#!/bin/sh\n# alignbench install_missing: no service starts while it installs\nexit 101\n' |
    "${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod 755 "$policy" || exit 1
  step "$log" "apt-get update" "${sudo[@]}" apt-get update -q &&
    step "$log" "apt-get install" \
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q -o APT::Status-Fd=1 "${missing[@]}"
)

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
  local log=$1 what status=0 poller='' start=$EPOCHREALTIME
  what=$(shown "$2")
  shift 2
  printf '  %s ... ' "$what" >&2
  # The poller only reads the log. The command is a child that a stop signal ends at once
  # (run_child), a Ctrl-C too.
  [ -t 2 ] && { show_progress "$log" "$what" & poller=$!; }
  run_child --log "$log" "$@" < /dev/null || status=$?
  if [ -n "$poller" ]; then
    kill "$poller" 2>/dev/null || true
    wait "$poller" 2>/dev/null || true
    printf '\r  %s ... ' "$what" >&2
  fi
  if [ "$status" -eq 0 ]; then
    echo "done ($(seconds_since "$start") s)${poller:+            }" >&2
  else
    echo "failed (exit $status); its output is in $(shown "$log")" >&2
    # The reason, not the hundreds of lines before it: apt's "E:" lines, the compiler's and
    # CMake's errors; the log's last lines where there are none.
    local reason
    reason=$(grep -E '^E: |error|Error' "$log" | tail -n 20)
    [ -n "$reason" ] || reason=$(tail -n 10 "$log")
    printf '%s\n' "$reason" | shown | sed 's/^/    /' >&2
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
  # A symbolic link is judged by itself, not by what it names (a test's link to a file
  # of root's outside the tree leaves the tree the user's).
  foreign=$(find "$dir" -maxdepth 1 ! -type l ! -writable -print -quit 2> /dev/null)
  if [ -z "$foreign" ]; then
    echo "$dir"
    return 0
  fi
  printf '%s\n' "$(shown "note: ${dir#"$ROOT"/}/ belongs to $(stat -c %U "$foreign"), who built there;" \
    "this run builds in ${dir#"$ROOT"/}-$me/")" >&2
  echo "$dir-$me"
}

# build DIR [TARGET...]: configure (Release, plus CMAKE_ARGS) and build into DIR, one line
# per phase on stderr; the compiler's output goes to DIR/build.log, shown only on failure.
# With ALIGNBENCH_WERROR=ON in the environment (CI's), every warning is an error.
CMAKE_ARGS=() BUILT=()
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
      printf '%s\n' "$(shown "error: $rel belongs to $(stat -c %U "$path"), who built here first;" \
        "remove it as that user (rm -rf $dir) or run this as that user")" >&2
      return 1
    fi
  done
  # Handed over also when the script ends (stop_exit): a signal can cut the build short,
  # and what runs in the tree after it (scripts/test's tiers, cpack) writes there as root.
  BUILT+=("$dir")
  mkdir -p "$dir" && : >"$dir/build.log" || return 1
  local status=0
  # In batches (ALIGNBENCH_UNITY, CMakeLists.txt): a build from scratch is what this is for.
  timed "configure $rel" step "$dir/build.log" "cmake: configure $rel" \
    cmake -S "$ROOT" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      "-DALIGNBENCH_WERROR=${ALIGNBENCH_WERROR:-OFF}" -DALIGNBENCH_UNITY=ON "${CMAKE_ARGS[@]}" &&
    timed "build $rel" step "$dir/build.log" "cmake: build ${targets:+${targets[*]:1} }in $rel" \
      cmake --build "$dir" -j"$(nproc)" "${targets[@]}" || status=$?
  hand_over "$dir"
  return "$status"
}

# hand_over DIR...: root working in a user's clone (the README's first hour on a fresh
# machine) works on the user's behalf: what root made in DIR goes to the clone's owner,
# who can then run, test and rebuild there, and whose own_build_dir then picks DIR. Only
# what is not the owner's already changes; a symbolic link changes itself, never what it
# names, and find stays off any filesystem mounted inside DIR: nothing outside the tree
# changes hands. In a clone of root's nothing changes. Never fails: it runs on the way out.
hand_over() {
  local uid gid dir
  [ "$EUID" -eq 0 ] && read -r uid gid < <(stat -c '%u %g' "$ROOT") && [ "$uid" -ne 0 ] ||
    return 0
  for dir; do
    [ -d "$dir" ] || continue
    find "$dir" -xdev \( ! -user "$uid" -o ! -group "$gid" \) \
      -exec chown -h "$uid:$gid" -- {} + || true
  done
}

# hand_over_results DIR: a result directory root made in the clone's results/runs/ goes to
# the clone's owner as the build trees do (hand_over), and results/runs/ itself, so that
# the owner's next run saves beside it; a directory given elsewhere (--out-dir) stays as
# it is. Never fails: it runs on the way out.
hand_over_results() {
  case $1 in
    "$ROOT"/results/runs/?*) hand_over "$ROOT/results/runs" ;;
  esac
  return 0
}
