// Free-space check before anything is written: a plan that cannot fit is
// refused up front with the numbers, instead of failing half-way with ENOSPC.
#pragma once

#include <cstdint>
#include <string>

#include "lib/base/error.h"

namespace alignbench {

// Fails with ENOSPC (setup) when `dir`'s filesystem has fewer than `bytes`
// available to this user, plus a margin of 1 MiB for metadata; fails without
// an errno when the filesystem has no storage at all (/proc, /sys).
Status CheckFreeSpace(const std::string& dir, std::uint64_t bytes);

}  // namespace alignbench
