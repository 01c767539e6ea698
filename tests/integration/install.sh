# The README commands' package step (scripts/lib/common.sh install_missing):
# without root and without sudo it stops with one line saying what to do, never at
# "sudo: command not found"; as root apt's and dpkg's output goes to a log, one line per
# step is printed, and a failed step names its log and shows the reason from it; no service
# starts while it installs (policy-rc.d). apt-get is a stub: nothing is installed.
source "$(dirname "$0")/lib.sh"
COMMON="$ALIGNBENCH_SOURCE_DIR/scripts/lib/common.sh"
fake=alignbench-test-no-such-package

# A PATH with everything of /usr/bin and /usr/sbin but sudo.
chmod 755 "$WORK"
mkdir "$WORK/bin"
for tool in /usr/bin/* /usr/sbin/*; do
  name=${tool##*/}
  [ "$name" = sudo ] || [ -e "$WORK/bin/$name" ] || ln -s "$tool" "$WORK/bin/$name"
done

# (a) not root, no sudo
if [ "$(id -u)" -eq 0 ]; then
  as_user() { runuser -u nobody -- "$@"; }
else
  as_user() { "$@"; }
fi
# shellcheck disable=SC2016  # $1 and $2 are the inner bash's
as_user env -i PATH="$WORK/bin" HOME=/ TMPDIR="$WORK" \
  bash -c 'set -euo pipefail; source "$1"; install_missing bash "$2"; echo "went on"' \
  _ "$(for_nobody "$COMMON")" "$fake" > "$WORK/a.out" 2> "$WORK/a.err"
status=$?
check "(a) no root, no sudo: non-zero exit (got $status)" [ "$status" -ne 0 ]
check "(a) stops: nothing after it ran" [ ! -s "$WORK/a.out" ]
check "(a) one line" [ "$(wc -l < "$WORK/a.err")" -eq 1 ]
check "(a) says to run as root or the exact apt-get line" \
  grep -qx "error: missing Debian packages; run this as root, or as root first: apt-get install -y $fake" "$WORK/a.err"
check "(a) no sudo attempted" bash -c "! grep -q sudo '$WORK/a.err'"
[ "$failed" -eq 0 ] || cat "$WORK/a.err" >&2

# (e) a build tree another user made (root ran the README's command first in the user's
# clone): one line naming its owner and what to do, not the shell's "Permission denied".
if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$WORK/tree/build" && : > "$WORK/tree/build/build.log"
  chmod 755 "$WORK/tree" "$WORK/tree/build"
  # shellcheck disable=SC2016  # $1 and $2 are the inner bash's
  as_user env -i PATH=/usr/bin:/bin HOME=/ \
    bash -c 'source "$1"; ROOT=$2; build "$2/build" || exit; echo "went on"' \
    _ "$(for_nobody "$COMMON")" "$WORK/tree" > "$WORK/e.out" 2> "$WORK/e.err"
  status=$?
  check "(e) root's build tree, as a user: non-zero exit (got $status)" [ "$status" -ne 0 ]
  check "(e) stops: nothing after it ran" [ ! -s "$WORK/e.out" ]
  check "(e) one line naming the owner and what to do" \
    grep -qx "error: build/ belongs to root, who built here first; remove it as that user (rm -rf $WORK/tree/build) or run this as that user" "$WORK/e.err"
  check "(e) and nothing else" [ "$(wc -l < "$WORK/e.err")" -eq 1 ]
  [ "$failed" -eq 0 ] || cat "$WORK/e.err" >&2
fi

# The progress shown on a terminal during a long step, in apt's and Ninja's own counts.
progress() { printf '%b' "$1" > "$WORK/progress.log"; bash -c 'source "$1"; progress_of "$2"' _ "$COMMON" "$WORK/progress.log"; }
check "progress: apt downloading" [ "$(progress 'dlstatus:3:12.5:Retrieving file 3 of 40\n')" = "downloading 12 %" ]
check "progress: dpkg at work" \
  [ "$(progress 'dlstatus:40:100:done\npmstatus:catch2:56.4:Unpacking catch2\n')" = "installing 56 %" ]
check "progress: Ninja's count" [ "$(progress '[1/160] a\n[37/160] Building CXX b\n')" = "37/160 compiled" ]
check "progress: nothing before the first count" [ -z "$(progress 'Reading package lists...\n')" ]
check "the install asks apt for its status lines" grep -q 'APT::Status-Fd=1' "$COMMON"

# .ci/run's format check cannot be skipped: clang-format is one of the test packages and
# the check is not conditional on it being installed, so a machine without it cannot pass
# CI with unformatted code.
# shellcheck disable=SC2016  # $1 is the inner bash's, as is TEST_PACKAGES
check "clang-format is a test package" \
  bash -c 'source "$1"; printf "%s\n" "${TEST_PACKAGES[@]}" | grep -qx clang-format' _ "$COMMON"
check ".ci/run checks formatting unconditionally" \
  bash -c "! grep -q 'command -v clang-format' '$ALIGNBENCH_SOURCE_DIR/.ci/run'"

# (b) and (c) as root, with a stub apt-get that talks as much as dpkg does
[ "$(id -u)" -eq 0 ] || { finish; exit; }
mkdir "$WORK/stub"
cat > "$WORK/stub/apt-get" <<'STUB'
#!/bin/bash
for i in $(seq 300); do echo "Unpacking package $i ..."; done
[ "$1" = install ] && { /usr/sbin/policy-rc.d ssh start; echo "policy-rc.d: $?" >> "$TMPDIR/policy.log"; }
[ "$1" = install ] && [ -n "${STUB_FAIL:-}" ] && { echo "E: Unable to locate package" >&2; exit 100; }
[ "$1" = install ] && [ -n "${STUB_HANG:-}" ] && { touch "$TMPDIR/hanging"; sleep 60; }
exit 0
STUB
chmod 755 "$WORK/stub/apt-get"
run_install() {  # run_install NAME [ENV...]: install_missing with the stub, as root
  local name=$1
  shift
  # shellcheck disable=SC2016  # $1 and $2 are the inner bash's
  env -i PATH="$WORK/stub:$WORK/bin" HOME=/ TMPDIR="$WORK" "$@" \
    bash -c 'set -euo pipefail; source "$1"; install_missing bash "$2"' _ "$COMMON" "$fake" \
    > "$WORK/$name.out" 2> "$WORK/$name.err"
}
policy_before=$(sha256sum /usr/sbin/policy-rc.d 2>&1)
# Should install_missing fail to put it back, the test does, whatever way it ends: a
# refusing policy-rc.d left behind would stop every service start on this machine.
if [ -e /usr/sbin/policy-rc.d ]; then
  cp -p /usr/sbin/policy-rc.d "$WORK/policy-rc.d.machine"
  cleanup_hooks=("cp -p '$WORK/policy-rc.d.machine' /usr/sbin/policy-rc.d" "${cleanup_hooks[@]}")
else
  cleanup_hooks=("rm -f /usr/sbin/policy-rc.d" "${cleanup_hooks[@]}")
fi
run_install b
status=$?
# openssh-server among the test packages must not start the machine's sshd.
check "(b) while apt-get installs, policy-rc.d refuses to start services (101)" \
  grep -qx "policy-rc.d: 101" "$WORK/policy.log"
check "(b) the machine's policy-rc.d, or its absence, is as before" \
  [ "$(sha256sum /usr/sbin/policy-rc.d 2>&1)" = "$policy_before" ]
check "(b) stub install: exit 0 (got $status)" [ "$status" -eq 0 ]
check "(b) one line per step, no dpkg output" [ "$(wc -l < "$WORK/b.err")" -eq 3 ]
check "(b) names what it installs" grep -qx "installing 1 missing packages: $fake" "$WORK/b.err"
check "(b) the install step, with its seconds" grep -qx "  apt-get install ... done ([0-9]* s)" "$WORK/b.err"
check "(b) the log is gone after success" bash -c "! ls '$WORK'/alignbench-install.* 2>/dev/null"
[ "$failed" -eq 0 ] || cat "$WORK/b.err" >&2

run_install c STUB_FAIL=1
status=$?
check "(c) failed install: non-zero exit (got $status)" [ "$status" -ne 0 ]
log=$(sed -n 's/.*failed (exit 100); its output is in \(.*\)$/\1/p' "$WORK/c.err")
check "(c) the failed step names its log" [ -n "$log" ]
check "(c) the log holds the reason" grep -q "E: Unable to locate package" "$log"
check "(c) the reason on screen, under the failed step" \
  grep -qx "    E: Unable to locate package" "$WORK/c.err"
check "(c) four lines, none of apt's progress" [ "$(wc -l < "$WORK/c.err")" -eq 4 ]
[ "$failed" -eq 0 ] || cat "$WORK/c.err" >&2
rm -f "$WORK"/alignbench-install.*  # (c)'s, kept by design: not (d)'s to count

# (d) interrupted while apt-get installs: the machine's policy-rc.d is put back all the
# same. The install runs in a session of its own; SIGTERM goes to all of it, as a
# terminal's Ctrl-C (SIGINT) goes to the foreground process group.
# shellcheck disable=SC2016  # $1 and $2 are the inner bash's
setsid env -i PATH="$WORK/stub:$WORK/bin" HOME=/ TMPDIR="$WORK" STUB_HANG=1 \
  bash -c 'set -euo pipefail; source "$1"; install_missing bash "$2"' _ "$COMMON" "$fake" \
  > "$WORK/d.out" 2> "$WORK/d.err" &
installer=$!
for _ in $(seq 100); do [ -e "$WORK/hanging" ] && break; sleep 0.1; done
check "(d) the stub install started" [ -e "$WORK/hanging" ]
check "(d) while it installs, the refusing policy-rc.d is in place" \
  grep -q "alignbench install_missing" /usr/sbin/policy-rc.d
kill -TERM -- "-$installer" 2>/dev/null
wait "$installer"
status=$?
# The script's shell ends at once; the install's subshell puts things back after its
# apt-get has ended: wait until nothing of the session is left.
for _ in $(seq 100); do pgrep -s "$installer" > /dev/null || break; sleep 0.1; done
check "(d) nothing of the interrupted install still runs" bash -c "! pgrep -s $installer"
check "(d) interrupted install: non-zero exit (got $status)" [ "$status" -ne 0 ]
check "(d) the machine's policy-rc.d, or its absence, is as before" \
  [ "$(sha256sum /usr/sbin/policy-rc.d 2>&1)" = "$policy_before" ]
check "(d) no saved copy of it left behind" \
  bash -c "! ls '$WORK'/alignbench-policy-rc.d.* 2>/dev/null"
check "(d) no install log left behind (it would name nothing)" \
  bash -c "! ls '$WORK'/alignbench-install.* 2>/dev/null"
[ "$failed" -eq 0 ] || cat "$WORK/d.err" >&2
finish
