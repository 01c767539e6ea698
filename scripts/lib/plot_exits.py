"""How scripts/plot ends: an error in one line with its exit code, a signal with 128+N,
and on every way out the temporary figures it was writing removed; and the test hook
that pauses plot at a known phase, whose child a signal ends too."""
import errno
import os
import signal
import subprocess
import sys

from shown import shown

# Files being written (temporary figures): removed on every way out, signals included.
PARTIAL = set()
HOOK_CHILD = []


def die(msg, code=2):
    """The message in one line, every path and name in it escaped (shown)."""
    try:
        print("plot: error: " + shown(msg), file=sys.stderr)
    except OSError:
        pass
    sys.exit(code)


def os_error(what, path, e, hint):
    """One line: what failed, on which path, the errno's symbol, and what to do."""
    symbol = errno.errorcode.get(e.errno, "errno %s" % e.errno) if e.errno else "no errno"
    die("%s %s: %s (%s); %s" % (what, path, e.strerror or e, symbol, hint))


def fatal_signals():
    """Every signal whose default action ends the process and that can be caught."""
    keep = {signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD, signal.SIGCONT, signal.SIGTSTP,
            signal.SIGTTIN, signal.SIGTTOU, signal.SIGURG, signal.SIGWINCH}
    return [s for s in signal.valid_signals() if s not in keep]


def catch_signals():
    for s in fatal_signals():
        # A signal ignored on entry (nohup) stays ignored, as in alignbench and bash; Python
        # ignores SIGPIPE and SIGXFSZ itself, so those cannot be told apart and are caught.
        if s in (signal.SIGPIPE, signal.SIGXFSZ) or signal.getsignal(s) != signal.SIG_IGN:
            signal.signal(s, on_signal)


def on_signal(signum, _frame):
    for s in fatal_signals():
        try:
            signal.signal(s, signal.SIG_IGN)
        except (OSError, ValueError):
            pass
    # By pid, not Popen.wait: the signal may have come during that wait, which holds a lock
    # a second wait in the handler would block on forever.
    for child in HOOK_CHILD:
        try:
            os.kill(child.pid, signal.SIGTERM)
            os.waitpid(child.pid, 0)
        except OSError:
            pass
    remove_partial()
    # No unwinding through matplotlib: the process ends here, as the signal's default would.
    os._exit(128 + signum)


def remove_partial():
    for path in list(PARTIAL):
        try:
            os.unlink(path)
        except OSError:
            pass
        PARTIAL.discard(path)


def hook(phase):
    """A test's pause point: ALIGNBENCH_TEST_HOOK, when set, runs with the phase's name and
    may block as long as the test wants, so a signal meets plot at a known point."""
    command = os.environ.get("ALIGNBENCH_TEST_HOOK")
    if not command:
        return
    try:
        child = subprocess.Popen([command, "plot", phase])
    except OSError as e:
        os_error("run test hook", command, e, "unset ALIGNBENCH_TEST_HOOK")
    HOOK_CHILD.append(child)
    child.wait()
    HOOK_CHILD.remove(child)
