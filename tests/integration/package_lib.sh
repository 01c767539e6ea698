# build_deb DIR: runs cpack -G DEB for the build tree $ALIGNBENCH_BUILD_DIR with DIR as
# its output directory and prints the path of the .deb; cpack's own output goes to
# DIR/cpack.log and to stderr on failure.
build_deb() {
  local dir=$1 deb
  mkdir -p "$dir"
  if ! cpack -G DEB --config "$ALIGNBENCH_BUILD_DIR/CPackConfig.cmake" -B "$dir" \
    > "$dir/cpack.log" 2>&1; then
    cat "$dir/cpack.log" >&2
    return 1
  fi
  deb=$(find "$dir" -maxdepth 1 -name 'alignbench_*.deb' -print -quit)
  [ -n "$deb" ] && echo "$deb"
}

# skip_sanitized: a sanitizer build is for finding bugs, not for shipping; its package
# would depend on libasan.
skip_sanitized() {
  [ -z "${ALIGNBENCH_SANITIZED:-}" ] ||
    skip "a sanitizer build is not packaged (the release build's run of this test covers it)"
}

# fleet_test_rig TOOL...: what a fleet test needs before it starts: a release build, root,
# loop devices and each TOOL on PATH; else it is skipped, saying which.
fleet_test_rig() {
  local tool
  skip_sanitized
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices (CI runs as root)"
  [ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
  for tool in "$@"; do
    command -v "$tool" > /dev/null ||
      skip "$tool missing (scripts/test installs it: scripts/lib/common.sh's package lists)"
  done
}
