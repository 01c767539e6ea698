// A measuring session: everything between a parsed command line and the
// printed table. Whatever can be refused is refused before a write is timed
// (free space and a file we can create in every directory, every result
// path); then one report per directory with its probe and the disk's idle
// traffic, the stages of runs (lib/session/stages.h), the pairs and their
// warnings, and each result saved before anything is printed, so that a
// reader closing the pipe early cannot cost the measurement.
// Runs are driven by the Runner and every call on a test file goes through
// the FileOps the caller gives: Google Benchmark and the kernel in the binary,
// a plain loop and an injected fault in the tests.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/io/file_ops.h"
#include "lib/io/result_file.h"
#include "lib/result/report.h"
#include "lib/session/runner.h"

namespace alignbench {

struct SessionOptions {
  // Settings of every directory; settings.dir is the first of `dirs`.
  Settings settings;
  // Every --dir in order: the same plan is measured in each, in one
  // interleaved schedule, with one result per directory.
  std::vector<std::string> dirs;
  // --out; with several directories one file each (ResultPaths)
  std::optional<std::string> out;
  Overwrite overwrite = Overwrite::kRefuse;
  // The case file run, which --out must never overwrite
  std::optional<std::string> case_path;
  bool redact_host = false;
  // Progress lines on stderr
  bool progress = false;
  // argv as given, recorded in every result
  std::vector<std::string> command_line;
};

struct SessionOutcome {
  // One per directory, in the order of `dirs`.
  std::vector<Report> reports;
  // Results that could not be saved where asked (each says where they went).
  std::vector<Error> not_saved;
  // What stopped the runs; the reports are then marked incomplete.
  std::optional<Error> fatal;
  // A first SIGINT stopped the runs; the reports are marked incomplete.
  bool interrupted = false;
};

// While the runs are measured, a first SIGINT stops them at the next write
// and the session finishes and saves what was measured (AllowGracefulInterrupt
// in lib/io/cleanup.h); a second one ends the process.
// Fails only before anything is measured (a refused check or requirement);
// from the first run on, every failure is in the outcome. Context lines (the
// target, the plan, where a result was saved) go to `log`.
Result<SessionOutcome> RunSession(const SessionOptions& options, Runner& runner,
                                  FileOps& ops, std::ostream& log);

}  // namespace alignbench
