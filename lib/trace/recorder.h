// The recorder beneath `alignbench record` (lib/cli/record.cc, the command
// alone): the program run under strace, or strace attached to a running
// process and its family, until it ends or a stop signal; strace's output
// read into a trace (strace_reader.h) with the files as they were before
// (files_before.h); and the trace described in words. The command keeps its
// options, --out's rules and the case file beside the trace.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/trace_file.h"
#include "lib/trace/processes.h"
#include "lib/trace/strace_reader.h"
#include "lib/trace/tracing_effect.h"

namespace alignbench {

// What to record: a program started under strace, or a running process
// (attach, pid) and its family; strace's path and the reader's options.
struct Recording {
  bool attach = false;
  pid_t pid = 0;
  std::string strace;
  StraceOptions options;
  // The program's command line (the process's, by --pid) and its executable.
  std::vector<std::string> program;
  std::string executable;
  // --pid: the window watched before strace attached, and the flushes of
  // the device(s) under the traced files, read again over the traced one.
  Untraced untraced;
  FlushCounter flushes;
};

// The process --pid names, or why not (the text is the option's).
Result<pid_t> TargetPid(const std::string& text);

// The executable of a running process, for its package: the name it was
// started by where that is the same file (redis-server is a link to
// redis-check-rdb, of another package), else /proc/PID/exe.
std::string ExecutableOf(pid_t pid, const std::vector<std::string>& argv);

// A save long enough to be said (strace's output past kSaidStraceBytes) is
// abandoned by a stop signal sent once it is said: asked while strace's
// output is read and before the trace is written. Signals sent before, to
// stop the recording, are dropped when it is armed; a short save takes none.
class SaveStop {
 public:
  explicit SaveStop(const StopSignals& stop) : stop_(stop) {}
  void Arm() {
    while (stop_.Take(0) != 0) {
    }
    armed_ = true;
  }
  // Whether a stop signal was taken since it was armed.
  bool Asked() {
    if (armed_ && signo_ == 0) signo_ = stop_.Take(0);
    return signo_ != 0;
  }
  int signo() const { return signo_; }

 private:
  const StopSignals& stop_;
  bool armed_ = false;
  int signo_ = 0;
};

// strace's output past which its reading is said, with how to abandon it.
inline constexpr std::uint64_t kSaidStraceBytes = 4ull << 20;

// What strace saw, and how the program ended.
struct RecordedRun {
  Trace trace;
  int program_status = 0;
  // Where --file matched nothing: the files the program did write and sync.
  std::vector<std::string> written_elsewhere;
};

// The program's words as recorded: `command` where the program strace saw
// run (`ran`, the path it exec'd last) is `executable` or unknown; else the
// words of `command` from the one that names `ran` (setpriv --reuid=redis
// redis-server /etc/redis.conf: redis-server /etc/redis.conf), or `ran`.
std::vector<std::string> ProgramRan(const std::vector<std::string>& command,
                                    const std::string& executable,
                                    const std::string& ran);

// Runs strace as planned, with the version asked beforehand (asked again of
// the program that ran, where that is another: ProgramRan), and keeps in the
// trace what tracing changed: the untraced window beside the traced one.
Result<RecordedRun> Record(const Recording& plan, const std::string& version,
                           const StopSignals& stop, SaveStop& abandon);

// Nothing to save: what was missing, and what to do.
Error NothingTraced(const Recording& plan, const RecordedRun& recorded);

// What was recorded, in words, ending with where the trace is saved.
void Describe(std::ostream& out, const Trace& trace, const std::string& path);

}  // namespace alignbench
