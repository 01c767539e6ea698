#include "lib/cli/unit_search.h"

#include <algorithm>

#include "lib/config/case_file.h"
#include "lib/config/size.h"
#include "lib/env/probe.h"
#include "lib/pairs/unit_search.h"

namespace alignbench {
namespace {

Error Refused(const std::string& option, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "option --" + option, why);
}

// The given shifts: alignments, and with direct I/O (whose unaligned writes
// the filesystem refuses unless staged) none below its alignment.
Status CheckGivenShifts(const Settings& s, const TargetInfo& target) {
  for (std::uint64_t shift : s.shifts) {
    if (!IsPowerOfTwo(shift)) {
      return Refused("shift",
                     "the unit search tries alignments: each shift "
                     "a power of two (" +
                         std::to_string(shift) + " is not)");
    }
  }
  const bool direct =
      std::find(s.ios.begin(), s.ios.end(), IoMode::kDirect) != s.ios.end();
  if (!direct || s.direct_unaligned != DirectUnaligned::kReport) return Ok{};
  const std::uint64_t align = target.DirectAlignment();
  for (std::uint64_t shift : s.shifts) {
    if (shift % align == 0) continue;
    return Refused("shift", std::to_string(shift) +
                                " B is below the direct I/O alignment of " +
                                std::to_string(align) + " B under " + s.dir +
                                ": the filesystem refuses such writes; give "
                                "shifts of " +
                                std::to_string(align) +
                                " B and up, or --direct-unaligned stage");
  }
  return Ok{};
}

}  // namespace

Settings UnitSearchDefaults(const std::vector<std::string>& operands) {
  Settings s;
  if (!operands.empty()) s.dir = operands.front();
  s.sizes = kUnitSearchSizes;
  return s;
}

Status ApplyUnitSearch(bool shifts_given, SessionOptions& session) {
  Settings& s = session.settings;
  if (s.log) {
    return Refused("case",
                   "the unit search moves Derby's writes by each shift, and a "
                   "log case's rules fix its own header: give a case without "
                   "\"log\", or none");
  }
  const TargetInfo target = ProbeTarget(s.dir);
  if (shifts_given) {
    if (Status ok = CheckGivenShifts(s, target); !ok) return ok;
  } else {
    s.shifts = SearchShifts(target, s.ios);
  }
  session.find_unit = true;
  return Validate(s);
}

}  // namespace alignbench
