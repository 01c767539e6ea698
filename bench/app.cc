#include "bench/app.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench/gbench_runner.h"
#include "lib/cli/cli.h"
#include "lib/cli/subcommands.h"
#include "lib/io/cleanup.h"
#include "lib/render/run_output.h"
#include "lib/result/result_json.h"
#include "lib/session/session.h"
#include "lib/version.h"

namespace alignbench {
namespace {

int Measure(const std::string& argv0, const std::vector<std::string>& args,
            const RunOptions& options, FileOps& ops) {
  if (Status ready = InitializeBenchmark(argv0, options.benchmark_flags);
      !ready) {
    return ReportError(ready.error());
  }
  SessionOptions session = options.session;
  session.command_line = {argv0};
  session.command_line.insert(session.command_line.end(), args.begin(),
                              args.end());
  GoogleBenchmarkRunner runner;
  Result<SessionOutcome> ran = RunSession(session, runner, ops, std::cerr);
  if (!ran) return ReportError(ran.error());
  const SessionOutcome& outcome = ran.value();
  if (options.result_json) {
    // The document --out saves; several directories' in one array.
    const std::vector<nlohmann::json>& documents = outcome.documents;
    std::cout << ResultDocumentText(
        documents.size() == 1 ? documents.front() : nlohmann::json(documents),
        true);
  } else {
    RenderRun(std::cout, outcome.reports, options.format, options.detail);
  }
  // Both can happen (a full disk stops the runs and the result's save): the
  // line that says where a result went must not be lost to the other.
  int saving = 0;
  for (const Error& error : outcome.not_saved) saving = ReportError(error);
  if (outcome.fatal) return ReportError(*outcome.fatal);
  if (outcome.interrupted) {
    std::cerr << "alignbench: interrupted: the result holds the runs measured "
                 "before the interruption\n";
    return kExitInterrupted;
  }
  return saving;
}

int Dispatch(const std::string& argv0, const std::vector<std::string>& args,
             FileOps& ops) {
  Result<ParsedCommand> parsed = ParseCommandLine(args);
  if (!parsed) return ReportError(parsed.error());
  const ParsedCommand& given = parsed.value();
  if (given.Has("help")) {
    std::cout << HelpText(*given.command);
    return 0;
  }
  const CommandId id = given.command->id;
  if (id != CommandId::kRun && id != CommandId::kUnit) {
    return RunSubcommand(given);
  }
  if (given.Has("version")) {
    std::cout << "alignbench " << kVersion << " ("
              << (*kGitRevision != '\0' ? kGitRevision : "revision unknown")
              << ")\n";
    return 0;
  }
  Result<RunOptions> options = RunOptionsOf(given);
  if (!options) return ReportError(options.error());
  return Measure(argv0, args, options.value(), ops);
}

}  // namespace

int AlignbenchMain(int argc, char** argv, FileOps& ops) {
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
    // The one flush of standard output, for every command.
    const int exit_code = Dispatch(argv[0], args, ops);
    return FinishStdout(exit_code);
  } catch (const std::exception& e) {
    // Nothing should reach here; if something does, it is still one line, not
    // an abort.
    return ReportError(
        PlainError(ErrorKind::kSetup, "internal error", e.what()));
  }
}

}  // namespace alignbench
