#include "lib/render/cells.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>

#include "lib/base/error.h"
#include "lib/config/size.h"

namespace alignbench {

std::string Pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text
                              : std::string(width - text.size(), ' ') + text;
}

std::string PadEnd(const std::string& text, std::size_t width) {
  return text.size() >= width ? text
                              : text + std::string(width - text.size(), ' ');
}

std::size_t WidestOf(const std::vector<std::string>& texts, std::size_t least) {
  for (const std::string& t : texts) least = std::max(least, t.size());
  return least;
}

std::string SizeColumn(std::uint64_t size) {
  // Not whole KiB (a replay's commit, --sizes 512): bytes, and said so, so that
  // 512 bytes never reads as the 512 KiB of the row beside it.
  return size % 1024 == 0 ? std::to_string(size / 1024)
                          : std::to_string(size) + "B";
}

std::string SizeText(std::uint64_t size) {
  return FormatSize(size) + (size % 1024 == 0 ? "" : "B");
}

std::string SizeRanges(std::vector<std::uint64_t> chosen,
                       const std::vector<std::uint64_t>& all) {
  std::vector<std::size_t> at;  // positions in `all`
  for (std::uint64_t size : chosen) {
    at.push_back(static_cast<std::size_t>(
        std::lower_bound(all.begin(), all.end(), size) - all.begin()));
  }
  std::sort(at.begin(), at.end());
  std::string text;
  for (std::size_t i = 0; i < at.size();) {
    std::size_t j = i;
    while (j + 1 < at.size() && at[j + 1] == at[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + SizeText(all[at[i]]);
    if (j > i) text += "-" + SizeText(all[at[j]]);
    i = j + 1;
  }
  return text;
}

std::string JavaDouble(double value) {
  char text[64];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  std::string s(text, ec == std::errc() ? end : text);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string TypicalGainCell(const PairResult& p, const char* format) {
  const std::optional<double> gain = p.TypicalGainPct();
  return gain ? Printf(format, *gain) : "n/a";
}

std::string MeansGainCell(const PairResult& p) {
  return p.means_gain_pct ? Printf("%+.2f", *p.means_gain_pct) : "n/a";
}

std::string GainOrMeansCell(const PairResult& p, const char* format) {
  const std::optional<double> gain = p.ShownGainPct();
  return gain ? Printf(format, *gain) : "n/a";
}

std::string MeansApartNote(const PairResult& p, const std::string& unaligned,
                           const std::string& aligned) {
  if (!p.means_gain_pct || !p.inference.test) return "";
  const Interval& interval = p.inference.test->interval_pct;
  const double gain = *p.means_gain_pct;
  if (gain >= interval.low && gain <= interval.high) return "";
  // Below the interval the aligned mean is high for its runs' medians, above
  // it the unaligned one.
  const bool aligned_high = gain < interval.low;
  const VariantResult& high = aligned_high ? p.aligned : p.unaligned;
  const VariantResult& other = aligned_high ? p.unaligned : p.aligned;
  const std::string& name = aligned_high ? aligned : unaligned;
  const std::string& other_name = aligned_high ? unaligned : aligned;
  std::string note =
      "means %gain " + Printf("%+.2f", gain) + " lies outside the interval: ";
  if (high.total_ns.p99 > other.total_ns.p99) {
    return note + name + "'s slow tail raises its mean (p99 " +
           Printf("%.3f", high.total_ns.p99 / 1e6) + " ms against " +
           other_name + "'s " + Printf("%.3f", other.total_ns.p99 / 1e6) +
           " ms)";
  }
  return note + "a mean weighs every write, the interval each run's median (" +
         name + ": mean " + Printf("%.3f", high.total_ns.mean / 1e6) +
         " ms, median " + Printf("%.3f", high.total_ns.p50 / 1e6) + " ms)";
}

std::string IntervalText(const PairResult& p) {
  if (!p.inference.test) return "n/a";
  const Interval& i = p.inference.test->interval_pct;
  return "[" + Printf("%+.1f", i.low) + ", " + Printf("%+.1f", i.high) + "]";
}

std::string CsvField(const std::string& raw) {
  std::string text = EscapeControl(raw);
  const bool formula = !text.empty() && std::string_view("=+-@").find(
                                            text[0]) != std::string_view::npos;
  if (formula) text = "'" + text;
  if (!formula && text.find_first_of(",\"") == std::string::npos &&
      (text.empty() || (text.front() != ' ' && text.back() != ' '))) {
    return text;
  }
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string MarkdownText(const std::string& raw) {
  const std::string text = EscapeControl(raw);
  const auto starts_markup = [](char next, std::string_view starts) {
    return std::isalpha(static_cast<unsigned char>(next)) ||
           starts.find(next) != std::string_view::npos;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char next = i + 1 < text.size() ? text[i + 1] : ' ';
    if (text[i] == '<' && starts_markup(next, "/!?")) {
      out += "&lt;";
    } else if (text[i] == '&' && starts_markup(next, "#")) {
      out += "&amp;";
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string MarkdownCell(const std::string& raw) {
  std::string cell;
  for (char c : MarkdownText(raw)) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}

std::string MarkdownCode(const std::string& raw) {
  const std::string text = EscapeControl(raw);
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " + text + " " : text) + fence;
}

}  // namespace alignbench
