// The answer of a unit search (`alignbench unit`) in words: the measured
// unit, what the alignments below it cost, and the unit set beside the ones
// the layers declare ("4K: the page and the filesystem block").
#pragma once

#include <string>

#include "lib/result/report.h"

namespace alignbench {

// "unit: 4K. ..." for a result with a unit search, "" for any other.
std::string UnitAnswerLine(const Report& report);

// The layers' units beside the measured one: which declare it, or that none
// does and the largest that is declared. "" without a unit search.
std::string DeclaredLine(const Report& report);

}  // namespace alignbench
