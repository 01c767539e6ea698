#include "lib/config/case_search.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>

namespace alignbench {
namespace {

std::string Executable() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : "";
}

std::string DirOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Anything that exists: reading a directory or a device is refused by the
// case reader with its own words.
bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

std::vector<std::string> CaseCandidates(const std::string& name,
                                        const std::string& executable) {
  if (name.empty() || name.find('/') != std::string::npos) return {name};
  // The shipped cases first: a file another user left in the working
  // directory (/tmp) must not stand in for `--case derby-2004` run as root.
  std::vector<std::string> candidates;
  const std::string file =
      name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0
          ? name
          : name + ".json";
  if (!executable.empty()) {
    candidates.push_back(DirOf(executable) + "/../share/alignbench/cases/" +
                         file);
  }
  const std::string build_dir = ALIGNBENCH_BUILD_DIR;
  if (executable.rfind(build_dir + "/", 0) == 0) {
    candidates.push_back(std::string(ALIGNBENCH_SOURCE_DIR) + "/cases/" + file);
  }
  candidates.push_back(name);
  return candidates;
}

Result<std::string> FindCaseFile(const std::string& name) {
  const std::vector<std::string> candidates =
      CaseCandidates(name, Executable());
  for (const std::string& candidate : candidates) {
    if (Exists(candidate)) return candidate;
  }
  // A path is read as given, so that its error is the read's own (ENOENT).
  if (candidates.size() == 1) return name;
  std::string tried;
  for (const std::string& candidate : candidates) {
    tried += (tried.empty() ? "" : ", ") + candidate;
  }
  Error error = PlainError(ErrorKind::kUsage, "find case file",
                           "no case '" + name + "' (looked at " + tried + ")");
  error.hint =
      "--case takes a case name such as derby-2004 or a JSON file such as "
      "cases/derby-2004.json";
  return error;
}

}  // namespace alignbench
