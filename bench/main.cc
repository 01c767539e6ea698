// alignbench: what does it cost when synchronous writes are not aligned?
// main() reads like a table of contents: parse → signals → probe → measure →
// report.
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "bench/cli.h"
#include "bench/harness.h"
#include "bench/subcommands.h"
#include "lib/io/cleanup.h"
#include "lib/io/space.h"
#include "lib/report/json.h"
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

// The largest file one run needs; only one test file exists at a time.
std::uint64_t LargestRunBytes(const Settings& s) {
  std::uint64_t largest = 0;
  for (std::uint64_t size : s.sizes) {
    largest =
        std::max(largest, s.shift + (s.warmup + s.writes) * size + 2 * 4096);
  }
  return largest;
}

int RunCommand(const std::string& argv0, const std::vector<std::string>& args) {
  Result<ParsedRun> parsed = ParseRunCommandLine(args);
  if (!parsed) return ReportError(parsed.error());
  if (parsed.value().command == Command::kHelp) {
    std::cout << parsed.value().help;
    return 0;
  }
  if (parsed.value().command == Command::kVersion) {
    std::cout << "alignbench " << kVersion << " (" << kGitRevision << ")\n";
    return 0;
  }
  const RunOptions& options = parsed.value().options;
  const Settings& settings = options.settings;
  if (Status space = CheckFreeSpace(settings.dir, LargestRunBytes(settings));
      !space) {
    return ReportError(space.error());
  }

  Report report;
  report.tool_version = kVersion;
  report.git_revision = kGitRevision;
  report.command_line.push_back(argv0);
  report.command_line.insert(report.command_line.end(), args.begin(),
                             args.end());
  report.started_at = NowUtc();
  report.settings = settings;
  report.target = ProbeTarget(settings.dir);
  if (options.redact_host) report.target.host.hostname.reset();
  std::cerr << TargetLine(report.target) << "\n"
            << "measuring " << ExpandPlan(settings).size()
            << " pairs x 2 variants x " << settings.repetitions
            << " repetition(s) x " << settings.writes << " writes\n";

  Result<HarnessResult> measured =
      RunHarness(settings, report.target, argv0, options.benchmark_flags);
  if (!measured) return ReportError(measured.error());
  HarnessResult& harness = measured.value();
  report.finished_at = NowUtc();
  report.pairs = BuildPairs(ExpandPlan(settings), harness.runs, settings.shift);
  if (harness.fatal) {
    report.complete = false;
    report.errors.push_back(harness.fatal->Message());
  }
  const auto& context =
      harness.benchmark_document.value("context", nlohmann::json::object());
  if (context.value("library_build_type", "") == "debug") {
    report.warnings.push_back(
        "Google Benchmark is a debug build (Debian's libbenchmark 1.7.1); it "
        "only registers "
        "and reports here, every write+sync is timed by alignbench itself");
  }
  Render(std::cout, report, options.format);

  if (options.out) {
    nlohmann::json document = harness.benchmark_document;
    document["alignbench"] = ToJson(report);
    if (Status saved =
            WriteFileAtomically(*options.out, document.dump(1) + "\n");
        !saved) {
      return ReportError(saved.error());
    }
    std::cerr << "result saved to " << *options.out << "\n";
  }
  if (harness.fatal) return ReportError(*harness.fatal);
  return 0;
}

}  // namespace
}  // namespace alignbench

int main(int argc, char** argv) {
  using namespace alignbench;
  InstallSignalCleanup();
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (!args.empty()) {
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      if (args[0] == "env") return EnvCommand(rest);
      if (args[0] == "show") return ShowCommand(rest);
      if (args[0] == "compare") return CompareCommand(rest);
    }
    return RunCommand(argv[0], args);
  } catch (const std::exception& e) {
    // Nothing should reach here; if something does, it is still one line, not
    // an abort.
    return ReportError(
        PlainError(ErrorKind::kSetup, "internal error", e.what()));
  }
}
