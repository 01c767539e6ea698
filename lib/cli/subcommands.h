// The subcommands besides the measurement itself, and the one way errors reach
// the user: `alignbench: error: <message>` on stderr and the documented exit
// code.
#pragma once

#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/cli/cli.h"

namespace alignbench {

int ReportError(const Error& error);

// Standard descriptors closed by the caller (`>&-`) are taken by /dev/null
// opened the wrong way round, before any file is opened: no test or result
// file can become "standard output", and a write there still fails (EBADF).
void ReserveStandardDescriptors();

// Flushes standard output; if any write to it failed (a full disk, a closed
// descriptor, a reader gone), says so in one error line and turns a successful
// exit_code into a failure. Output that never arrived is not a success.
int FinishStdout(int exit_code);

// Each prints to standard output and returns the exit code; the caller's
// FinishStdout says whether the output arrived.
int EnvCommand(const ParsedCommand& parsed);      // alignbench env [DIR]
int ShowCommand(const ParsedCommand& parsed);     // alignbench show FILE
int CompareCommand(const ParsedCommand& parsed);  // compare FILE FILE...
// record [--file GLOB]... [--pid PID] [--out FILE] [-- COMMAND...], in
// record.cc
int RecordCommand(const ParsedCommand& parsed);

// env, show, compare or record, as `parsed` names (its --help is the caller's,
// as every command's).
int RunSubcommand(const ParsedCommand& parsed);

}  // namespace alignbench
