#include "bench/subcommands.h"

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
#include "lib/render/comparison.h"
#include "lib/render/n_way_table.h"
#include "lib/render/table.h"
#include "lib/result/escape.h"
#include "lib/result/result_json.h"

namespace alignbench {
namespace {

Error Usage(const std::string& what) {
  return PlainError(ErrorKind::kUsage, "command line", what);
}

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") return true;
  }
  return false;
}

int PrintUsage(const char* usage, const char* what) {
  std::cout << "Usage: " << usage << "\n" << what << "\n";
  return FinishStdout(0);
}

// Subcommands take operands only (show's --format aside); an option here is a
// mistake, not a file name.
Status CheckOperands(const std::vector<std::string>& operands, std::size_t min,
                     std::size_t max, const std::string& command) {
  for (const std::string& arg : operands) {
    if (arg.rfind("-", 0) == 0) {
      return Usage(command + ": unknown option '" + arg + "'");
    }
  }
  if (operands.size() < min || operands.size() > max) {
    return Usage(command + " takes " +
                 (min == max
                      ? std::to_string(min)
                      : std::to_string(min) + " to " + std::to_string(max)) +
                 " operand(s), got " + std::to_string(operands.size()));
  }
  return Ok{};
}

// Splits `--format NAME` / `--format=NAME` (the only option a subcommand
// takes) from the operands. Given twice it is refused, as a run refuses it:
// one grammar for every command.
Result<std::optional<std::string>> SplitFormatOption(
    const std::vector<std::string>& args, std::vector<std::string>& operands) {
  std::optional<std::string> name;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool is_format =
        args[i] == "--format" || args[i].rfind("--format=", 0) == 0;
    if (is_format && name) {
      return Usage("option '--format' cannot be specified more than once");
    }
    if (args[i] == "--format") {
      if (i + 1 == args.size()) return Usage("--format needs a value");
      name = args[++i];
    } else if (args[i].rfind("--format=", 0) == 0) {
      name = args[i].substr(9);
    } else {
      operands.push_back(args[i]);
    }
  }
  return name;
}

// compare's formats: show's but derby (one result's rows only).
Result<Format> CompareFormat(const std::optional<std::string>& name) {
  if (!name) return Format::kTable;
  auto parsed = FromName(kFormats, *name);
  if (!parsed || *parsed == Format::kDerby) {
    return Usage("unknown format '" + *name +
                 "' (expected table, markdown, csv)");
  }
  return *parsed;
}

// More result files than a table can show side by side.
constexpr std::size_t kMaxCompared = 64;

}  // namespace

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

int EnvCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    return PrintUsage(
        "alignbench env [DIR] [--format text|json]",
        "Prints what alignbench knows about DIR (default .): host, "
        "filesystem, block device and its write cache. json is the result "
        "file's \"environment\" object, for scripts: never parse the text.");
  }
  std::vector<std::string> operands;
  Result<std::optional<std::string>> format = SplitFormatOption(args, operands);
  if (!format) return ReportError(format.error());
  const std::string name = format.value().value_or("text");
  if (name != "text" && name != "json") {
    return ReportError(
        Usage("unknown format '" + name + "' (expected text, json)"));
  }
  if (Status ok = CheckOperands(operands, 0, 1, "env"); !ok)
    return ReportError(ok.error());
  const std::string dir = operands.empty() ? "." : operands[0];
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return ReportError(SystemError(ErrorKind::kSetup, "stat", dir, errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return ReportError(SystemError(ErrorKind::kSetup, "env", dir, ENOTDIR));
  }
  if (name == "json") {
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
  return FinishStdout(0);
}

int ShowCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    return PrintUsage(
        "alignbench show FILE [--format table|derby|markdown|csv]",
        "Renders a saved result again, in any format.");
  }
  std::vector<std::string> operands;
  Result<std::optional<std::string>> name = SplitFormatOption(args, operands);
  if (!name) return ReportError(name.error());
  Format format = Format::kTable;
  if (const std::optional<std::string>& given = name.value()) {
    auto parsed = FromName(kFormats, *given);
    if (!parsed) {
      return ReportError(Usage("unknown format '" + *given + "' (expected " +
                               NameList(kFormats) + ")"));
    }
    format = *parsed;
  }
  if (Status ok = CheckOperands(operands, 1, 1, "show"); !ok) {
    return ReportError(ok.error());
  }
  Result<Report> report = LoadResultFile(operands.front());
  if (!report) return ReportError(report.error());
  RenderRun(std::cout, {report.value()}, format);
  return FinishStdout(0);
}

int CompareCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    return PrintUsage(
        "alignbench compare FILE FILE... [--format table|markdown|csv]",
        "Two files without --format: BASE and NEW side by side, pairs matched "
        "by size and settings, the change in each mean and p99, and every "
        "setting that differs.\n"
        "Three or more files, or --format: one table for all of them, per "
        "pair a column group per file (labelled host / disk model / "
        "directory: %gain at the centre of its 95% interval, the interval, "
        "the verdict), then every setting and "
        "environment field that differs between them. csv is one row per "
        "file and pair.");
  }
  std::vector<std::string> operands;
  Result<std::optional<std::string>> name = SplitFormatOption(args, operands);
  if (!name) return ReportError(name.error());
  Result<Format> format = CompareFormat(name.value());
  if (!format) return ReportError(format.error());
  if (Status ok = CheckOperands(operands, 2, kMaxCompared, "compare"); !ok) {
    return ReportError(ok.error());
  }
  std::vector<Report> reports;
  for (const std::string& path : operands) {
    Result<Report> report = LoadResultFile(path);
    if (!report) return ReportError(report.error());
    reports.push_back(std::move(report.value()));
  }
  if (operands.size() == 2 && !name.value()) {
    RenderComparison(std::cout, reports[0], reports[1]);
  } else {
    RenderMany(std::cout, LabelResults(std::move(reports), operands),
               format.value());
  }
  return FinishStdout(0);
}

}  // namespace alignbench
