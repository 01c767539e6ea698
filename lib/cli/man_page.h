// The manual page alignbench(1), in roff with the man macros, from the same
// tables as --help: the command table (commands.h) for the synopsis, every
// option and the subcommands, kExitCodes (lib/base/error.h) for the exit
// status. The prose around them (description, files, examples) lives here.
// bench/man_page_main.cc writes it at build time; the package installs it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace alignbench {

struct ManPageInfo {
  // The version in the page's footer, as in `alignbench --version`.
  std::string version;
  // The date of the page (YYYY-MM-DD): the release's, so that two builds of
  // one source write the same page.
  std::string date;
  // Where the package puts the cases and the schema (/usr/share/alignbench).
  std::string data_dir;
};

// One command line of EXAMPLES, with what it does.
struct ManExample {
  std::string_view what;
  // The arguments after `alignbench`, as a shell would split them.
  std::vector<std::string_view> args;
};

// The examples the page shows; each parses with ParseCommandLine (a test
// checks it).
const std::vector<ManExample>& ManExamples();

// Text made safe for a roff text line or a quoted macro argument: '\' as \e,
// '-' as \- (a minus, which a terminal shows as the '-' to type), '"' as \(dq,
// '^', '~' and '`' as the ASCII characters (\(ha, \(ti, \(ga) rather than the
// accents groff makes of them, every character outside ASCII as \[uXXXX], and
// a '.' or '\'' at the start of a line behind \& so that it is not read as a
// request.
std::string RoffEscape(std::string_view text);

// The whole page.
std::string ManPage(const ManPageInfo& info);

}  // namespace alignbench
