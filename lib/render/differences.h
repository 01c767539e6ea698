// The settings and environment fields that differ between results, as
// compare and a run of several directories list them below their table.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

// A fact whose text is not the same for every result: its name and each
// result's text.
struct Difference {
  std::string name;
  std::vector<std::string> texts;
};

// The fields of ComparedFacts whose text differs between the results, escaped.
std::vector<Difference> Differences(const std::vector<const Report*>& reports);

// "fields that differ:" and a row per field, a column per result ([1], [2],
// ...), or one line that none does.
void RenderDifferencesText(std::ostream& out,
                           const std::vector<Difference>& differences,
                           std::size_t groups);

}  // namespace alignbench
