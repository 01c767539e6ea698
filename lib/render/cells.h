// The cells every printer's columns are made of: a string padded to its
// column, a size as Derby printed it, a double as Java printed it. Printf is in
// lib/base/text.h, which this header brings along.
#pragma once

#include <cstdint>
#include <string>

#include "lib/base/text.h"

namespace alignbench {

// A string right-aligned to a column width (Printf is in lib/base/text.h).
std::string Pad(const std::string& text, std::size_t width);

// The size as Derby printed it: KiB when whole ("64"), else with a unit.
std::string SizeColumn(std::uint64_t size);

// Java's Double.toString for the values Derby printed: shortest round-trip
// digits and at least one decimal ("10.0", "18.359375").
std::string JavaDouble(double value);

}  // namespace alignbench
