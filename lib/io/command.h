// A short helper command run to its end and one of its output streams read
// back: a tool's version line, a package lookup, a server's SFTP extensions.
// Nothing is read from the terminal (stdin is /dev/null), and a command that
// outlives its deadline is killed rather than left to hang the caller.
#pragma once

#include <string>
#include <vector>

namespace alignbench {

enum class OutputStream { kStdout, kStderr };

struct CommandOutput {
  // The command ran and exited by itself (not killed, not unrunnable).
  bool exited = false;
  int exit_status = -1;
  // What it wrote to the stream asked for, at most 1 MiB; the other stream
  // goes to /dev/null.
  std::string text;
};

// Runs argv (argv[0] looked up in $PATH) for at most `deadline_ms`.
CommandOutput RunCommand(const std::vector<std::string>& argv,
                         OutputStream stream, int deadline_ms);

}  // namespace alignbench
