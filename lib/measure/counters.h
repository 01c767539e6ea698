// Device and process I/O counters read around a timed loop. The device counters
// come from /sys/block/<disk>/stat and are device-wide: other processes' I/O on
// that disk is included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace alignbench {

struct DeviceCounters {
  std::uint64_t reads = 0;  // completed read requests
  std::uint64_t read_sectors =
      0;  // 512-byte units, whatever the device's sector size
  std::uint64_t writes = 0;         // completed write requests
  std::uint64_t write_sectors = 0;  // 512-byte units
  std::uint64_t flushes = 0;        // completed flush requests (kernel 5.5+)
};

struct ProcessIo {
  std::uint64_t read_bytes =
      0;  // bytes this process caused to be read from storage
  std::uint64_t write_bytes =
      0;  // bytes this process caused to be written to storage
};

// nullopt when the file cannot be read or parsed.
std::optional<DeviceCounters> ReadDeviceCounters(const std::string& stat_path);
std::optional<ProcessIo> ReadProcessIo();

DeviceCounters operator-(const DeviceCounters& after,
                         const DeviceCounters& before);
ProcessIo operator-(const ProcessIo& after, const ProcessIo& before);

}  // namespace alignbench
