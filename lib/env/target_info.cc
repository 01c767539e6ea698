#include "lib/env/target_info.h"

namespace alignbench {

std::uint64_t TargetInfo::DirectAlignment() const {
  if (dio_offset_align) return *dio_offset_align;
  if (device && device->logical_block_bytes)
    return *device->logical_block_bytes;
  return 4096;
}

std::string TargetInfo::Title() const {
  std::string where = fs_type.value_or("unknown-fs");
  if (device) {
    where += " /dev/" + device->partition.value_or(device->disk);
  } else if (mount_source) {
    where += " " + *mount_source;
  }
  return dir + " (" + where + ")";
}

}  // namespace alignbench
