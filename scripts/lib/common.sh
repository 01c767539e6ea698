# Shared by the README's two commands: install what is missing, then build.
# Idempotent: packages already installed are not touched, the build is incremental.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_PACKAGES=(g++ make cmake git libbenchmark-dev libboost-program-options-dev
                nlohmann-json3-dev catch2)
# What the tests use, and nothing else: the scripts that need more (fio for the cross-check,
# python3-scipy for statistics-table.py, btrfs-progs for a btrfs rig) say or install it.
# ansible-core, lintian, dpkg-dev (dpkg-shlibdeps) and file (CPack's ELF check): the
# package and fleet tests.
# clang-format: .ci/run's format check must not depend on it happening to be installed.
TEST_PACKAGES=(python3 python3-jsonschema libbenchmark-tools util-linux e2fsprogs xfsprogs
               python3-matplotlib clang-format ansible-core lintian dpkg-dev file)

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
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/alignbench-install.XXXXXX.log") || return 1
  install_step "$log" "apt-get update" "${sudo[@]}" apt-get update -q &&
    install_step "$log" "apt-get install" \
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" ||
    return 1
  rm -f "$log"
}

# install_step LOG WHAT COMMAND...: one line on stderr, the command's output in LOG.
install_step() {
  local log=$1 what=$2
  shift 2
  printf '  %s ... ' "$what" >&2
  if "$@" >>"$log" 2>&1 </dev/null; then
    echo "done" >&2
  else
    local status=$?
    echo "failed (exit $status); its output is in $log" >&2
    return "$status"
  fi
}

# build DIR [TARGET...]: configure (Release) and build into DIR.
build() {
  local dir=$1
  shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
}
