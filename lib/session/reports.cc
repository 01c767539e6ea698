#include "lib/session/reports.h"

#include <ctime>

#include "lib/config/case_file.h"
#include "lib/env/requirements.h"
#include "lib/pairs/explain.h"
#include "lib/pairs/log_case.h"
#include "lib/render/report_parts.h"
#include "lib/version.h"

namespace alignbench {
namespace {

std::string NowUtc() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Report StartReport(const SessionOptions& options, const std::string& dir) {
  Report report;
  report.tool_version = kVersion;
  if (*kGitRevision != '\0') report.git_revision = kGitRevision;
  if (*kBuildType != '\0') report.build_type = kBuildType;
  report.command_line = options.command_line;
  report.started_at = NowUtc();
  report.settings = options.settings;
  report.settings.dir = dir;
  report.target = ProbeTarget(dir);
  return report;
}

// The write cache read again at the end: a result measured partly under
// another setting (a cache-matrix run next door, an admin) must not carry the
// first setting's label without a word.
void CheckWriteCacheUnchanged(Report& report) {
  const std::optional<DeviceInfo>& device = report.target.device;
  if (!device || !device->write_cache) return;
  const std::optional<std::string> now = ReadWriteCache(*device);
  if (!now || *now == *device->write_cache) return;
  report.warnings.push_back(
      "the write cache of " + EscapeControl(device->disk) +
      " changed during the run: '" + EscapeControl(*device->write_cache) +
      "' at the start, '" + EscapeControl(*now) +
      "' at the end; the runs mix both settings, and the environment names "
      "the first");
}

}  // namespace

Result<std::vector<Report>> StartReports(const SessionOptions& options,
                                         std::size_t pairs, std::ostream& log) {
  std::vector<Report> reports;
  for (const std::string& dir : options.dirs) {
    Report report = StartReport(options, dir);
    if (Status met =
            CheckRequirements(report.settings.case_requires, report.target);
        !met) {
      return met.error();
    }
    if (options.redact_host) report.target.host.hostname.reset();
    log << TargetLine(report.target) << "\n";
    reports.push_back(std::move(report));
  }
  const Settings& s = options.settings;
  log << "measuring " << pairs << (pairs == 1 ? " pair" : " pairs")
      << " x 2 variants x " << s.repetitions << " run(s) x " << s.writes
      << " writes";
  if (reports.size() > 1) {
    log << " in each of " << reports.size() << " directories, interleaved";
  }
  log << "\n";
  return reports;
}

void FinishReport(Report& report, std::size_t dir,
                  const std::vector<PairSpec>& plan, StagesResult& stages,
                  const std::vector<std::string>& runner_warnings) {
  const Settings& settings = report.settings;
  report.finished_at = NowUtc();
  report.settings.seed = stages.seed;
  report.pairs =
      BuildPairs(plan, std::move(stages.runs[dir]), stages.idle[dir]);
  if (dir < stages.device_sources.size()) {
    report.device_account = stages.device_sources[dir];
  }
  ExplainLogPairs(settings, report.pairs);
  if (std::optional<std::string> shape = GroupShapeWarning(settings)) {
    report.warnings.push_back(*shape);
  }
  if (settings.replay) {
    for (const std::string& note : settings.replay->notes) {
      report.warnings.push_back("replay: " + note);
    }
  }
  // A replay's pairs explained again with the bytes each variant writes by
  // design: an aligned layout that writes more is then said.
  if (RecordReplayBytes(report)) {
    for (PairResult& pair : report.pairs) {
      pair.explanation = Explain(pair, pair.spec.shift);
      pair.mechanisms = MechanismsOf(pair);
    }
  }
  // The printers read these from the result, never from the rules again.
  RecordForPrinters(report);
  if (std::optional<std::string> shift = LevelShift(report.pairs)) {
    report.warnings.push_back(*shift);
  }
  if (dir < stages.rounds.size()) {
    const std::vector<PairRounds>& rounds = stages.rounds[dir];
    for (std::size_t i = 0; i < rounds.size() && i < report.pairs.size(); ++i) {
      report.pairs[i].rounds = rounds[i];
    }
    const std::string short_of =
        PrecisionWarnings(report.pairs, settings.precision_points);
    if (!short_of.empty()) report.warnings.push_back(short_of);
  }
  if (stages.fatal) {
    report.complete = false;
    report.errors.push_back(stages.fatal->Message());
  }
  if (stages.interrupted) {
    report.complete = false;
    report.errors.push_back(
        "interrupted (SIGINT): the runs measured before it are kept, the "
        "run it came in is recorded as failed, the rest were not measured");
  }
  CheckWriteCacheUnchanged(report);
  for (const std::string& warning : runner_warnings) {
    report.warnings.push_back(warning);
  }
}

}  // namespace alignbench
