#include "lib/cli/record.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/cli/subcommands.h"
#include "lib/io/cleanup.h"
#include "lib/io/command.h"
#include "lib/io/fd.h"
#include "lib/io/file_io.h"
#include "lib/io/result_file.h"
#include "lib/measure/counters.h"
#include "lib/trace/case_of_trace.h"
#include "lib/trace/files_before.h"
#include "lib/trace/recorder.h"
#include "lib/trace/tracing_effect.h"

namespace alignbench {
namespace {

using nlohmann::json;

Error RecordError(const std::string& what, const std::string& hint = "") {
  Error error = PlainError(ErrorKind::kSetup, "record", what);
  error.hint = hint;
  return error;
}

std::string Basename(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string DefaultTracePath(const std::string& program) {
  std::string name = Basename(program);
  if (name.empty() || name[0] == '.') name = "program";
  return name + ".trace.json";
}

namespace {

// Where the trace goes, made absolute from the working directory.
std::string AbsoluteOut(const std::string& out) {
  if (!out.empty() && out[0] == '/') return out;
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" + out : out;
}

// --out matching a --file pattern would have the trace replace a log of the
// program: refused before anything runs.
Status OutOutsideGlobs(const std::string& out,
                       const std::vector<std::string>& globs) {
  const std::string abs = AbsoluteOut(out);
  for (const std::string& glob : globs) {
    if (::fnmatch(glob.c_str(), abs.c_str(), FNM_PATHNAME) == 0) {
      return PlainError(ErrorKind::kUsage, "option --out",
                        EscapeControl(out) + " matches --file " +
                            EscapeControl(glob) +
                            ": the trace would replace a file the program "
                            "writes; save it elsewhere");
    }
  }
  return Ok{};
}

// A file the program wrote that --out names (the same file, or the same
// path): the trace is not saved over it.
Status OutNotTraced(const std::string& out, const Trace& trace) {
  struct stat o {};
  const bool exists = ::stat(out.c_str(), &o) == 0;
  const std::string abs = AbsoluteOut(out);
  for (const TraceFile& f : trace.files) {
    struct stat t {};
    const bool same = exists && ::stat(f.path.c_str(), &t) == 0 &&
                      t.st_dev == o.st_dev && t.st_ino == o.st_ino;
    if (same || f.path == abs) {
      return RecordError("the trace is not saved: --out " + EscapeControl(out) +
                             " is " + EscapeControl(f.path) +
                             ", a file the program wrote",
                         "record again with --out naming another file");
    }
  }
  return Ok{};
}

// What record was asked: the program (or the process), its files, the
// trace's path.
// What was at a path when recording began. A file made or changed there
// meanwhile (by the program, by another record) is not --force's to replace.
struct FileMark {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  timespec mtime{};
};

FileMark MarkOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size, st.st_mtim};
}

// --force's replace, unless the file at `path` is no longer what `before`
// saw.
Overwrite StillOurs(Overwrite overwrite, const FileMark& before,
                    const std::string& path) {
  const FileMark now = MarkOf(path);
  const bool same = now.exists == before.exists && now.dev == before.dev &&
                    now.ino == before.ino && now.size == before.size &&
                    now.mtime.tv_sec == before.mtime.tv_sec &&
                    now.mtime.tv_nsec == before.mtime.tv_nsec;
  return same ? overwrite : Overwrite::kRefuse;
}

// The case file beside the trace: NAME.json's is NAME.case.json.
std::string CasePathOf(const std::string& out) {
  std::string stem = out;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
    stem.resize(stem.size() - 5);
  }
  return stem + ".case.json";
}

// What to record, and where the trace goes.
struct RecordPlan : Recording {
  std::string out;
  Overwrite overwrite = Overwrite::kRefuse;
  // --out and its case file as they were before the program ran.
  FileMark out_before;
  FileMark case_before;
  // --pid: how long the process is watched untraced before strace attaches.
  std::chrono::milliseconds untraced_window{kUntracedWindowSeconds * 1000};
};

// --untraced-window: whole seconds from 0 to 600, with --pid alone.
Status UntracedWindowOf(const ParsedCommand& parsed, RecordPlan& plan) {
  if (!parsed.Has("untraced-window")) return Ok{};
  const std::string& text = parsed.Value("untraced-window");
  if (!plan.attach) {
    return PlainError(ErrorKind::kUsage, "option --untraced-window",
                      "watches a running process before strace attaches to "
                      "it: give it with --pid, or leave it out");
  }
  const bool digits = !text.empty() && text.size() <= 3 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoul(text) > 600) {
    return PlainError(ErrorKind::kUsage, "option --untraced-window",
                      "'" + EscapeControl(text) +
                          "' is not a whole number of seconds from 0 to 600");
  }
  plan.untraced_window = std::chrono::seconds(std::stoul(text));
  return Ok{};
}

// The completed flushes of the devices whose stat files are `stats`,
// summed; nullopt where one has no flush count.
FlushCounter FlushesOf(std::vector<std::string> stats) {
  return [stats = std::move(stats)]() -> std::optional<std::uint64_t> {
    std::uint64_t sum = 0;
    for (const std::string& stat : stats) {
      const std::optional<DeviceCounters> c = ReadDeviceCounters(stat);
      if (!c || !c->flushes) return std::nullopt;
      sum += *c->flushes;
    }
    return sum;
  };
}

// --pid: the devices under the traced files found, and the process watched
// untraced for --untraced-window before strace attaches. Returns a stop
// signal taken meanwhile, else 0.
int WatchUntracedFirst(RecordPlan& plan, const StopSignals& stop) {
  std::string why;
  std::vector<std::string> stats =
      DeviceStats(Family(plan.pid), plan.options, why);
  if (stats.empty()) {
    plan.untraced.unknown = why;
    return 0;
  }
  plan.flushes = FlushesOf(std::move(stats));
  if (!plan.flushes()) {
    plan.untraced.unknown =
        "the device's flush count is not known (its stat has none before "
        "Linux 5.5)";
    return 0;
  }
  plan.untraced =
      WatchUntraced(plan.pid, plan.untraced_window, plan.flushes, stop);
  return plan.untraced.signo;
}

Result<RecordPlan> Plan(const ParsedCommand& parsed) {
  RecordPlan plan;
  plan.attach = parsed.Has("pid");
  if (plan.attach == !parsed.command_argv.empty()) {
    return PlainError(
        ErrorKind::kUsage, "record",
        plan.attach ? "give either --pid or a COMMAND after --, not both"
                    : "nothing to record: give a COMMAND after -- (alignbench "
                      "record -- sqlite3 db ...) or --pid PID");
  }
  if (Status ok = UntracedWindowOf(parsed, plan); !ok) return ok.error();
  if (plan.attach) {
    Result<pid_t> pid = TargetPid(parsed.Value("pid"));
    if (!pid) return pid.error();
    plan.pid = pid.value();
  }
  plan.strace = HelperProgram("strace");
  if (plan.strace.empty()) {
    return RecordError("strace is not installed",
                       "apt-get install strace (Debian's is used and tested)");
  }
  plan.options.transactions = !parsed.Has("per-sync");
  if (parsed.Has("file")) {
    Result<std::vector<std::string>> globs =
        AbsoluteGlobs(parsed.values.find("file")->second, plan.options);
    if (!globs) return globs.error();
    plan.options.globs = globs.value();
  }
  plan.program = plan.attach ? CommandLineOf(plan.pid) : parsed.command_argv;
  plan.executable = plan.attach
                        ? ExecutableOf(plan.pid, plan.program)
                        : InPath(plan.program.empty() ? "" : plan.program[0]);
  if (!plan.attach && plan.executable.empty()) {
    return SystemError(ErrorKind::kUsage, "record: find command",
                       plan.program[0], ENOENT);
  }
  plan.out =
      parsed.Has("out")
          ? parsed.Value("out")
          : DefaultTracePath(plan.program.empty() ? "" : plan.program[0]);
  plan.overwrite =
      parsed.Has("force") ? Overwrite::kReplace : Overwrite::kRefuse;
  if (Status ok = CheckResultPath(plan.out, plan.overwrite, {}); !ok) {
    Error error = ok.error();
    if (!parsed.Has("out")) error.hint = "name another file with --out";
    return error;
  }
  plan.out_before = MarkOf(plan.out);
  plan.case_before = MarkOf(CasePathOf(plan.out));
  if (Status ok = OutOutsideGlobs(plan.out, plan.options.globs); !ok) {
    return ok.error();
  }
  return plan;
}

// The case file beside the trace (STEM.case.json), where the commits fit a
// case's rules; a line either way.
void WriteCaseFile(const Trace& trace, const std::string& out,
                   Overwrite overwrite) {
  const std::string case_path = CasePathOf(out);
  const std::string stem = case_path.substr(0, case_path.size() - 10);
  std::string why_not;
  std::optional<json> c = CaseOfTrace(trace, Basename(stem), &why_not);
  if (!c) {
    std::cout << "no case file: "
              << (why_not.empty() ? "the commits fit no case's rules"
                                  : EscapeControl(why_not))
              << " (alignbench --replay " << EscapeControl(out)
              << " measures the trace itself)\n";
    return;
  }
  Status ok = CheckResultPath(case_path, overwrite, {});
  if (ok) {
    ok = WriteResultFile(
        case_path,
        c->dump(1, ' ', false, json::error_handler_t::replace) + "\n",
        overwrite);
  }
  if (!ok) {
    std::cerr << "alignbench record: the case file is not written: "
              << EscapeControl(ok.error().Message()) << "\n";
  } else {
    std::cout << "case file saved to " << EscapeControl(case_path) << "\n";
  }
}

// The trace saved to plan.out (never over a file the program wrote), said,
// and its case file.
Status Save(const RecordPlan& plan, const RecordedRun& recorded,
            SaveStop& abandon) {
  const Trace& trace = recorded.trace;
  if (trace.files.empty()) return NothingTraced(plan, recorded);
  if (trace.commits.empty()) {
    std::cerr << "alignbench record: the traced files were written but never "
                 "synced: no commit; the writes are in after_last_commit\n";
  }
  if (Status ok = OutNotTraced(plan.out, trace); !ok) return ok;
  const Result<std::string> saved = TraceText(trace, plan.out);
  if (abandon.Asked()) return RecordError("stopped while saving");
  if (!saved) {
    return RecordError(saved.error().detail + ", so nothing is saved",
                       "record a shorter run, or narrow --file to the log "
                       "file(s) alone");
  }
  // A file that took --out while recording (another record, the program)
  // is left, and the recording kept beside it, never lost.
  const SaveOutcome outcome =
      SaveResult(plan.out, saved.value(),
                 StillOurs(plan.overwrite, plan.out_before, plan.out), "trace",
                 "the recording");
  if (!outcome.status) return outcome.status;
  Describe(std::cout, trace, plan.out);
  WriteCaseFile(
      trace, plan.out,
      StillOurs(plan.overwrite, plan.case_before, CasePathOf(plan.out)));
  return Ok{};
}

}  // namespace

int RecordCommand(const ParsedCommand& parsed) {
  // From here on a stop signal (Ctrl-C, kill, a hangup) is taken in turn:
  // strace is stopped the right way and the trace is saved.
  const StopSignals stop;
  Result<RecordPlan> plan = Plan(parsed);
  if (!plan) return ReportError(plan.error());
  // Asked before the program runs: a server recorded by --pid may be gone
  // by the time strace detaches (/proc/PID/exe with it).
  const std::string version = ProgramVersion(plan.value().executable);
  int signo = stop.Take(0);
  if (signo == 0 && plan.value().attach) {
    signo = WatchUntracedFirst(plan.value(), stop);
  }
  if (signo != 0) {
    std::cerr << "alignbench record: " << SignalName(signo)
              << " before strace started: nothing was recorded\n";
    return 128 + signo;
  }
  SaveStop abandon(stop);
  Result<RecordedRun> recorded = Record(plan.value(), version, stop, abandon);
  Status saved = recorded ? Save(plan.value(), recorded.value(), abandon)
                          : Status(recorded.error());
  if (abandon.signo() != 0) {
    std::cerr << "alignbench record: " << SignalName(abandon.signo())
              << " while the trace was being saved: the save is abandoned, "
                 "nothing is saved\n";
    return 128 + abandon.signo();
  }
  if (!saved) return ReportError(saved.error());
  return plan.value().attach ? 0 : recorded.value().program_status;
}

}  // namespace alignbench
