#include "lib/cli/subcommands.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <new>
#include <optional>

#include "lib/base/memory.h"
#include "lib/env/probe.h"
#include "lib/render/beside_post.h"
#include "lib/render/comparison.h"
#include "lib/render/environment.h"
#include "lib/render/n_way_table.h"
#include "lib/render/run_output.h"
#include "lib/render/writers.h"
#include "lib/result/escape.h"
#include "lib/result/ioping_post.h"
#include "lib/result/result_json.h"

namespace alignbench {

int ReportError(const Error& given) {
  Error error = given;
  // The last resort for an allocation that failed where nothing caught it
  // with more to say: still what happened and what to do, not "internal".
  if (error.operation == "internal error" &&
      error.detail == std::bad_alloc().what()) {
    error = PlainError(ErrorKind::kSetup, "allocate memory", "out of memory");
    error.hint = OutOfMemoryHint(
        "ask for less (smaller --sizes, fewer --writes or --repetitions)");
  }
  std::cerr << "alignbench: error: " << EscapeControl(error.Message()) << "\n";
  if (error.kind == ErrorKind::kUsage)
    std::cerr << "Try 'alignbench --help'.\n";
  return ExitCodeFor(error.kind);
}

void ReserveStandardDescriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() returns the lowest free descriptor, which is this one.
    ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
  }
}

int FinishStdout(int exit_code) {
  errno = 0;
  std::cout.flush();
  const bool failed =
      std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout.good();
  if (!failed) return exit_code;
  // errno is the final flush's; a write that failed earlier may have left it 0.
  const int saved = errno != 0 ? errno : EIO;
  if (exit_code != 0) return exit_code;  // the first error has been said
  return ReportError(
      SystemError(ErrorKind::kIo, "write", "standard output", saved));
}

int EnvCommand(const ParsedCommand& parsed) {
  const std::vector<std::string>& operands = parsed.operands;
  const std::string dir = operands.empty() ? "." : operands[0];
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return ReportError(SystemError(ErrorKind::kSetup, "stat", dir, errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return ReportError(SystemError(ErrorKind::kSetup, "env", dir, ENOTDIR));
  }
  if (parsed.format == "json") {
    // A directory name need not be UTF-8: replaced, not an exception. Every
    // character past ASCII as a \u escape: C1 and bidirectional controls in a
    // name must not reach the terminal raw, and the JSON means the same.
    std::cout << EnvironmentJson(ProbeTarget(dir))
                     .dump(1, ' ', true,
                           nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    RenderEnvironment(std::cout, ProbeTarget(dir));
  }
  return 0;
}

int ShowCommand(const ParsedCommand& parsed) {
  const std::vector<std::string>& operands = parsed.operands;
  Result<Report> report = LoadResultFile(operands.front());
  if (!report) return ReportError(report.error());
  RenderRun(std::cout, {report.value()}, ReportFormat(parsed),
            ReportDetail(parsed));
  return 0;
}

// compare with the 2013 post's file among its operands: the post beside the
// runs, in the one format that has.
int CompareWithPost(const ParsedCommand& parsed, const IopingPost& post,
                    const std::vector<Report>& runs) {
  if (parsed.Has("format")) {
    return ReportError(PlainError(
        ErrorKind::kUsage, "compare",
        "the ioping post is set beside runs in one format; leave --format "
        "out"));
  }
  if (runs.empty()) {
    return ReportError(PlainError(ErrorKind::kUsage, "compare",
                                  "the ioping post needs a run beside it"));
  }
  RenderBesidePost(std::cout, post, runs);
  return 0;
}

int CompareCommand(const ParsedCommand& parsed) {
  const std::vector<std::string>& operands = parsed.operands;
  std::vector<Report> reports;
  std::optional<IopingPost> post;
  for (const std::string& path : operands) {
    Result<Report> report = LoadResultFile(path);
    if (report) {
      reports.push_back(std::move(report.value()));
      continue;
    }
    // Not a result: the 2013 post's summaries, or the result's error.
    Result<std::optional<IopingPost>> other = LoadIopingPost(path);
    if (!other) return ReportError(other.error());
    if (!other.value()) return ReportError(report.error());
    if (post) {
      return ReportError(PlainError(ErrorKind::kUsage, "compare " + path,
                                    "one ioping post at a time"));
    }
    post = std::move(other.value());
  }
  if (post) return CompareWithPost(parsed, *post, reports);
  if (operands.size() == 2 && !parsed.Has("format")) {
    RenderComparison(std::cout, reports[0], reports[1]);
  } else {
    RenderMany(std::cout, LabelResults(std::move(reports), operands),
               ReportFormat(parsed));
  }
  return 0;
}

int RunSubcommand(const ParsedCommand& parsed) {
  switch (parsed.command->id) {
    case CommandId::kEnv:
      return EnvCommand(parsed);
    case CommandId::kShow:
      return ShowCommand(parsed);
    case CommandId::kCompare:
      return CompareCommand(parsed);
    case CommandId::kRecord:
      return RecordCommand(parsed);
    case CommandId::kRun:
      break;
  }
  return ReportError(PlainError(ErrorKind::kSetup, "internal error",
                                "the run is no subcommand"));
}

}  // namespace alignbench
