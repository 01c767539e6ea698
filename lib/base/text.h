// Numbers as text, for every layer that prints one.
#pragma once

#include <string>

namespace alignbench {

// printf of one double, never cut short: Printf("%.1f", 2.25) is "2.2".
std::string Printf(const char* pattern, double value);

}  // namespace alignbench
