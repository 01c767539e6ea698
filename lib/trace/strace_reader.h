// strace's output made a trace (lib/config/trace_file.h): the writes and syncs
// of the traced files, commit by commit, by the rule kTraceCommitRule states.
// Reads what `strace -f -qq -s0 -y` prints (one line per call, a process id
// first with -f, "<unfinished ...>" and "<... NAME resumed>" halves joined by
// process id). A file's position is followed for write/writev through open,
// lseek and the writes themselves, by descriptor and path (threads and forked
// children share it, as they share the open file; a forked child's
// descriptors are its own, a thread's its process's); O_APPEND writes go to
// the file's end. Pure: no process, no file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/trace_file.h"

namespace alignbench {

// The system calls strace is asked to show (-e trace=), comma-separated:
// every one ParseStrace reads, from its one table of calls.
std::string StraceCalls();

struct StraceOptions {
  // Shell patterns (fnmatch, '*' not crossing '/') a traced file's absolute
  // path must match; empty: every regular file that is written and synced.
  std::vector<std::string> globs;
  // Sizes of files as they were before the program ran, by path (the files
  // the globs matched then): a file's size when it is first opened.
  std::map<std::string, std::uint64_t> sizes_before;
  // Files a process had open before strace attached (--pid), by process
  // (its id as strace -f prints it for the process's main thread) and
  // descriptor as strace -y names it ("4</var/lib/db/data.mdb>"): its open
  // flags and position, from /proc/PID/fdinfo. Descriptors of several
  // processes that share one open file description (a child forked before
  // the attach inherits its parent's) name it alike in `description`, and
  // share one position; empty: a description of its own.
  struct OpenBefore {
    std::vector<std::string> flags;
    std::uint64_t position = 0;
    std::string description;
  };
  std::map<std::string, std::map<std::string, OpenBefore>> open_before;
  // The threads of --pid's processes, by thread id, each with its process's
  // id: a process's threads share its descriptor table, and each process
  // has its own (a process not here, and not seen made by clone, shares one
  // table with every such process).
  std::map<std::string, std::string> process_of;
  // Files that were mostly unwritten extents before the program ran (fallocated
  // and never written, as MariaDB's redo log at install): preallocated.
  std::set<std::string> unwritten_before;
  // Files that were mostly holes before the program ran (less than half of
  // their size in blocks: Berkeley DB's log, sized ahead and written into):
  // new, sized by a truncate where first seen, so that a replay writes into
  // holes as the program did, not into a prewritten file.
  std::set<std::string> sparse_before;
  // How many extents a file held before the program ran, where the
  // filesystem said (FIEMAP): a recycled file in more than its size needs,
  // whose layout a replay's prewritten file does not take, is said in the
  // trace's limits.
  std::map<std::string, std::uint64_t> extents_before;
  // A process had an io_uring before strace attached (--pid): its setup is
  // never seen, and writes through it are not traced.
  bool io_uring_before = false;
  // Group the syncs of one transaction into one commit where the trace
  // repeats them (GroupTransactions); false: every sync a commit.
  bool transactions = true;
  // Asked every kStopPollLines lines and before the trace is made: true
  // abandons the reading (record's stop signals while it saves).
  std::function<bool()> stopped;
};

inline constexpr std::uint64_t kStopPollLines = 4096;

// The trace in strace's output `text`. Its argv is the path of the program
// whose process first wrote a traced file, as it exec'd it last (else the
// first process's last), where strace showed an execve; the rest of the
// program's words, its version and the recorder are the caller's to fill. Fails
// on output that is not strace's at all (no line read as a call) and when
// options.stopped says so; calls it does not know are skipped.
Result<Trace> ParseStrace(const std::string& text,
                          const StraceOptions& options);

// Whether `path` matches one of `globs` (an empty list matches every path).
bool PathSelected(const std::string& path,
                  const std::vector<std::string>& globs);

}  // namespace alignbench
