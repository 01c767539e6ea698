// alignbench record (declared with the other subcommands in subcommands.h,
// defined in record.cc): a program's writes and syncs to its log file(s),
// traced with strace and saved as a trace (lib/config/trace_file.h) under
// --out's rules; where the commits fit a case's rules, the case file beside it.
// The parts beneath the command are in lib/trace/: the processes and strace
// (processes.h), the files before tracing (files_before.h), strace's output
// parsed (strace_reader.h) and the case of a trace (case_of_trace.h).
#pragma once

#include <string>

namespace alignbench {

// Where the trace goes when --out is not given: PROGRAM.trace.json.
std::string DefaultTracePath(const std::string& program);

}  // namespace alignbench
