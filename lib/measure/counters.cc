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

namespace {

// The CPU time between two readings; nullopt where either is missing or the
// counters went backwards.
std::optional<CpuTicks> CpuBetween(const std::optional<CpuTicks>& before,
                                   const std::optional<CpuTicks>& after) {
  if (!before || !after || after->all < before->all ||
      after->busy < before->busy) {
    return std::nullopt;
  }
  return CpuTicks{after->busy - before->busy, after->all - before->all};
}

}  // namespace

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
  const std::optional<CpuTicks> cpu_before = ReadCpuTicks();
  const Clock::time_point start = Clock::now();
  std::this_thread::sleep_for(window);
  const std::optional<CpuTicks> cpu_after = ReadCpuTicks();
  const std::optional<DeviceCounters> after = ReadDeviceCounters(stat_path);
  if (!before || !after) return std::nullopt;
  return IdleSample{std::chrono::duration<double>(Clock::now() - start).count(),
                    *after - *before, CpuBetween(cpu_before, cpu_after)};
}

std::optional<IdleSample> SampleCpuIdle(std::chrono::milliseconds window) {
  using Clock = std::chrono::steady_clock;
  const std::optional<CpuTicks> before = ReadCpuTicks();
  const Clock::time_point start = Clock::now();
  std::this_thread::sleep_for(window);
  const std::optional<CpuTicks> cpu = CpuBetween(before, ReadCpuTicks());
  if (!cpu) return std::nullopt;
  return IdleSample{std::chrono::duration<double>(Clock::now() - start).count(),
                    DeviceCounters{}, cpu};
}

std::optional<CpuTicks> ParseCpuTicks(const std::string& line) {
  // proc(5): user nice system idle iowait irq softirq steal guest guest_nice;
  // guest time is counted in user already.
  std::istringstream in(line);
  std::string label;
  std::uint64_t field[8] = {};
  if (!(in >> label) || label != "cpu") return std::nullopt;
  for (std::uint64_t& f : field) {
    if (!(in >> f)) return std::nullopt;
  }
  const std::uint64_t idle = field[3] + field[4];
  const std::uint64_t busy =
      field[0] + field[1] + field[2] + field[5] + field[6] + field[7];
  return CpuTicks{busy, busy + idle};
}

std::optional<CpuTicks> ReadCpuTicks() {
  std::ifstream in("/proc/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return ParseCpuTicks(line);
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

DeviceCounters& operator+=(DeviceCounters& into, const DeviceCounters& more) {
  into.reads += more.reads;
  into.read_sectors += more.read_sectors;
  into.writes += more.writes;
  into.write_sectors += more.write_sectors;
  if (into.flushes && more.flushes) {
    *into.flushes += *more.flushes;
  } else {
    into.flushes.reset();
  }
  return into;
}

IdleSample& operator+=(IdleSample& into, const IdleSample& window) {
  const bool first = into.seconds == 0;
  // The first window's flush count is taken as it is, known or not.
  if (first) into.delta.flushes = std::uint64_t{0};
  into.delta += window.delta;
  if (first) {
    into.cpu = window.cpu;
  } else if (into.cpu && window.cpu) {
    into.cpu->busy += window.cpu->busy;
    into.cpu->all += window.cpu->all;
  } else {
    into.cpu.reset();
  }
  into.seconds += window.seconds;
  return into;
}

ProcessIo operator-(const ProcessIo& after, const ProcessIo& before) {
  return {after.read_bytes - before.read_bytes,
          after.write_bytes - before.write_bytes};
}

}  // namespace alignbench
