// The processes `alignbench record` traces, and the tracer itself: a program
// found in $PATH and its version from the Debian package that holds it, a
// running process's command line and descendants (--pid), and strace run
// until it ends, a Ctrl-C passed on so that strace detaches and the trace is
// kept.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

// `name` as found in $PATH (a name with a '/' as it is), or "".
std::string InPath(const std::string& name);

// Runs argv, looked up in $PATH, with its standard output read back (stdin
// and stderr /dev/null), trailing newlines and spaces dropped; "" if it
// could not run or failed.
std::string OutputOf(const std::vector<std::string>& argv);

// The first line of OutputOf(argv): a tool's version line.
std::string FirstLineOf(const std::vector<std::string>& argv);

// The program's version, from the Debian package that holds its executable
// (asking the program itself could start a server); else "unknown" and why.
std::string ProgramVersion(const std::string& executable);

// A process and all its descendants, from /proc/PID/task/*/children, save
// those that have exited and wait to be reaped (zombies).
std::vector<pid_t> Family(pid_t root);

// The command line of a running process, from /proc/PID/cmdline, without
// the empty strings a rewritten title leaves behind.
std::vector<std::string> CommandLineOf(pid_t pid);

// Whether `pid` has exited and waits for its parent to reap it (state Z in
// /proc/PID/stat): nothing of it can be traced.
bool IsZombie(pid_t pid);

// The signals that stop record: every one that can be caught and whose
// default is to end a process, save those the kernel sends for a fault of
// the process itself. While an object of this class lives they are blocked
// and taken in turn (Take), so that whichever arrives, and however many,
// strace is stopped the right way and the trace is saved. The destructor
// drops those still pending, then restores the signal mask.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // A stop signal that arrived, or arrives within wait_ms, taken; else 0.
  int Take(int wait_ms) const;
  const sigset_t& set() const { return set_; }

 private:
  sigset_t set_;
  sigset_t before_;
};

// A signal's name: "SIGHUP".
std::string SignalName(int signo);

// The process that traces `pid` (TracerPid in /proc/PID/status): 0 for none,
// -1 when the process is gone.
pid_t TracerOf(pid_t pid);

// This process and the ones it descends from, up to PID 1.
std::vector<pid_t> SelfAndAncestors();

// How strace is run and stopped.
struct StraceRun {
  // Attached to running processes (--pid): a stop signal makes strace
  // detach (SIGINT to it). Else strace runs the command, and the signal is
  // passed on to the command (SIGINT as SIGINT, any other as SIGTERM), a
  // second one kills the command and its children.
  bool attach = false;
  std::string command;  // its name, for the lines that say so
  // Polled with strace's PID, every 20 ms, until it returns true.
  std::function<bool(pid_t)> started;
};

// Runs strace (argv[0] a path) until it ends, by itself (the command ended)
// or after a stop signal, as `run` says. Returns strace's wait status.
Result<int> RunStrace(const std::vector<std::string>& argv,
                      const StraceRun& run, const StopSignals& stop);

}  // namespace alignbench
