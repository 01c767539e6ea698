// The whole command, from argv to exit code: the subcommands, or a measuring
// session (lib/session) run by Google Benchmark, its table printed, every
// error one line with its exit code. `ops` carries every system call on a
// test file: the kernel's in the binary, a paused or failing one in tests.
#pragma once

#include "lib/io/file_ops.h"

namespace alignbench {

int AlignbenchMain(int argc, char** argv, FileOps& ops);

}  // namespace alignbench
