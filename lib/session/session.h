// A measuring session: everything between a parsed command line and the
// printed table, in phases that each have their file: the plan, made once
// (ExpandPlan); whatever can be refused, refused before a write is timed
// (checks.h); one report per directory with its probe (reports.h); the stages
// of runs (stages.h); the pairs and their warnings (reports.h); each result
// saved before anything is printed (save.h), so that a reader closing the
// pipe early cannot cost the measurement.
// Runs are driven by the Runner and every call on a test file goes through
// the FileOps the caller gives: Google Benchmark and the kernel in the binary,
// a plain loop and an injected fault in the tests.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/io/file_ops.h"
#include "lib/result/report.h"
#include "lib/session/runner.h"
#include "lib/session/session_options.h"

namespace alignbench {

struct SessionOutcome {
  // One per directory, in the order of `dirs`.
  std::vector<Report> reports;
  // Each report's result document, as --out saves it (also where it was not
  // saved): what --format json prints.
  std::vector<nlohmann::json> documents;
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
