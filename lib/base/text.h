// Numbers as text, for every layer that prints one; and text broken into lines.
#pragma once

#include <string>

namespace alignbench {

// printf of one double, never cut short: Printf("%.1f", 2.25) is "2.2".
std::string Printf(const char* pattern, double value);

// A value with `digits` decimals, as the explanations print counts per write:
// Fixed(3.14159) is "3.1", Fixed(3.0, 0) is "3".
std::string Fixed(double value, int digits = 1);

// `text` broken at spaces into lines of at most `width` characters (a word
// longer than that stands alone), runs of spaces made one, and every line
// after the first begun with `indent`; a word that starts with "%" stays on
// the line of the word before it. No newline after the last line.
std::string Wrapped(const std::string& text, std::size_t width = 80,
                    const std::string& indent = "");

}  // namespace alignbench
