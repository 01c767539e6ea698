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
#include "lib/base/text.h"
#include "lib/config/options.h"
#include "lib/env/probe.h"
#include "lib/render/beside_post.h"
#include "lib/render/comparison.h"
#include "lib/render/environment.h"
#include "lib/render/many_view.h"
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
  const bool as_json = parsed.format == "json";
  nlohmann::json document;
  Result<Report> report =
      LoadResultFile(operands.front(), as_json ? &document : nullptr);
  if (!report) return ReportError(report.error());
  if (as_json) {
    std::cout << ResultDocumentText(document, true);
    return 0;
  }
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

// --fail-on-regression PCT, read before any file is: 0 or more; nullopt
// where it was not given.
Result<std::optional<double>> RegressionLimit(const ParsedCommand& parsed) {
  if (!parsed.Has("fail-on-regression")) return std::optional<double>();
  const std::string& word = parsed.Value("fail-on-regression");
  double limit = 0;
  std::optional<std::string> why = ParseNumberWord(word, limit);
  if (!why && limit < 0) why = "must be 0 or more, got " + word;
  if (why) {
    return PlainError(ErrorKind::kUsage, "option --fail-on-regression",
                      *why + " (a percentage: 5 for 5 %)");
  }
  return std::optional<double>(limit);
}

// The pairs of each NEW file (every one after the first) firmly slower than
// in the first by more than `limit`, said in one error; nullopt where none.
std::optional<Error> RegressionOf(const std::vector<Report>& reports,
                                  const std::vector<std::string>& operands,
                                  double limit) {
  std::string found;
  for (std::size_t i = 1; i < reports.size(); ++i) {
    std::string pairs;
    for (const Regression& r : Regressions(reports[0], reports[i], limit)) {
      pairs += (pairs.empty() ? "" : "; ") + RegressionText(r);
    }
    if (pairs.empty()) continue;
    found += (found.empty() ? "" : "; ") + operands[i] + ": " + pairs;
  }
  if (found.empty()) return std::nullopt;
  return PlainError(ErrorKind::kRegression,
                    "compare --fail-on-regression " + Printf("%g", limit),
                    "firmly slower than in " + operands[0] +
                        " (the typical or the p99 gain, each named): " + found);
}

// Loads every operand: results, their documents where `documents` is given,
// and at most one ioping post.
Status LoadOperands(const std::vector<std::string>& operands,
                    std::vector<Report>& reports,
                    std::vector<nlohmann::json>* documents,
                    std::optional<IopingPost>& post) {
  for (const std::string& path : operands) {
    nlohmann::json document;
    Result<Report> report =
        LoadResultFile(path, documents ? &document : nullptr);
    if (report) {
      reports.push_back(std::move(report.value()));
      if (documents) documents->push_back(std::move(document));
      continue;
    }
    // Not a result: the 2013 post's summaries, or the result's error.
    Result<std::optional<IopingPost>> other = LoadIopingPost(path);
    if (!other) return other.error();
    if (!other.value()) return report.error();
    if (post) {
      return PlainError(ErrorKind::kUsage, "compare " + path,
                        "one ioping post at a time");
    }
    post = std::move(other.value());
  }
  return Ok{};
}

int CompareCommand(const ParsedCommand& parsed) {
  const std::vector<std::string>& operands = parsed.operands;
  Result<std::optional<double>> limit = RegressionLimit(parsed);
  if (!limit) return ReportError(limit.error());
  const bool as_json = parsed.format == "json";
  std::vector<Report> reports;
  std::vector<nlohmann::json> documents;
  std::optional<IopingPost> post;
  if (Status loaded =
          LoadOperands(operands, reports, as_json ? &documents : nullptr, post);
      !loaded) {
    return ReportError(loaded.error());
  }
  if (post && limit.value()) {
    return ReportError(
        PlainError(ErrorKind::kUsage, "option --fail-on-regression",
                   "compares results with results, not with the ioping post"));
  }
  if (post) return CompareWithPost(parsed, *post, reports);
  // Decided before the table takes the reports; said after it.
  const std::optional<Error> slower =
      limit.value() ? RegressionOf(reports, operands, *limit.value())
                    : std::nullopt;
  if (as_json) {
    std::cout << ResultDocumentText(nlohmann::json(documents), true);
  } else if (operands.size() == 2 && !parsed.Has("format")) {
    RenderComparison(std::cout, reports[0], reports[1]);
  } else {
    RenderMany(std::cout,
               ManyViewOf(LabelResults(std::move(reports), operands)),
               ReportFormat(parsed));
  }
  return slower ? ReportError(*slower) : 0;
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
    case CommandId::kUnit:
      break;
  }
  return ReportError(PlainError(ErrorKind::kSetup, "internal error",
                                "a measuring command is no subcommand"));
}

}  // namespace alignbench
