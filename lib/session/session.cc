#include "lib/session/session.h"

#include "lib/io/cleanup.h"
#include "lib/pairs/unit_search.h"
#include "lib/session/checks.h"
#include "lib/session/reports.h"
#include "lib/session/save.h"
#include "lib/session/stages.h"

namespace alignbench {

Result<SessionOutcome> RunSession(const SessionOptions& options, Runner& runner,
                                  FileOps& ops, std::ostream& log) {
  const std::vector<PairSpec> plan = ExpandPlan(options.settings);
  Result<std::vector<std::string>> out_paths =
      CheckBeforeMeasuring(options, plan, log);
  if (!out_paths) return out_paths.error();
  Result<std::vector<Report>> started = StartReports(options, plan.size(), log);
  if (!started) return started.error();
  SessionOutcome outcome;
  outcome.reports = std::move(started).value();
  std::vector<Report>& reports = outcome.reports;
  std::vector<Settings> settings;
  std::vector<TargetInfo> targets;
  for (const Report& report : reports) {
    settings.push_back(report.settings);
    targets.push_back(report.target);
  }
  AllowGracefulInterrupt(true);
  StagesResult stages =
      MeasureStages(settings, targets, plan, options.progress, runner, ops);
  AllowGracefulInterrupt(false);
  for (std::size_t d = 0; d < reports.size(); ++d) {
    FinishReport(reports[d], d, plan, stages, runner.Warnings());
    if (options.find_unit) {
      reports[d].unit = FindUnit(reports[d].pairs, reports[d].target,
                                 reports[d].settings.precision_points);
    }
    outcome.documents.push_back(ResultDocument(
        options, DocumentFor(stages.runner_document, d, reports.size()),
        reports[d]));
    if (d < out_paths.value().size()) {
      std::optional<Error> failed = SaveDocument(out_paths.value()[d], options,
                                                 outcome.documents.back(), log);
      if (failed) outcome.not_saved.push_back(std::move(*failed));
    }
  }
  outcome.fatal = std::move(stages.fatal);
  outcome.interrupted = stages.interrupted;
  return outcome;
}

}  // namespace alignbench
