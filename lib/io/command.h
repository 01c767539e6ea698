// A short helper command run to its end and one of its output streams read
// back: a tool's version line, a package lookup, a server's SFTP extensions.
// Nothing is read from the terminal (stdin is /dev/null), and a command that
// outlives its deadline is killed rather than left to hang the caller. The
// helper itself is found by HelperProgram: as root, never in a directory
// another user could have put it in.
#pragma once

#include <sys/types.h>

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

// Whether nobody but `owner` and root can change what `path` is: the file or
// directory it resolves to and every directory above belong to `owner` or
// root, and none is writable by group or others, but a sticky directory
// (/tmp), where nobody else can rename or remove the owner's entries.
bool OnlyOwnerCanChange(const std::string& path, uid_t owner);

// Where the helper program `name` is: the first in $PATH (or the system's
// directories when PATH is unset) that may be run. As root, only a file that
// belongs to root in directories that belong to root, none of them writable
// by anyone else unless sticky (/tmp), and never from a relative or empty
// PATH entry: what another user could write is not run. "" where there is
// none. A name with a '/' is taken as it is, under the same rule. The path
// returned is the resolved one (no link in it), the one that was judged.
std::string HelperProgram(const std::string& name);

// Runs argv (argv[0] found by HelperProgram) for at most `deadline_ms`.
CommandOutput RunCommand(const std::vector<std::string>& argv,
                         OutputStream stream, int deadline_ms);

}  // namespace alignbench
