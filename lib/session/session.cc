#include "lib/session/session.h"

#include <chrono>
#include <ctime>

#include "lib/env/requirements.h"
#include "lib/io/cleanup.h"
#include "lib/io/space.h"
#include "lib/io/test_file.h"
#include "lib/measure/counters.h"
#include "lib/measure/run.h"
#include "lib/pairs/log_case.h"
#include "lib/render/table.h"
#include "lib/result/json_histogram.h"
#include "lib/result/result_json.h"
#include "lib/session/stages.h"
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

Status CheckBeforeMeasuring(const SessionOptions& options,
                            const std::vector<std::string>& out_paths,
                            std::ostream& log) {
  for (const std::string& dir : options.dirs) {
    SweepStaleTestFiles(dir, log);  // first: their space counts below
    Settings settings = options.settings;
    settings.dir = dir;
    if (Status space = CheckFreeSpace(dir, LargestRunBytes(settings)); !space) {
      return space;
    }
    if (Result<TestFile> probe = TestFile::Create(dir); !probe) {
      return probe.error();
    }
  }
  std::vector<std::string> inputs;
  if (options.case_path) inputs.push_back(*options.case_path);
  for (const std::string& path : out_paths) {
    if (Status ok = CheckResultPath(path, options.overwrite, inputs); !ok) {
      return ok;
    }
  }
  return Ok{};
}

// The runner's document for directory `dir` of `dirs`: with several, only
// the runs measured there (named alignbench/dirN/...).
nlohmann::json DocumentFor(const nlohmann::json& document, std::size_t dir,
                           std::size_t dirs) {
  if (dirs == 1 || !document.is_object() || !document.contains("benchmarks")) {
    return document;
  }
  nlohmann::json mine = document;
  mine["benchmarks"] = nlohmann::json::array();
  const std::string prefix = "alignbench/dir" + std::to_string(dir + 1) + "/";
  for (const nlohmann::json& entry : document["benchmarks"]) {
    if (entry.value("name", "").rfind(prefix, 0) == 0) {
      mine["benchmarks"].push_back(entry);
    }
  }
  return mine;
}

// A runner without a document (PlainRunner) leaves an empty object: the
// result file then carries the alignbench section only.
void NoteRunnerContext(nlohmann::json& document, bool redact_host) {
  if (!document.is_object()) {
    document = nlohmann::json::object();
    return;
  }
  if (redact_host && document.contains("context")) {
    document["context"].erase("host_name");
  }
}

// The report's header: who made it, how, when, with what settings, where.
Report StartReport(const SessionOptions& options, const Settings& settings) {
  Report report;
  report.tool_version = kVersion;
  if (*kGitRevision != '\0') report.git_revision = kGitRevision;
  report.command_line = options.command_line;
  report.started_at = NowUtc();
  report.settings = settings;
  report.target = ProbeTarget(settings.dir);
  return report;
}

// One report per directory, each with its probe; refused where a case's
// requirement is not met there.
Result<std::vector<Report>> StartReports(const SessionOptions& options,
                                         std::ostream& log) {
  std::vector<Report> reports;
  for (const std::string& dir : options.dirs) {
    Settings settings = options.settings;
    settings.dir = dir;
    Report report = StartReport(options, settings);
    if (Status met = CheckRequirements(settings.case_requires, report.target);
        !met) {
      return met.error();
    }
    if (options.redact_host) report.target.host.hostname.reset();
    log << TargetLine(report.target) << "\n";
    reports.push_back(std::move(report));
  }
  const Settings& s = options.settings;
  log << "measuring " << ExpandPlan(s).size() << " pairs x 2 variants x "
      << s.repetitions << " run(s) x " << s.writes << " writes";
  if (reports.size() > 1) {
    log << " in each of " << reports.size() << " directories, interleaved";
  }
  log << "\n";
  return reports;
}

// What the runs of one directory say: pairs, their warnings, and the error
// that stopped the schedule.
void FinishReport(Report& report, std::vector<CollectedRun> runs,
                  const std::vector<PairSpec>& plan,
                  const std::vector<PairRounds>& rounds,
                  const StagesResult& stages,
                  const std::vector<std::optional<IdleSample>>& idle) {
  const Settings& settings = report.settings;
  report.finished_at = NowUtc();
  report.settings.seed = stages.seed;
  report.pairs = BuildPairs(plan, std::move(runs), settings.shift, idle);
  ExplainLogPairs(settings, report.pairs);
  // The printers read these from the result, never from the rules again.
  RecordForPrinters(report);
  if (std::optional<std::string> shift = LevelShift(report.pairs)) {
    report.warnings.push_back(*shift);
  }
  for (std::size_t i = 0; i < rounds.size() && i < report.pairs.size(); ++i) {
    report.pairs[i].rounds = rounds[i];
    const std::string short_of =
        PrecisionWarning(report.pairs[i], settings.precision_points);
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

// Returns the error when the result went to a fallback file instead.
std::optional<Error> SaveReport(const std::string& path, Overwrite overwrite,
                                nlohmann::json document, const Report& report,
                                std::ostream& log) {
  document["alignbench"] = ToJson(report);
  // A directory name that is not UTF-8 must not lose the measurement.
  const std::string text =
      OneLineNumberArrays(document.dump(
          1, ' ', false, nlohmann::json::error_handler_t::replace)) +
      "\n";
  const SaveOutcome saved = SaveResult(path, text, overwrite);
  if (!saved.status) return saved.status.error();
  log << "result saved to " << EscapeControl(path) << "\n";
  return std::nullopt;
}

}  // namespace

Result<SessionOutcome> RunSession(const SessionOptions& options, Runner& runner,
                                  FileOps& ops, std::ostream& log) {
  const std::vector<std::string> out_paths =
      options.out ? ResultPaths(*options.out, options.dirs)
                  : std::vector<std::string>{};
  if (Status ready = CheckBeforeMeasuring(options, out_paths, log); !ready) {
    return ready.error();
  }
  Result<std::vector<Report>> started = StartReports(options, log);
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
      MeasureStages(settings, targets, options.progress, runner, ops);
  AllowGracefulInterrupt(false);
  for (std::size_t d = 0; d < reports.size(); ++d) {
    FinishReport(
        reports[d], std::move(stages.runs[d]), stages.pairs[d],
        d < stages.rounds.size() ? stages.rounds[d] : std::vector<PairRounds>{},
        stages, stages.idle[d]);
    CheckWriteCacheUnchanged(reports[d]);
    for (const std::string& warning : runner.Warnings()) {
      reports[d].warnings.push_back(warning);
    }
    nlohmann::json document =
        DocumentFor(stages.runner_document, d, reports.size());
    NoteRunnerContext(document, options.redact_host);
    if (d < out_paths.size()) {
      std::optional<Error> failed = SaveReport(out_paths[d], options.overwrite,
                                               document, reports[d], log);
      if (failed) outcome.not_saved.push_back(std::move(*failed));
    }
  }
  outcome.fatal = std::move(stages.fatal);
  outcome.interrupted = stages.interrupted;
  return outcome;
}

}  // namespace alignbench
