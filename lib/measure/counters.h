// Device and process I/O counters read around a timed loop. The device counters
// come from /sys/block/<disk>/stat and are device-wide: other processes' I/O on
// that disk is included.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace alignbench {

struct DeviceCounters {
  // Completed read requests
  std::uint64_t reads = 0;
  // 512-byte units, whatever the device's sector size
  std::uint64_t read_sectors = 0;
  // Completed write requests
  std::uint64_t writes = 0;
  // 512-byte units
  std::uint64_t write_sectors = 0;
  // Completed flush requests: fields 16 and 17 exist only from kernel 5.5 on;
  // where the stat file has fewer fields the count is unknown, never 0.
  std::optional<std::uint64_t> flushes;
};

struct ProcessIo {
  // Bytes this process caused to be read from storage
  std::uint64_t read_bytes = 0;
  // Bytes this process caused to be written to storage
  std::uint64_t write_bytes = 0;
};

// The machine's CPU time from the first line of /proc/stat, in clock ticks
// summed over every CPU: `busy` is user, nice, system, irq, softirq and steal
// (the host's use of a virtual CPU); `all` adds idle and iowait.
struct CpuTicks {
  std::uint64_t busy = 0;
  std::uint64_t all = 0;
};

// nullopt when the file cannot be read or parsed.
std::optional<DeviceCounters> ReadDeviceCounters(const std::string& stat_path);
// One line of a stat file: 11 fields (before 4.18), 15 (discards) or 17
// (flushes, 5.5+); nullopt with fewer than 11.
std::optional<DeviceCounters> ParseDeviceCounters(const std::string& line);
std::optional<ProcessIo> ReadProcessIo();
std::optional<CpuTicks> ReadCpuTicks();
// "cpu  user nice system idle iowait irq softirq steal ...": nullopt unless
// it starts with "cpu " and has the first eight fields.
std::optional<CpuTicks> ParseCpuTicks(const std::string& line);

// The device's I/O and the machine's CPU time while alignbench does neither:
// counters over an idle window.
struct IdleSample {
  double seconds = 0;
  DeviceCounters delta;
  // nullopt where /proc/stat could not be read
  std::optional<CpuTicks> cpu;
};

// Windows added up: their seconds and counters (a flush count, and the CPU
// time, stays only where every window knew it).
IdleSample& operator+=(IdleSample& into, const IdleSample& window);

// Flushes the filesystem of `dir` (syncfs), so that what alignbench itself
// left dirty is not counted, then reads the counters (the device's and the
// CPU time), sleeps `window` doing nothing and reads them again; nullopt when
// the device's stat file cannot be read.
std::optional<IdleSample> SampleIdle(const std::string& dir,
                                     const std::string& stat_path,
                                     std::chrono::milliseconds window);

// The machine's CPU time over a window of `window` doing nothing, for a
// directory with no device to watch (tmpfs): others' share of the CPUs is
// the machine's, whatever the directory. nullopt where /proc/stat could not
// be read.
std::optional<IdleSample> SampleCpuIdle(std::chrono::milliseconds window);

DeviceCounters operator-(const DeviceCounters& after,
                         const DeviceCounters& before);
// Adds `more` in; the flush count stays known only where both knew it.
DeviceCounters& operator+=(DeviceCounters& into, const DeviceCounters& more);
ProcessIo operator-(const ProcessIo& after, const ProcessIo& before);

}  // namespace alignbench
