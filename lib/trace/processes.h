// The processes `alignbench record` traces, and the tracer itself: a program
// found in $PATH and its version from the Debian package that holds it, a
// running process's command line and descendants (--pid), and strace run
// until it ends, a Ctrl-C passed on so that strace detaches and the trace is
// kept.
#pragma once

#include <sys/types.h>

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

// A process and all its descendants, from /proc/PID/task/*/children.
std::vector<pid_t> Family(pid_t root);

// The command line of a running process, from /proc/PID/cmdline.
std::vector<std::string> CommandLineOf(pid_t pid);

// Runs strace (argv[0] a path) until it ends: by itself (the command ended)
// or, after SIGINT or SIGTERM reached this process, by the SIGINT passed on
// to it (strace then detaches from --pid's processes). Returns strace's wait
// status, with SIGINT and SIGTERM still blocked: a second Ctrl-C must not
// lose the trace while the caller reads and saves it.
Result<int> RunStrace(const std::vector<std::string>& argv);

}  // namespace alignbench
