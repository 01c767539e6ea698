// The other seed as data: the 2013 post "Know your disk latency numbers", which
// measured an NFS home directory, a local ext4 disk and tmpfs with ioping 0.6
// (results/reference/ioping-2013-know-your-disk-latency.json). compare sets a
// run beside it. Its file is not a result: one summary per directory, of
// reads, with no aligned and shifted pair.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

// One directory's ioping summary, as the post printed it.
struct IopingLine {
  std::string dir;
  std::string fs_type;
  std::string source;
  std::uint64_t requests = 0;
  double completed_in_ms = 0;
  double iops = 0;
  double mib_per_s = 0;
  double min_ms = 0, avg_ms = 0, max_ms = 0, mdev_ms = 0;
};

struct IopingPost {
  std::string title;
  std::string published;
  std::string source;
  std::string tool;
  std::string command;
  std::string measured;  // "reads"
  std::uint64_t request_bytes = 0;
  std::string notes;
  std::vector<IopingLine> directories;
};

// The post in the file at `path`; nothing where the file holds no
// "ioping_reference" object (a result file, say, or no JSON at all); an error
// naming the key that is wrong where it holds one that breaks the format.
Result<std::optional<IopingPost>> LoadIopingPost(const std::string& path);

}  // namespace alignbench
