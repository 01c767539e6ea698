# Shared by the README's two commands: install what is missing, then build.
# Idempotent: packages already installed are not touched, the build is incremental.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_PACKAGES=(g++ make cmake git libbenchmark-dev libboost-program-options-dev
                nlohmann-json3-dev catch2)

# install_missing PACKAGE...: apt-get update and install only when something is missing.
install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
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
