// alignbench unit: the run, with the directory as its operand, asked which
// alignment the stack wants. Where --sizes and --shift are not given it tries
// a small and a large write at every shift the layers make worth trying
// (SearchShifts in lib/pairs/unit_search.h); the session then names the
// measured unit in each result (FindUnit).
#pragma once

#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/session/session_options.h"

namespace alignbench {

// The settings a search starts from, before --case and the options: DIR
// (default .) and the search's sizes.
Settings UnitSearchDefaults(const std::vector<std::string>& operands);

// After the options: the search's shifts where none were given
// (`shifts_given` false), else the given ones held to the search's rules
// (powers of two; with direct I/O none below its alignment), and the session
// asked to name the unit. A log case is refused: its rules fix its own header.
Status ApplyUnitSearch(bool shifts_given, SessionOptions& session);

}  // namespace alignbench
