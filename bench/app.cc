// alignbench: what does it cost when synchronous writes are not aligned?
// main() reads like a table of contents: parse → signals → probe → measure →
// report.

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/cli.h"
#include "bench/harness.h"
#include "bench/subcommands.h"
#include "lib/config/size.h"
#include "lib/env/requirements.h"
#include "lib/io/cleanup.h"
#include "lib/io/file_io.h"
#include "lib/io/result_file.h"
#include "lib/io/space.h"
#include "lib/io/test_file.h"
#include "lib/measure/run.h"
#include "lib/report/json.h"
#include "lib/report/json_histogram.h"
#include "lib/report/log_report.h"
#include "lib/report/many.h"
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

// How long the disk is watched, idle, before measuring: long enough to catch
// a journal commit or a neighbour's writes, short beside any plan.
constexpr std::chrono::milliseconds kIdleWindow{200};

// Everything that can be refused is refused before anything is measured or
// printed: in every directory free space and a file we can create; every
// result path.
Status CheckBeforeMeasuring(const RunOptions& options,
                            const std::vector<std::string>& out_paths) {
  for (const std::string& dir : options.dirs) {
    SweepStaleTestFiles(dir, std::cerr);  // first: their space counts below
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

// Google Benchmark's document for directory `dir` of `dirs`: with several,
// only the benchmarks measured there (named alignbench/dirN/...).
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

void NoteBenchmarkContext(nlohmann::json& document, Report& report,
                          bool redact_host) {
  if (!document.is_object()) {
    report.warnings.push_back(
        "Google Benchmark's JSON could not be parsed; the result file carries "
        "only the alignbench section");
    document = nlohmann::json::object();
    return;
  }
  if (!document.contains("context")) return;
  nlohmann::json& context = document["context"];
  if (redact_host) context.erase("host_name");
  if (context.value("library_build_type", "") == "debug") {
    report.warnings.push_back(
        "Google Benchmark is a debug build (Debian's libbenchmark 1.7.1); it "
        "only registers and reports here, every write+sync is timed by "
        "alignbench itself");
  }
}

// The report's header: who made it, how, when, with what settings, where.
Report StartReport(const std::string& argv0,
                   const std::vector<std::string>& args,
                   const Settings& settings) {
  Report report;
  report.tool_version = kVersion;
  if (*kGitRevision != '\0') report.git_revision = kGitRevision;
  report.command_line.push_back(argv0);
  report.command_line.insert(report.command_line.end(), args.begin(),
                             args.end());
  report.started_at = NowUtc();
  report.settings = settings;
  report.target = ProbeTarget(settings.dir);
  return report;
}

// What the runs of one directory say: pairs, their warnings, and the error
// that stopped the schedule.
void FinishReport(Report& report, std::vector<CollectedRun> runs,
                  const std::vector<Shortfall>& shortfalls,
                  const HarnessResult& harness,
                  const std::optional<IdleSample>& idle) {
  const Settings& settings = report.settings;
  report.finished_at = NowUtc();
  report.settings.seed = harness.seed;
  report.pairs =
      BuildPairs(ExpandPlan(settings), std::move(runs), settings.shift, idle);
  ExplainLogPairs(settings, report.pairs);
  if (std::optional<std::string> shift = LevelShift(report.pairs)) {
    report.warnings.push_back(*shift);
  }
  for (const Shortfall& pair : shortfalls) {
    report.warnings.push_back(BudgetWarning(pair, settings.precision_points,
                                            harness.budget_left_seconds));
  }
  if (harness.fatal) {
    report.complete = false;
    report.errors.push_back(harness.fatal->Message());
  }
}

// Saved before the table is printed: a reader that closes the pipe early
// (alignbench --out r.json | head) must not cost the measurement. Returns the
// error when the result went to a fallback file instead.
std::optional<Error> SaveReport(const std::string& path, Overwrite overwrite,
                                nlohmann::json document, const Report& report) {
  document["alignbench"] = ToJson(report);
  // A directory name that is not UTF-8 must not lose the measurement.
  const std::string text =
      OneLineNumberArrays(document.dump(
          1, ' ', false, nlohmann::json::error_handler_t::replace)) +
      "\n";
  const SaveOutcome saved = SaveResult(path, text, overwrite);
  if (!saved.status) return saved.status.error();
  std::cerr << "result saved to " << EscapeControl(path) << "\n";
  return std::nullopt;
}

// One report per directory, each with its probe; refused where a case's
// requirement is not met there.
Result<std::vector<Report>> StartReports(const std::string& argv0,
                                         const std::vector<std::string>& args,
                                         const RunOptions& options) {
  std::vector<Report> reports;
  for (const std::string& dir : options.dirs) {
    Settings settings = options.settings;
    settings.dir = dir;
    Report report = StartReport(argv0, args, settings);
    if (Status met = CheckRequirements(settings.case_requires, report.target);
        !met) {
      return met.error();
    }
    if (options.redact_host) report.target.host.hostname.reset();
    std::cerr << TargetLine(report.target) << "\n";
    reports.push_back(std::move(report));
  }
  const Settings& s = options.settings;
  std::cerr << "measuring " << ExpandPlan(s).size() << " pairs x 2 variants x "
            << s.repetitions << " run(s) x " << s.writes << " writes";
  if (reports.size() > 1) {
    std::cerr << " in each of " << reports.size()
              << " directories, interleaved";
  }
  std::cerr << "\n";
  return reports;
}

int Measure(const std::string& argv0, const std::vector<std::string>& args,
            const RunOptions& options) {
  if (Status ready = InitializeBenchmark(argv0, options.benchmark_flags);
      !ready) {
    return ReportError(ready.error());
  }
  const std::vector<std::string> out_paths =
      options.out ? ResultPaths(*options.out, options.dirs)
                  : std::vector<std::string>{};
  if (Status ready = CheckBeforeMeasuring(options, out_paths); !ready) {
    return ReportError(ready.error());
  }
  Result<std::vector<Report>> started = StartReports(argv0, args, options);
  if (!started) return ReportError(started.error());
  std::vector<Report>& reports = started.value();
  std::vector<Settings> settings;
  std::vector<TargetInfo> targets;
  // The disk's own traffic, once per plan and directory: a window before
  // every run would add 200 ms to each (52 s to Derby's 260 runs, which
  // measure in about 20).
  std::vector<std::optional<IdleSample>> idle;
  for (const Report& report : reports) {
    settings.push_back(report.settings);
    targets.push_back(report.target);
    idle.emplace_back();
    if (report.target.device) {
      idle.back() = SampleIdle(report.settings.dir,
                               report.target.device->StatPath(), kIdleWindow);
    }
  }
  HarnessResult harness = RunHarness(settings, targets, options.progress);
  std::vector<Error> not_saved;
  for (std::size_t d = 0; d < reports.size(); ++d) {
    FinishReport(reports[d], std::move(harness.runs[d]),
                 harness.out_of_budget[d], harness, idle[d]);
    nlohmann::json document =
        DocumentFor(harness.benchmark_document, d, reports.size());
    NoteBenchmarkContext(document, reports[d], options.redact_host);
    if (d < out_paths.size()) {
      std::optional<Error> failed =
          SaveReport(out_paths[d], options.overwrite, document, reports[d]);
      if (failed) not_saved.push_back(std::move(*failed));
    }
  }
  RenderRun(std::cout, reports, options.format);
  // Both can happen (a full disk stops the runs and the result's save): the
  // line that says where a result went must not be lost to the other.
  int saving = 0;
  for (const Error& error : not_saved) saving = ReportError(error);
  if (harness.fatal) return ReportError(*harness.fatal);
  return saving;
}

int RunCommand(const std::string& argv0, const std::vector<std::string>& args) {
  Result<ParsedRun> parsed = ParseRunCommandLine(args);
  if (!parsed) return ReportError(parsed.error());
  switch (parsed.value().command) {
    case Command::kHelp:
      std::cout << parsed.value().help;
      return 0;
    case Command::kVersion:
      std::cout << "alignbench " << kVersion << " ("
                << (*kGitRevision != '\0' ? kGitRevision : "revision unknown")
                << ")\n";
      return 0;
    case Command::kRun:
      break;
  }
  return Measure(argv0, args, parsed.value().options);
}

}  // namespace
}  // namespace alignbench

int main(int argc, char** argv) {
  using namespace alignbench;
  ReserveStandardDescriptors();
  // Everything printed waits in one buffer for FinishStdout's flush, so that
  // a failing stdout (a full disk, a closed pipe) is reported with the errno
  // of that one write; with stdio's 4 KiB a longer text (--help) failed in an
  // earlier write whose errno was gone by the end. Outputs are far smaller.
  static char stdout_buffer[1 << 20];
  std::setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  InstallSignalCleanup();
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (!args.empty()) {
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      if (args[0] == "env") return EnvCommand(rest);
      if (args[0] == "show") return ShowCommand(rest);
      if (args[0] == "compare") return CompareCommand(rest);
    }
    return FinishStdout(RunCommand(argv[0], args));
  } catch (const std::exception& e) {
    // Nothing should reach here; if something does, it is still one line, not
    // an abort.
    return ReportError(
        PlainError(ErrorKind::kSetup, "internal error", e.what()));
  }
}
