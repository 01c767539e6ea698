#include "lib/measure/counters.h"

#include <fstream>
#include <sstream>

namespace alignbench {

std::optional<DeviceCounters> ReadDeviceCounters(const std::string& stat_path) {
  // Documentation/block/stat.rst: 17 fields; we need 1, 3, 5, 7 and 16 (flush
  // requests).
  std::ifstream in(stat_path);
  std::uint64_t field[17] = {};
  int count = 0;
  while (count < 17 && in >> field[count]) ++count;
  if (count < 11) return std::nullopt;
  DeviceCounters counters;
  counters.reads = field[0];
  counters.read_sectors = field[2];
  counters.writes = field[4];
  counters.write_sectors = field[6];
  counters.flushes = count >= 16 ? field[15] : 0;
  return counters;
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
  return {after.reads - before.reads, after.read_sectors - before.read_sectors,
          after.writes - before.writes,
          after.write_sectors - before.write_sectors,
          after.flushes - before.flushes};
}

ProcessIo operator-(const ProcessIo& after, const ProcessIo& before) {
  return {after.read_bytes - before.read_bytes,
          after.write_bytes - before.write_bytes};
}

}  // namespace alignbench
