// Numbers as text, for every layer that prints one.
#pragma once

#include <string>

namespace alignbench {

// printf of one double, never cut short: Printf("%.1f", 2.25) is "2.2".
std::string Printf(const char* pattern, double value);

// A value with `digits` decimals, as the explanations print counts per write:
// Fixed(3.14159) is "3.1", Fixed(3.0, 0) is "3".
std::string Fixed(double value, int digits = 1);

}  // namespace alignbench
