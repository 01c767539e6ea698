#include "lib/render/differences.h"

#include <algorithm>

#include "lib/render/cells.h"
#include "lib/render/comparison.h"
#include "lib/result/escape.h"

namespace alignbench {

std::vector<Difference> Differences(const std::vector<const Report*>& reports) {
  std::vector<std::vector<Fact>> facts;
  for (const Report* report : reports) {
    facts.push_back(ComparedFacts(*report));
  }
  std::vector<Difference> out;
  for (std::size_t f = 0; f < facts.front().size(); ++f) {
    // Escaped here, once for every printer: a directory or a disk model
    // comes from outside and may hold a newline, ESC or a bidi control.
    Difference d{EscapeControl(facts.front()[f].name), {}};
    bool differs = false;
    for (const std::vector<Fact>& of_one : facts) {
      differs = differs || of_one[f].text != facts.front()[f].text;
      d.texts.push_back(EscapeControl(of_one[f].text));
    }
    if (differs) out.push_back(std::move(d));
  }
  return out;
}

void RenderDifferencesText(std::ostream& out,
                           const std::vector<Difference>& differences,
                           std::size_t groups) {
  if (differences.empty()) {
    out << "\nno setting or environment field differs between them\n";
    return;
  }
  out << "\nfields that differ:\n";
  std::vector<std::string> names;
  for (const Difference& d : differences) names.push_back(d.name);
  const std::size_t name_width = WidestOf(names, 5);
  std::vector<std::size_t> widths(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    widths[g] = 3 + std::to_string(g + 1).size();
    for (const Difference& d : differences) {
      widths[g] = std::max(widths[g], d.texts[g].size());
    }
  }
  out << PadEnd("field", name_width);
  for (std::size_t g = 0; g < groups; ++g) {
    out << " | " << Pad("[" + std::to_string(g + 1) + "]", widths[g]);
  }
  out << "\n";
  for (const Difference& d : differences) {
    out << PadEnd(d.name, name_width);
    for (std::size_t g = 0; g < groups; ++g) {
      out << " | " << Pad(d.texts[g], widths[g]);
    }
    out << "\n";
  }
}

}  // namespace alignbench
