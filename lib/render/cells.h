// The cells every printer's columns are made of: a string padded to its
// column, a size as Derby printed it, a double as Java printed it. Printf is in
// lib/base/text.h, which this header brings along.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/base/text.h"
#include "lib/pairs/pair_result.h"

namespace alignbench {

// A string right-aligned to a column width (Printf is in lib/base/text.h).
std::string Pad(const std::string& text, std::size_t width);

// A string left-aligned to a column width: names read from the left.
std::string PadEnd(const std::string& text, std::size_t width);

// The widest of `texts`, and at least `least`.
std::size_t WidestOf(const std::vector<std::string>& texts, std::size_t least);

// The size as Derby printed it: KiB when whole ("64"), else bytes with their
// unit ("512B", "1536B").
std::string SizeColumn(std::uint64_t size);

// A size as the tables, the answer and ioping's lines print it: "4K",
// "512K", "1M", and bytes with their unit where not whole KiB ("256B",
// "4201B"). Only Derby's rows print SizeColumn.
std::string SizeText(std::uint64_t size);

// `chosen` sizes as ranges of `all` (sorted, each of `chosen` among them):
// sizes next to each other there are one range, "1K-64K, 256K-512K" (each as
// SizeText).
std::string SizeRanges(std::vector<std::uint64_t> chosen,
                       const std::vector<std::uint64_t>& all);

// Java's Double.toString for the values Derby printed: shortest round-trip
// digits and at least one decimal ("10.0", "18.359375").
std::string JavaDouble(double value);

// The typical gain (PairResult::TypicalGainPct) as "+12.34", or "n/a".
std::string TypicalGainCell(const PairResult& p, const char* format = "%+.2f");

// The typical gain's 95% interval as "[+1.2, +3.4]", or "n/a" without a test.
std::string IntervalText(const PairResult& p);

// Derby's gain of means as "+12.34", or "n/a".
std::string MeansGainCell(const PairResult& p);

// The typical gain where there is an interval, else Derby's gain of means (a
// mailing-list table): the one gain of a column that has no room for both.
std::string GainOrMeansCell(const PairResult& p, const char* format = "%+.1f");

// Why Derby's gain of means lies outside the interval of the typical gain, in
// a few words, or "" where it lies inside (or there is no interval): the
// variant whose slow writes pull its mean up, with its p99 against the other's.
// `unaligned` and `aligned` are the variants' names as the report heads them.
std::string MeansApartNote(const PairResult& p, const std::string& unaligned,
                           const std::string& aligned);

// Text from outside (a host name, a directory, a case name: anything a result
// file says) in the formats that others open with programs of their own.
//
// A CSV field: control characters escaped, then quoted where a comma, quote
// or leading or trailing space would change the fields; a text that starts
// with '=', '+', '-' or '@' is prefixed with an apostrophe and quoted, so that
// a spreadsheet shows it as text and never runs it as a formula. Numbers are
// not texts: they are printed as they are, signs and all.
std::string CsvField(const std::string& raw);

// Markdown prose: control characters escaped, and every '<' or '&' that would
// begin raw HTML, an autolink or an entity written as an entity, so that a
// bug tracker shows "</details>" as those characters instead of acting on
// it ("p < 0.01" stays as it is).
std::string MarkdownText(const std::string& raw);

// A markdown table cell: MarkdownText with '|' escaped.
std::string MarkdownCell(const std::string& raw);

// A markdown code span: escaped for the terminal and fenced by one backtick
// more than its longest run of them (CommonMark), so that a backtick in the
// text cannot end the span and turn the rest into markup.
std::string MarkdownCode(const std::string& raw);

}  // namespace alignbench
