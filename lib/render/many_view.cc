#include "lib/render/many_view.h"

#include <map>

#include "lib/render/cells.h"
#include "lib/render/conditions.h"

namespace alignbench {
namespace {

// Where some results were measured beside others' traffic and some were
// not: which were, as a warning; "" otherwise (all alike: the times compare).
std::string BusyWarning(const std::vector<LabeledReport>& results) {
  std::string busy;
  std::size_t count = 0;
  for (std::size_t g = 0; g < results.size(); ++g) {
    if (!BusyConditions(results[g].report)) continue;
    busy += (busy.empty() ? "" : ", ") + ("[" + std::to_string(g + 1) + "]");
    ++count;
  }
  if (count == 0 || count == results.size()) return "";
  return "only " + busy + (count == 1 ? " was" : " were") +
         " measured beside others' traffic: " +
         (count == 1 ? "its times include" : "their times include") + " it";
}

// The rows: every pair of any result, in the order first seen, and each
// result's row of it; then their names, which say the axes and the shift
// only where those vary (`shifts_vary`: some result measured several).
void BuildRows(ManyView& m, bool shifts_vary) {
  std::map<PairKey, std::size_t> row_of;
  std::vector<const RowView*>
      first;  // each row's, from the result that added it
  for (std::size_t r = 0; r < m.views.size(); ++r) {
    for (const GroupView& group : m.views[r].groups) {
      for (const RowView& row : group.rows) {
        auto [it, added] = row_of.emplace(row.key, m.rows.size());
        if (added) {
          m.rows.push_back({"", {m.views.size(), nullptr}});
          first.push_back(&row);
        }
        m.rows[it->second].cells[r] = &row;
      }
    }
  }
  bool axes_vary = false;
  for (const RowView* row : first) {
    axes_vary = axes_vary || row->axes != first.front()->axes;
  }
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    const RowView& r = *first[i];
    std::string& name = m.rows[i].name;
    name = r.size;
    if (axes_vary)
      name += " " + r.sync + "/" + r.io + "/" + r.layout + "/" + r.cache;
    if (shifts_vary) name += " +" + SizeText(r.shift);
  }
}

}  // namespace

std::string ResultLabel(const Report& r) {
  const TargetInfo& t = r.target;
  if (r.reference) return "reference: " + r.reference->platform;
  std::string disk = "?";
  if (t.device) disk = t.device->model.value_or(t.device->disk);
  if (!t.device && t.fs_type) disk = *t.fs_type;
  return t.host.hostname.value_or("?") + " / " + disk + " / " + t.dir;
}

std::vector<LabeledReport> LabelResults(
    std::vector<Report> reports, const std::vector<std::string>& origins) {
  std::vector<LabeledReport> labeled;
  std::map<std::string, std::size_t> uses;
  for (Report& r : reports) {
    std::string label = ResultLabel(r);
    ++uses[label];
    labeled.push_back({std::move(label), std::move(r)});
  }
  for (std::size_t i = 0; i < labeled.size(); ++i) {
    if (uses[labeled[i].label] < 2 || i >= origins.size()) continue;
    labeled[i].label += " (" + origins[i] + ")";
  }
  return labeled;
}

ManyView ManyViewOf(const std::vector<LabeledReport>& results) {
  ManyView m;
  std::vector<const Report*> reports;
  bool shifts_vary = false;
  for (const LabeledReport& result : results) {
    shifts_vary = shifts_vary || result.report.settings.shifts.size() > 1;
    m.labels.push_back(result.label);
    m.views.push_back(ViewOf(result.report));
    m.conditions.push_back(ConditionsText(result.report));
    reports.push_back(&result.report);
  }
  BuildRows(m, shifts_vary);
  m.busy_warning = BusyWarning(results);
  m.differences = Differences(reports);
  return m;
}

}  // namespace alignbench
