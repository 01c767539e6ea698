#include "lib/env/requirements.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/io/test_file.h"

namespace alignbench {
namespace {

// Why the requirement is not met here, or "" when it is.
std::string Unmet(Requirement requirement, const TargetInfo& target) {
  switch (requirement) {
    case Requirement::kBlockDevice:
      return target.device ? "" : target.no_device_reason;
    case Requirement::kRoot:
      return ::geteuid() == 0 ? "" : "not running as root";
    case Requirement::kDirectIo: {
      Result<TestFile> file = TestFile::Create(target.dir);
      if (!file) return file.error().Message();
      Result<UniqueFd> direct = file.value().Reopen(O_RDWR | O_DIRECT);
      return direct ? "" : direct.error().Message();
    }
  }
  return "";
}

}  // namespace

Status CheckRequirements(const std::vector<Requirement>& requirements,
                         const TargetInfo& target) {
  std::string missing;
  for (Requirement requirement : requirements) {
    const std::string why = Unmet(requirement, target);
    if (why.empty()) continue;
    if (!missing.empty()) missing += "; ";
    missing += "'" + std::string(NameOf(kRequirements, requirement)) +
               "' is not met (" + why + ")";
  }
  if (missing.empty()) return Ok{};
  return PlainError(ErrorKind::kSetup, "case requires", missing);
}

}  // namespace alignbench
