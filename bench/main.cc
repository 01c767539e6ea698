// alignbench: what does it cost when synchronous writes are not aligned?
// main() reads like a table of contents: parse → signals → probe → measure →
// report.

#include <chrono>
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
#include "lib/report/json.h"
#include "lib/report/json_histogram.h"
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

// The largest file one run needs; only one test file exists at a time.
std::uint64_t LargestRunBytes(const Settings& s) {
  std::uint64_t largest = 0;
  for (std::uint64_t size : s.sizes) {
    largest =
        std::max(largest, s.shift + (s.warmup + s.writes) * size + 2 * 4096);
  }
  return largest;
}

// Everything that can be refused is refused before anything is measured or
// printed: free space, a directory we can create our file in, a result path.
Status CheckBeforeMeasuring(const RunOptions& options) {
  const std::string& dir = options.settings.dir;
  SweepStaleTestFiles(dir, std::cerr);  // first: their space counts below
  if (Status space = CheckFreeSpace(dir, LargestRunBytes(options.settings));
      !space) {
    return space;
  }
  if (Result<TestFile> probe = TestFile::Create(dir); !probe) {
    return probe.error();
  }
  if (options.out) {
    std::vector<std::string> inputs;
    if (options.case_path) inputs.push_back(*options.case_path);
    return CheckResultPath(*options.out, options.overwrite, inputs);
  }
  return Ok{};
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

int RunCommand(const std::string& argv0, const std::vector<std::string>& args) {
  Result<ParsedRun> parsed = ParseRunCommandLine(args);
  if (!parsed) return ReportError(parsed.error());
  if (parsed.value().command == Command::kHelp) {
    std::cout << parsed.value().help;
    return 0;
  }
  if (parsed.value().command == Command::kVersion) {
    std::cout << "alignbench " << kVersion << " ("
              << (*kGitRevision != '\0' ? kGitRevision : "revision unknown")
              << ")\n";
    return 0;
  }
  const RunOptions& options = parsed.value().options;
  const Settings& settings = options.settings;
  if (Status ready = InitializeBenchmark(argv0, options.benchmark_flags);
      !ready) {
    return ReportError(ready.error());
  }
  if (Status ready = CheckBeforeMeasuring(options); !ready) {
    return ReportError(ready.error());
  }

  Report report;
  report.tool_version = kVersion;
  if (*kGitRevision != '\0') report.git_revision = kGitRevision;
  report.command_line.push_back(argv0);
  report.command_line.insert(report.command_line.end(), args.begin(),
                             args.end());
  report.started_at = NowUtc();
  report.settings = settings;
  report.target = ProbeTarget(settings.dir);
  if (Status met = CheckRequirements(settings.case_requires, report.target);
      !met) {
    return ReportError(met.error());
  }
  if (options.redact_host) report.target.host.hostname.reset();
  std::cerr << TargetLine(report.target) << "\n"
            << "measuring " << ExpandPlan(settings).size()
            << " pairs x 2 variants x " << settings.repetitions << " run(s) x "
            << settings.writes << " writes\n";

  // The disk's own traffic, once per plan: a window before every run would
  // add 200 ms to each (52 s to Derby's 260 runs, which measure in about 20).
  std::optional<IdleSample> idle;
  if (report.target.device) {
    idle =
        SampleIdle(settings.dir, report.target.device->StatPath(), kIdleWindow);
  }
  HarnessResult harness = RunHarness(settings, report.target, options.progress);
  report.finished_at = NowUtc();
  report.settings.seed = harness.seed;
  report.pairs = BuildPairs(ExpandPlan(settings), std::move(harness.runs),
                            settings.shift, idle);
  if (std::optional<std::string> shift = LevelShift(report.pairs)) {
    report.warnings.push_back(*shift);
  }
  for (const Shortfall& pair : harness.out_of_budget) {
    std::ostringstream warning;
    warning << FormatSize(pair.spec.size) << " [" << AxesLabel(pair.spec)
            << "]: +-" << settings.precision_points << " points would need "
            << pair.runs_needed << " runs per variant (about "
            << Printf("%.0f", pair.seconds_needed)
            << " s more), which did not fit in the "
            << Printf("%.0f", std::max(0.0, harness.budget_left_seconds))
            << " s of --budget left after the first runs";
    report.warnings.push_back(warning.str());
  }
  if (harness.fatal) {
    report.complete = false;
    report.errors.push_back(harness.fatal->Message());
  }
  NoteBenchmarkContext(harness.benchmark_document, report, options.redact_host);

  // Saved before the table is printed: a reader that closes the pipe early
  // (alignbench --out r.json | head) must not cost the measurement.
  std::optional<Error> not_saved;
  if (options.out) {
    nlohmann::json document = harness.benchmark_document;
    document["alignbench"] = ToJson(report);
    // A directory name that is not UTF-8 must not lose the measurement.
    const std::string text =
        OneLineNumberArrays(document.dump(
            1, ' ', false, nlohmann::json::error_handler_t::replace)) +
        "\n";
    const SaveOutcome saved = SaveResult(*options.out, text, options.overwrite);
    if (saved.status) {
      std::cerr << "result saved to " << EscapeControl(*options.out) << "\n";
    } else {
      not_saved = saved.status.error();
    }
  }
  Render(std::cout, report, options.format);
  // Both can happen (a full disk stops the runs and the result's save): the
  // line that says where the result went must not be lost to the other.
  const int saving = not_saved ? ReportError(*not_saved) : 0;
  if (harness.fatal) return ReportError(*harness.fatal);
  return saving;
}

}  // namespace
}  // namespace alignbench

int main(int argc, char** argv) {
  using namespace alignbench;
  ReserveStandardDescriptors();
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
