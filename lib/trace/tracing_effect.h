// What strace did to the grouping of a program recorded by --pid, from
// counters that need no tracing: the processes' write calls and bytes
// (/proc/PID/io: syscw, wchar, each process's threads summed by the kernel)
// and the flushes the device(s) under the traced files completed, over a
// window watched before strace attaches (--untraced-window) and over the
// traced one. The bytes written per device flush in each say how much the
// syncs grouped without and with strace. A program recorded from its start
// has no untraced window, and that is said in a word, never left out. Only
// counters are read of another user's process, never a path it names.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/config/trace_file.h"
#include "lib/trace/processes.h"
#include "lib/trace/strace_reader.h"

namespace alignbench {

// The default of --untraced-window, in seconds.
inline constexpr std::uint64_t kUntracedWindowSeconds = 2;

// A process's write calls and bytes so far.
struct ProcessWrites {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

// syscw and wchar of the text of a /proc/PID/io; nullopt without both.
std::optional<ProcessWrites> ParseProcessIo(const std::string& text);

// The completed flushes of the device(s) under the traced files, now;
// nullopt where they cannot be read.
using FlushCounter = std::function<std::optional<std::uint64_t>()>;

// The stat files (/sys/dev/block/MAJ:MIN/stat) of the block devices under
// the files --file matched (options.sizes_before) and the regular files the
// processes have open for writing (those --file selects, if given), found by
// the open descriptors themselves (/proc/PID/fd/N), not by the paths they
// name. Empty, with why in `why`, where there is none.
std::vector<std::string> DeviceStats(const std::vector<pid_t>& family,
                                     const StraceOptions& options,
                                     std::string& why);

// The counters at one moment: each process's writes, the flushes, and the
// first /proc/PID/io that could not be read, in words.
struct CounterReading {
  std::chrono::steady_clock::time_point at;
  std::map<pid_t, ProcessWrites> processes;
  std::optional<std::uint64_t> flushes;
  std::string unreadable;
};
CounterReading ReadCounters(const std::vector<pid_t>& pids,
                            const FlushCounter& flushes);

// The window from one reading to another: the writes of the processes read
// at both ends, the flushes between; nullopt, and why in `why`, where the
// flushes or every process's writes are unknown or no flush was made.
std::optional<CounterWindow> WindowBetween(const CounterReading& from,
                                           const CounterReading& to,
                                           std::string& why);

// The window before strace attaches: the counters of `pid`'s family read,
// `window` waited, read again. A stop signal in it ends the wait: `signo`.
struct Untraced {
  std::optional<CounterWindow> window;
  std::string unknown;
  int signo = 0;
};
Untraced WatchUntraced(pid_t pid, std::chrono::milliseconds window,
                       const FlushCounter& flushes, const StopSignals& stop);

// What tracing did to the grouping, in one sentence with both windows'
// bytes and write calls per device flush, or why it is not known.
std::string TracingSentence(const TracingEffect& effect);

}  // namespace alignbench
