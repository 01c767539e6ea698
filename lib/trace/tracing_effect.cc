#include "lib/trace/tracing_effect.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "lib/base/error.h"
#include "lib/base/text.h"

namespace alignbench {
namespace {

double Seconds(std::uint64_t milliseconds) {
  return static_cast<double>(milliseconds) / 1000.0;
}

// A whole number of at most 20 digits, nothing else; nullopt otherwise.
std::optional<std::uint64_t> Digits(const std::string& word) {
  if (word.empty() || word.size() > 20 ||
      word.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  errno = 0;
  const unsigned long long value = std::strtoull(word.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return value;
}

// The text of a small file under /proc (at most 4 KiB), or the errno.
std::string ProcText(const std::string& path, int& error) {
  error = 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    error = errno;
    return "";
  }
  char buffer[4096];
  ssize_t n;
  do {
    n = ::read(fd, buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  if (n < 0) error = errno;
  ::close(fd);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
}

// Whether descriptor `fd` of `pid` (its /proc/PID/fdinfo) is open for
// writing.
bool OpenForWriting(const std::string& fdinfo) {
  int error = 0;
  std::istringstream in(ProcText(fdinfo, error));
  std::string key, octal;
  while (in >> key) {
    if (key == "flags:" && in >> octal) {
      return (std::strtoul(octal.c_str(), nullptr, 8) & O_ACCMODE) != O_RDONLY;
    }
  }
  return false;
}

// The devices of the regular files `pid` has open for writing, selected by
// `globs`, each found by its open descriptor.
void DevicesOpen(pid_t pid, const std::vector<std::string>& globs,
                 std::set<dev_t>& devices) {
  const std::string base = "/proc/" + std::to_string(pid);
  DIR* dir = ::opendir((base + "/fd").c_str());
  if (dir == nullptr) return;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string fd = base + "/fd/" + entry->d_name;
    struct stat st {};
    if (::stat(fd.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        !OpenForWriting(base + "/fdinfo/" + entry->d_name)) {
      continue;
    }
    char target[PATH_MAX];
    const ssize_t n = ::readlink(fd.c_str(), target, sizeof target - 1);
    if (n <= 0 ||
        !PathSelected(std::string(target, static_cast<std::size_t>(n)),
                      globs)) {
      continue;
    }
    devices.insert(st.st_dev);
  }
  ::closedir(dir);
}

}  // namespace

std::optional<ProcessWrites> ParseProcessIo(const std::string& text) {
  std::istringstream in(text);
  std::string key, value;
  std::optional<std::uint64_t> calls, bytes;
  while (in >> key >> value) {
    if (key == "syscw:") calls = Digits(value);
    if (key == "wchar:") bytes = Digits(value);
  }
  if (!calls || !bytes) return std::nullopt;
  return ProcessWrites{*calls, *bytes};
}

std::vector<std::string> DeviceStats(const std::vector<pid_t>& family,
                                     const StraceOptions& options,
                                     std::string& why) {
  std::set<dev_t> devices;
  for (pid_t pid : family) DevicesOpen(pid, options.globs, devices);
  for (const auto& [path, size] : options.sizes_before) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      devices.insert(st.st_dev);
    }
  }
  if (devices.empty()) {
    why =
        "no file open for writing, nor one --file matched, to find the "
        "device by";
  }
  std::vector<std::string> stats;
  for (dev_t dev : devices) {
    const std::string stat = "/sys/dev/block/" + std::to_string(major(dev)) +
                             ":" + std::to_string(minor(dev)) + "/stat";
    if (::access(stat.c_str(), R_OK) != 0) {
      const int error = errno;
      why = "no block device under the traced files (" + stat + ": " +
            ErrnoName(error) +
            "; tmpfs, overlay and network filesystems have none)";
      return {};
    }
    stats.push_back(stat);
  }
  return stats;
}

CounterReading ReadCounters(const std::vector<pid_t>& pids,
                            const FlushCounter& flushes) {
  CounterReading reading;
  reading.at = std::chrono::steady_clock::now();
  for (pid_t pid : pids) {
    const std::string path = "/proc/" + std::to_string(pid) + "/io";
    int error = 0;
    const std::string text = ProcText(path, error);
    if (error == ENOENT || error == ESRCH) continue;  // ended meanwhile
    const std::optional<ProcessWrites> writes = ParseProcessIo(text);
    if (writes) {
      reading.processes[pid] = *writes;
    } else if (reading.unreadable.empty()) {
      reading.unreadable =
          "reading " + path + ": " +
          (error != 0 ? ErrnoName(error) : std::string("no syscw and wchar")) +
          " (record as root, or as the process's user)";
    }
  }
  if (flushes) reading.flushes = flushes();
  return reading;
}

std::optional<CounterWindow> WindowBetween(const CounterReading& from,
                                           const CounterReading& to,
                                           std::string& why) {
  why = !from.unreadable.empty() ? from.unreadable : to.unreadable;
  if (!why.empty()) return std::nullopt;
  if (!from.flushes || !to.flushes || *to.flushes < *from.flushes) {
    why =
        "the device's flush count is not known (its stat has none before "
        "Linux 5.5)";
    return std::nullopt;
  }
  CounterWindow window;
  window.device_flushes = *to.flushes - *from.flushes;
  window.milliseconds = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(to.at - from.at)
          .count());
  for (const auto& [pid, before] : from.processes) {
    auto after = to.processes.find(pid);
    if (after == to.processes.end() || after->second.calls < before.calls ||
        after->second.bytes < before.bytes) {
      continue;
    }
    window.write_calls += after->second.calls - before.calls;
    window.write_bytes += after->second.bytes - before.bytes;
  }
  const std::string seconds = Fixed(Seconds(window.milliseconds));
  if (window.device_flushes == 0 || window.write_bytes == 0) {
    why = std::string(window.device_flushes == 0 ? "no device flush"
                                                 : "nothing written") +
          " in " + seconds + " s";
    return std::nullopt;
  }
  return window;
}

Untraced WatchUntraced(pid_t pid, std::chrono::milliseconds window,
                       const FlushCounter& flushes, const StopSignals& stop) {
  Untraced untraced;
  if (window.count() == 0) {
    untraced.unknown = "--untraced-window 0: no untraced window was watched";
    return untraced;
  }
  const std::vector<pid_t> family = Family(pid);
  std::cerr << "alignbench record: watching " << family.size()
            << " process(es) of " << pid << " untraced for "
            << Fixed(Seconds(static_cast<std::uint64_t>(window.count())))
            << " s first (--untraced-window), to compare their grouping "
               "with the traced one\n";
  const CounterReading from = ReadCounters(family, flushes);
  untraced.signo = stop.Take(static_cast<int>(window.count()));
  if (untraced.signo != 0) return untraced;
  std::string why;
  untraced.window = WindowBetween(from, ReadCounters(family, flushes), why);
  if (!untraced.window) untraced.unknown = "untraced, " + why;
  return untraced;
}

namespace {

// "12.8 KiB in 3.1 write calls per device flush (180 flushes in 9.0 s)", or
// "200 B in ..." below a KiB.
std::string PerFlush(const CounterWindow& w) {
  const double flushes = static_cast<double>(w.device_flushes);
  const double bytes = static_cast<double>(w.write_bytes) / flushes;
  return (bytes < 1024 ? Fixed(bytes, 0) + " B"
                       : Fixed(bytes / 1024) + " KiB") +
         " in " + Fixed(static_cast<double>(w.write_calls) / flushes) +
         " write calls per device flush (" + std::to_string(w.device_flushes) +
         " flushes in " + Fixed(Seconds(w.milliseconds)) + " s)";
}

}  // namespace

std::string TracingSentence(const TracingEffect& effect) {
  const auto counted = [](const std::optional<CounterWindow>& w) {
    return w && w->device_flushes > 0 && w->write_bytes > 0;
  };
  if (!counted(effect.untraced) || !counted(effect.traced)) {
    return "what tracing did to the grouping is not known: " +
           (effect.unknown.empty() ? std::string("no window was measured")
                                   : effect.unknown);
  }
  const CounterWindow& u = *effect.untraced;
  const CounterWindow& t = *effect.traced;
  const double change = (static_cast<double>(t.write_bytes) /
                         static_cast<double>(t.device_flushes)) /
                            (static_cast<double>(u.write_bytes) /
                             static_cast<double>(u.device_flushes)) -
                        1;
  const std::string figures = "under strace the processes wrote " +
                              PerFlush(t) + ", untraced " + PerFlush(u) + ", " +
                              Printf("%+.0f", 100 * change) + " %";
  if (change > -0.1 && change < 0.1) {
    return "tracing left the bytes written per device flush as they were, "
           "within 10 %: " +
           figures +
           "; a log written in whole pages (PostgreSQL's WAL) writes as much "
           "per flush however many commits share it, so this alone does not "
           "show that the grouping stayed";
  }
  return "tracing changed the grouping: " + figures +
         (change < 0 ? ": more flushes for what they wrote, so each sync of "
                       "the trace makes fewer commits durable than the "
                       "program's do untraced, where its commits append "
                       "their own bytes"
                     : ": fewer flushes for what they wrote, so each sync of "
                       "the trace makes more commits durable than the "
                       "program's do untraced, where its commits append "
                       "their own bytes");
}

}  // namespace alignbench
