// What a measuring session is asked to do: the settings, the directories,
// where the results go, and what the command line said. Filled by the command
// line (lib/cli/cli.h); read by every phase of the session.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/config/settings.h"
#include "lib/io/result_file.h"

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
  // `alignbench unit`: each result names the unit its pairs measure
  // (FindUnit), saved and printed with it.
  bool find_unit = false;
  // argv as given, recorded in every result
  std::vector<std::string> command_line;
};

}  // namespace alignbench
