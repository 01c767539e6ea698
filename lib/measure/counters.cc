#include "lib/measure/counters.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace alignbench {

std::optional<DeviceCounters> ParseDeviceCounters(const std::string& line) {
  // Documentation/block/stat.rst: up to 17 fields; we need 1, 3, 5, 7 and 16
  // (flush requests).
  std::istringstream in(line);
  std::uint64_t field[17] = {};
  int count = 0;
  while (count < 17 && in >> field[count]) ++count;
  if (count < 11) return std::nullopt;
  DeviceCounters counters;
  counters.reads = field[0];
  counters.read_sectors = field[2];
  counters.writes = field[4];
  counters.write_sectors = field[6];
  if (count >= 16) counters.flushes = field[15];
  return counters;
}

std::optional<DeviceCounters> ReadDeviceCounters(const std::string& stat_path) {
  std::ifstream in(stat_path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return ParseDeviceCounters(line);
}

std::optional<IdleSample> SampleIdle(const std::string& dir,
                                     const std::string& stat_path,
                                     std::chrono::milliseconds window) {
  using Clock = std::chrono::steady_clock;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::syncfs(fd);  // best effort: without it the window may count our files
    ::close(fd);
  }
  const std::optional<DeviceCounters> before = ReadDeviceCounters(stat_path);
  const Clock::time_point start = Clock::now();
  std::this_thread::sleep_for(window);
  const std::optional<DeviceCounters> after = ReadDeviceCounters(stat_path);
  if (!before || !after) return std::nullopt;
  return IdleSample{std::chrono::duration<double>(Clock::now() - start).count(),
                    *after - *before};
}

std::optional<ProcessIo> ReadProcessIo() {
  std::ifstream in("/proc/self/io");
  std::string key;
  std::uint64_t value = 0;
  ProcessIo io;
  int found = 0;
  while (in >> key >> value) {
    if (key == "read_bytes:") {
      io.read_bytes = value;
      ++found;
    } else if (key == "write_bytes:") {
      io.write_bytes = value;
      ++found;
    }
  }
  if (found != 2) return std::nullopt;
  return io;
}

DeviceCounters operator-(const DeviceCounters& after,
                         const DeviceCounters& before) {
  DeviceCounters delta{
      after.reads - before.reads, after.read_sectors - before.read_sectors,
      after.writes - before.writes, after.write_sectors - before.write_sectors,
      std::nullopt};
  if (after.flushes && before.flushes)
    delta.flushes = *after.flushes - *before.flushes;
  return delta;
}

IdleSample& operator+=(IdleSample& into, const IdleSample& window) {
  const bool first = into.seconds == 0;
  DeviceCounters& d = into.delta;
  const DeviceCounters& w = window.delta;
  d.reads += w.reads;
  d.read_sectors += w.read_sectors;
  d.writes += w.writes;
  d.write_sectors += w.write_sectors;
  if (first) {
    d.flushes = w.flushes;
  } else if (d.flushes && w.flushes) {
    *d.flushes += *w.flushes;
  } else {
    d.flushes.reset();
  }
  into.seconds += window.seconds;
  return into;
}

ProcessIo operator-(const ProcessIo& after, const ProcessIo& before) {
  return {after.read_bytes - before.read_bytes,
          after.write_bytes - before.write_bytes};
}

}  // namespace alignbench
