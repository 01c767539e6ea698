// What to say when an allocation fails: the limit is the user's to change,
// and what was asked for is theirs to make smaller.
#pragma once

#include <string>

namespace alignbench {

// "out of memory: raise the limit (...) or free memory, or " + what_to_do.
inline std::string OutOfMemoryHint(const std::string& what_to_do) {
  return "out of memory: raise the limit (ulimit -v, the cgroup's memory.max) "
         "or free memory, or " +
         what_to_do;
}

}  // namespace alignbench
