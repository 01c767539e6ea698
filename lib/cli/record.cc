#include "lib/cli/record.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "lib/cli/subcommands.h"
#include "lib/io/cleanup.h"
#include "lib/io/file_io.h"
#include "lib/io/result_file.h"
#include "lib/trace/case_of_trace.h"
#include "lib/trace/files_before.h"
#include "lib/trace/processes.h"
#include "lib/trace/strace.h"

namespace alignbench {
namespace {

using nlohmann::json;

// strace's output of a long-running server can be large; past this it is
// refused rather than read into memory.
constexpr std::uint64_t kMaxStraceBytes = 2ull << 30;

Error RecordError(const std::string& what, const std::string& hint = "") {
  Error error = PlainError(ErrorKind::kSetup, "record", what);
  error.hint = hint;
  return error;
}

std::string Basename(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What was recorded, in words.
void Describe(std::ostream& out, const Trace& trace, const std::string& path) {
  // Names from outside (paths, the command) reach the terminal escaped.
  out << "recorded " << trace.commits.size() << " commits of "
      << EscapeControl(trace.argv.empty() ? "?" : trace.argv[0]) << " ("
      << EscapeControl(trace.version) << ")\n";
  for (std::size_t i = 0; i < trace.files.size(); ++i) {
    const TraceFile& f = trace.files[i];
    std::uint64_t bytes = 0, writes = 0, syncs = 0;
    for (const TraceCommit& c : trace.commits) {
      for (const TraceOp& op : c.ops) {
        if (op.file != i) continue;
        if (op.kind == TraceOpKind::kWrite) {
          bytes += op.length;
          ++writes;
        } else {
          ++syncs;
        }
      }
    }
    std::string flags;
    for (const std::string& flag : f.flags) {
      flags += (flags.empty() ? "" : "|") + flag;
    }
    out << "  " << EscapeControl(f.path) << ": " << NameOf(kFileStates, f.state)
        << " (" << f.size_at_open << " B at open), "
        << (flags.empty() ? "?" : flags) << ", " << writes << " writes, "
        << bytes << " B, " << syncs << " syncs\n";
  }
  if (!trace.after_last_commit.empty()) {
    out << "  " << trace.after_last_commit.size()
        << " writes after the last sync (kept in after_last_commit)\n";
  }
  for (const std::string& limit : trace.limits) {
    out << "  limit: " << EscapeControl(limit) << "\n";
  }
  out << "trace saved to " << EscapeControl(path) << "\n";
}

}  // namespace

std::string DefaultTracePath(const std::string& program) {
  std::string name = Basename(program);
  if (name.empty() || name[0] == '.') name = "program";
  return name + ".trace.json";
}

int RecordCommand(const ParsedCommand& parsed) {
  const bool attach = parsed.Has("pid");
  if (attach == !parsed.command_argv.empty()) {
    return ReportError(PlainError(
        ErrorKind::kUsage, "record",
        attach ? "give either --pid or a COMMAND after --, not both"
               : "nothing to record: give a COMMAND after -- (alignbench "
                 "record -- sqlite3 db ...) or --pid PID"));
  }
  pid_t pid = 0;
  if (attach) {
    char* end = nullptr;
    const long value = std::strtol(parsed.Value("pid").c_str(), &end, 10);
    if (*end != '\0' || value <= 0 ||
        ::kill(static_cast<pid_t>(value), 0) != 0) {
      return ReportError(PlainError(
          ErrorKind::kUsage, "option --pid",
          "'" + parsed.Value("pid") + "' is no running process of this user"));
    }
    pid = static_cast<pid_t>(value);
  }
  const std::string strace = InPath("strace");
  if (strace.empty()) {
    return ReportError(RecordError("strace is not installed",
                                   "apt-get install strace (Debian's is used "
                                   "and tested)"));
  }
  StraceOptions options;
  if (parsed.Has("file")) {
    auto it = parsed.values.find("file");
    Result<std::vector<std::string>> globs = AbsoluteGlobs(it->second, options);
    if (!globs) return ReportError(globs.error());
    options.globs = globs.value();
  }
  const std::vector<std::string> program =
      attach ? CommandLineOf(pid) : parsed.command_argv;
  const std::string executable =
      attach ? "/proc/" + std::to_string(pid) + "/exe"
             : InPath(program.empty() ? "" : program[0]);
  if (!attach && executable.empty()) {
    return ReportError(SystemError(ErrorKind::kUsage, "record: find command",
                                   program[0], ENOENT));
  }
  const std::string out =
      parsed.Has("out") ? parsed.Value("out")
                        : DefaultTracePath(program.empty() ? "" : program[0]);
  const Overwrite overwrite =
      parsed.Has("force") ? Overwrite::kReplace : Overwrite::kRefuse;
  if (Status ok = CheckResultPath(out, overwrite, {}); !ok) {
    Error error = ok.error();
    if (!parsed.Has("out")) error.hint = "name another file with --out";
    return ReportError(error);
  }
  // strace's own output goes to a private file in $TMPDIR, removed on every
  // way out.
  const char* tmpdir = std::getenv("TMPDIR");
  std::string raw = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") +
                    "/alignbench-strace-XXXXXX";
  const int raw_fd = ::mkstemp(raw.data());
  if (raw_fd < 0) {
    return ReportError(SystemError(ErrorKind::kSetup, "mkstemp", raw, errno));
  }
  ::close(raw_fd);
  const int slot = RegisterForCleanup(raw);
  struct Remove {
    std::string path;
    int slot;
    ~Remove() {
      ::unlink(path.c_str());
      if (slot >= 0) UnregisterCleanup(slot);
    }
  } remove{raw, slot};

  std::vector<std::string> argv = {
      strace, "-f", "-qq",
      "-s0",  "-y", "-o",
      raw,    "-e", std::string("trace=") + kStraceCalls};
  if (attach) {
    const std::vector<pid_t> family = Family(pid);
    OpenBefore(family, options);
    for (pid_t p : family) {
      argv.push_back("-p");
      argv.push_back(std::to_string(p));
    }
    std::cerr << "alignbench record: attached to " << family.size()
              << " process(es) of " << pid
              << "; Ctrl-C or SIGINT stops recording\n";
  } else {
    argv.push_back("--");
    argv.insert(argv.end(), program.begin(), program.end());
  }
  // Asked before the program runs: a server recorded by --pid may be gone
  // by the time strace detaches (/proc/PID/exe with it).
  const std::string version = ProgramVersion(executable);
  Result<int> status = RunStrace(argv);
  if (!status) return ReportError(status.error());
  const int st = status.value();
  int program_status = 0;
  if (WIFEXITED(st)) program_status = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) program_status = 128 + WTERMSIG(st);
  if (!attach && program_status != 0) {
    std::cerr << "alignbench record: " << program[0] << " exited with status "
              << program_status
              << "; its trace is saved all the same, and record exits with "
                 "that status\n";
  }
  Result<std::string> text =
      ReadWholeFile(raw, ErrorKind::kSetup, kMaxStraceBytes);
  if (!text) return ReportError(text.error());
  if (text.value().empty() && program_status == 127) {
    return ReportError(RecordError("strace could not start or run the command",
                                   "run it under strace by hand to see why"));
  }
  Result<Trace> parsed_trace = ParseStrace(text.value(), options);
  if (!parsed_trace) return ReportError(parsed_trace.error());
  Trace trace = std::move(parsed_trace).value();
  trace.argv = program;
  trace.version = version;
  trace.recorder = FirstLineOf({strace, "-V"});
  if (trace.files.empty()) {
    std::string what =
        options.globs.empty()
            ? std::string("no regular file was both written and synced")
            : "nothing was written to a file matching --file";
    for (const std::string& g : options.globs) what += " " + g;
    return ReportError(RecordError(
        (program.empty() ? std::string("the program") : program[0]) +
            " wrote nothing to trace: " + what,
        options.globs.empty()
            ? "record it while it commits; a program that writes without "
              "syncing is traced by naming its files with --file"
            : "check the pattern against the paths the program writes (an "
              "absolute path, * not crossing /), or leave --file out"));
  }
  if (trace.commits.empty()) {
    std::cerr << "alignbench record: the traced files were written but never "
                 "synced: no commit; the writes are in after_last_commit\n";
  }
  // A path that is not UTF-8 must not lose the recording: replaced.
  const std::string saved =
      TraceToJson(trace).dump(1, ' ', false, json::error_handler_t::replace) +
      "\n";
  if (Result<Trace> back = ParseTrace(saved, out); !back) {
    Error error = RecordError("the trace is past what a trace file may hold (" +
                              back.error().detail + "), so nothing is saved");
    error.hint =
        "record a shorter run, or narrow --file to the log file(s) alone";
    return ReportError(error);
  }
  if (Status written = WriteResultFile(out, saved, overwrite); !written) {
    return ReportError(written.error());
  }
  Describe(std::cout, trace, out);
  std::string stem = out;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
    stem.resize(stem.size() - 5);
  }
  if (std::optional<json> c = CaseOfTrace(trace, Basename(stem))) {
    const std::string case_path = stem + ".case.json";
    if (Status ok = CheckResultPath(case_path, overwrite, {}); !ok) {
      std::cerr << "alignbench record: the case file is not written: "
                << ok.error().Message() << "\n";
    } else if (Status w = WriteResultFile(
                   case_path,
                   c->dump(1, ' ', false, json::error_handler_t::replace) +
                       "\n",
                   overwrite);
               !w) {
      std::cerr << "alignbench record: the case file is not written: "
                << w.error().Message() << "\n";
    } else {
      std::cout << "case file saved to " << case_path << "\n";
    }
  } else {
    std::cout << "no case file: the commits fit no case's rules (alignbench "
                 "--replay "
              << out << " measures the trace itself)\n";
  }
  return attach ? 0 : program_status;
}

}  // namespace alignbench
