// The names of the case files shipped in cases/, read from the directory, so
// that a test over every case cannot miss one added later.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace alignbench {

inline std::vector<std::string> ShippedCaseNames() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(ALIGNBENCH_SOURCE_DIR "/cases")) {
    if (entry.path().extension() == ".json") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace alignbench
