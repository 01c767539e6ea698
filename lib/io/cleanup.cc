#include "lib/io/cleanup.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace alignbench {
namespace {

constexpr int kSlots = 8;
struct Slot {
  std::atomic<bool> used{false};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];  // Mutable global on purpose: a signal handler can reach
                       // nothing else.

extern "C" void OnSignal(int signo) {
  for (Slot& slot : g_slots) {
    if (slot.used.load()) ::unlink(slot.path);  // unlink is async-signal-safe
  }
  ::signal(signo, SIG_DFL);
  ::raise(signo);
}

}  // namespace

void InstallSignalCleanup() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  for (int signo : {SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&action.sa_mask, signo);  // one cleanup at a time
  }
  for (int signo : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the caller chose to ignore (nohup, a background job) stays
    // ignored.
    struct sigaction previous {};
    if (::sigaction(signo, nullptr, &previous) == 0 &&
        previous.sa_handler == SIG_IGN)
      continue;
    ::sigaction(signo, &action, nullptr);
  }
}

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
