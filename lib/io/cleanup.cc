#include "lib/io/cleanup.h"

#include <limits.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace alignbench {
namespace {

// A replay's files (at most 64 in a trace) and a few more.
constexpr int kSlots = 72;
struct Slot {
  std::atomic<bool> used{false};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];  // Mutable global on purpose: a signal handler can reach
                       // nothing else.

// The graceful Ctrl-C: lock-free atomics, which a signal handler may touch.
std::atomic<bool> g_graceful{false};
std::atomic<int> g_interrupts{0};

extern "C" void OnSignal(int signo) {
  if (signo == SIGINT && g_graceful.load() && g_interrupts.fetch_add(1) == 0) {
    static const char kSaid[] =
        "\nalignbench: interrupted: stopping at the next write; what was "
        "measured is saved, marked incomplete (Ctrl-C again to abort)\n";
    ssize_t ignored = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);
    (void)ignored;
    return;
  }
  // The process is ending: its descriptors go first, since a directory
  // under tracefs (a tracing instance) cannot be removed while a file of it
  // is open. close_range is one system call; where the kernel lacks it
  // (before 5.9) the instance may stay.
  ::syscall(SYS_close_range, 3U, ~0U, 0U);
  // Files, then the private directories they were in (rmdir removes only an
  // empty one); both calls are async-signal-safe.
  for (Slot& slot : g_slots) {
    if (slot.used.load()) ::unlink(slot.path);
  }
  for (Slot& slot : g_slots) {
    if (slot.used.load()) ::rmdir(slot.path);
  }
  ::signal(signo, SIG_DFL);
  // The signal is blocked while its handler runs; unblocked, the re-raise ends
  // the process at once with the signal's own status.
  sigset_t self;
  sigemptyset(&self);
  sigaddset(&self, signo);
  ::sigprocmask(SIG_UNBLOCK, &self, nullptr);
  ::raise(signo);
  // Still here: we are PID 1 of a PID namespace, whose default-action signals
  // the kernel discards. Measuring on would write into the unlinked file and
  // report success, so end as a shell reports a signal death.
  ::_exit(128 + signo);
}

// Every signal whose default action ends the process (signal(7): Term and
// Core), except SIGKILL and SIGSTOP, which cannot be caught. SIGPIPE included:
// `alignbench 2>&1 | head` must not leave the file when head exits; it ends
// the run as it ends any filter. Real-time signals are added at run time.
constexpr int kFatalSignals[] = {
    SIGHUP,    SIGINT,  SIGQUIT,   SIGILL,  SIGTRAP, SIGABRT, SIGBUS,
    SIGFPE,    SIGUSR1, SIGSEGV,   SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
    SIGXCPU,   SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSYS,
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};

void Hook(int signo, const struct sigaction& action) {
  // A signal the caller chose to ignore (nohup, a background job) stays
  // ignored, and a handler installed before main (a sanitizer's) stays in
  // place.
  struct sigaction previous {};
  if (::sigaction(signo, nullptr, &previous) != 0) return;
  if ((previous.sa_flags & SA_SIGINFO) != 0 || previous.sa_handler != SIG_DFL)
    return;
  ::sigaction(signo, &action, nullptr);
}

}  // namespace

void InstallSignalCleanup() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  // A graceful SIGINT returns: the write or sync it interrupted goes on
  // instead of failing with EINTR.
  action.sa_flags = SA_RESTART;
  sigfillset(&action.sa_mask);  // one cleanup at a time
  for (int signo : kFatalSignals) Hook(signo, action);
  for (int signo = SIGRTMIN; signo <= SIGRTMAX; ++signo) Hook(signo, action);
}

void AllowGracefulInterrupt(bool on) {
  if (on) g_interrupts.store(0);  // each session starts uninterrupted
  g_graceful.store(on);
}

bool InterruptRequested() { return g_interrupts.load() > 0; }

int RegisterForCleanup(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].used.load()) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].used.store(true);  // published only after the path is complete
    return i;
  }
  return -1;
}

void UnregisterCleanup(int slot) {
  if (slot >= 0 && slot < kSlots) g_slots[slot].used.store(false);
}

}  // namespace alignbench
