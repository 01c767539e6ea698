// Two results side by side: pairs matched by size and axes, both gains with
// their intervals, the change in each variant's mean and p99, whether the gain
// changed, and every setting or environment fact that differs between the two
// (the first thing a reader must know).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

// One setting or environment fact as a comparison shows it.
struct Fact {
  std::string name;
  // "unknown" when it could not be probed.
  std::string text;
};

// Every setting and environment fact a comparison looks at, in a fixed order
// (the environment's from the field table, lib/result/env_fields.h): the same
// names for every report.
std::vector<Fact> ComparedFacts(const Report& report);

// "write cache: write back -> write through", one entry per differing field.
std::vector<std::string> DifferingFields(const Report& base,
                                         const Report& next);

void RenderComparison(std::ostream& out, const Report& base,
                      const Report& next);

}  // namespace alignbench
