#include "lib/session/checks.h"

#include "lib/io/result_file.h"
#include "lib/io/space.h"
#include "lib/io/test_file.h"
#include "lib/measure/pattern.h"

namespace alignbench {

Result<std::vector<std::string>> CheckBeforeMeasuring(
    const SessionOptions& options, const std::vector<PairSpec>& plan,
    std::ostream& log) {
  const std::uint64_t needed = LargestRunBytes(options.settings, plan);
  for (const std::string& dir : options.dirs) {
    SweepStaleTestFiles(dir, log);  // first: their space counts below
    if (Status space = CheckFreeSpace(dir, needed); !space)
      return space.error();
    if (Result<TestFile> probe = TestFile::Create(dir); !probe) {
      return probe.error();
    }
  }
  if (!options.out) return std::vector<std::string>{};
  const std::vector<std::string> paths =
      ResultPaths(*options.out, options.dirs);
  std::vector<std::string> inputs;
  if (options.case_path) inputs.push_back(*options.case_path);
  for (const std::string& path : paths) {
    if (Status ok = CheckResultPath(path, options.overwrite, inputs); !ok) {
      return ok.error();
    }
  }
  return paths;
}

}  // namespace alignbench
