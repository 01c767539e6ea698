// N results in one table (a fleet, or the directories of one run): per pair a
// column group per result (gain, interval, verdict), then every setting and
// environment fact that differs between them. Results come with a label each,
// so a caller that measured several directories itself can pass them without
// files.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

struct LabeledReport {
  // Names the result's column group; unique within one table.
  std::string label;
  Report report;
};

// "host / disk model / directory" from what the result says ("?" for an
// unknown part; the disk's name when its model is unknown).
std::string ResultLabel(const Report& report);

// Labels the reports by ResultLabel; where two labels agree, each of those
// gets its origin appended ("… (fleet-x/hostA/data.json)"), so that copies of
// one result stay apart.
std::vector<LabeledReport> LabelResults(
    std::vector<Report> reports, const std::vector<std::string>& origins);

// The N-way table as text (also for kDerby), markdown, or CSV; writers.h's
// RenderMany picks one by format. CSV is long: one row per result and pair,
// the differing facts as columns of that result.
void RenderManyText(std::ostream& out,
                    const std::vector<LabeledReport>& results);
void RenderManyMarkdown(std::ostream& out,
                        const std::vector<LabeledReport>& results);
void RenderManyCsv(std::ostream& out,
                   const std::vector<LabeledReport>& results);

}  // namespace alignbench
