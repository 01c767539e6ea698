#include "lib/cli/man_page.h"

#include <cstdio>
#include <sstream>

#include "lib/base/error.h"
#include "lib/cli/commands.h"

namespace alignbench {
namespace {

// The code point of the UTF-8 sequence at text[i], advancing i past it; a
// byte that starts no valid sequence stands for itself (U+FFFD would hide
// it).
unsigned NextCodePoint(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(text[k]);
  };
  const unsigned lead = byte(i);
  const int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  if (extra == 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
    ++i;
    return lead;
  }
  unsigned code = lead & (0x3Fu >> extra);
  for (int k = 1; k <= extra; ++k) {
    const unsigned next = byte(i + static_cast<std::size_t>(k));
    if ((next & 0xC0) != 0x80) {
      ++i;
      return lead;
    }
    code = (code << 6) | (next & 0x3F);
  }
  i += static_cast<std::size_t>(extra) + 1;
  return code;
}

// A macro argument: escaped and quoted.
std::string Quoted(std::string_view text) {
  return "\"" + RoffEscape(text) + "\"";
}

// The tag of an option: bold name, italic value.
std::string OptionTag(const CliOption& option) {
  std::string tag =
      "\\fB" + RoffEscape("--" + std::string(option.name)) + "\\fR";
  if (!option.value_name.empty()) {
    tag += " \\fI" + RoffEscape(option.value_name) + "\\fR";
  }
  return tag;
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

// An option's help as --help prints it: its first line, then a line
// "  name: what" per value it takes, which become a list of their own.
void WriteOptions(std::ostream& page, const std::vector<CliOption>& options) {
  for (const CliOption& option : options) {
    page << ".TP\n" << OptionTag(option) << "\n";
    const std::vector<std::string> lines = Lines(option.help);
    page << RoffEscape(lines.front()) << "\n";
    if (lines.size() == 1) continue;
    page << ".RS\n";
    for (std::size_t i = 1; i < lines.size(); ++i) {
      std::string line = lines[i];
      line.erase(0, line.find_first_not_of(' '));
      const std::size_t colon = line.find(": ");
      page << ".TP\n";
      if (colon == std::string::npos) {
        page << ".B " << Quoted(line) << "\n";
      } else {
        page << ".B " << Quoted(line.substr(0, colon)) << "\n"
             << RoffEscape(line.substr(colon + 2)) << "\n";
      }
    }
    page << ".RE\n";
  }
}

// Paragraphs of a summary: each line one paragraph.
void WriteParagraphs(std::ostream& page, std::string_view text) {
  bool first = true;
  for (const std::string& line : Lines(text)) {
    if (line.empty()) continue;
    if (!first) page << ".PP\n";
    page << RoffEscape(line) << "\n";
    first = false;
  }
}

// The usage line of a command with the command in bold, the rest roman.
void WriteSynopsisLine(std::ostream& page, const Command& command) {
  std::string head = "alignbench";
  if (!command.name.empty()) head += " " + std::string(command.name);
  const std::string usage = UsageLine(command);
  page << ".B " << Quoted(head) << "\n"
       << RoffEscape(usage.substr(head.size() + 1)) << "\n";
}

void WriteFiles(std::ostream& page, const ManPageInfo& info) {
  const auto entry = [&page](std::string_view tag, std::string_view text) {
    page << ".TP\n" << tag << "\n" << RoffEscape(text) << "\n";
  };
  entry(".I " + Quoted(info.data_dir + "/cases/"),
        "The shipped cases. --case NAME reads NAME as a path, then NAME.json "
        "in ../share/alignbench/cases beside the executable; a name found "
        "nowhere is refused with every place tried.");
  entry(".I " + Quoted(info.data_dir + "/schema/alignbench-result.schema.json"),
        "The JSON Schema of a result file; show and compare accept exactly "
        "what it accepts.");
  entry(".I " + Quoted(info.data_dir + "/scripts/loop-rig"),
        "Makes a filesystem on a loop device to measure on (root).");
  entry("\\fIDIR\\fB" + RoffEscape("/.alignbench-") + "\\fIPID\\fB" +
            RoffEscape("-") + "\\fIRANDOM\\fR",
        "The private test file in each --dir, created exclusively and removed "
        "at the end of the run, on an error and on a signal. Nothing else in "
        "DIR is opened, written or removed.");
  entry(
      "\\fIFILE\\fR (" + RoffEscape("--out") + ")",
      "The result: settings, environment, every run and every pair, as "
      "JSON, written atomically. When it cannot be written at the end, the "
      "result is kept in alignbench-result-PID-RANDOM.json in the first of the "
      "current directory, $TMPDIR and /tmp that takes it, and the exit "
      "status is 4.");
}

// "env, show, compare and record": every subcommand of the table, in its order.
std::string SubcommandNames() {
  std::vector<std::string_view> names;
  for (const Command& command : Commands()) {
    if (command.id != CommandId::kRun) names.push_back(command.name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ");
    text += names[i];
  }
  return text;
}

void WriteExamples(std::ostream& page) {
  bool first = true;
  for (const ManExample& example : ManExamples()) {
    if (!first) page << ".PP\n";
    first = false;
    std::string line = "alignbench";
    for (std::string_view arg : example.args) line += " " + std::string(arg);
    page << RoffEscape(example.what) << "\n"
         << ".PP\n.RS 4\n.nf\n"
         << RoffEscape(line) << "\n"
         << ".fi\n.RE\n";
  }
}

}  // namespace

const std::vector<ManExample>& ManExamples() {
  static const std::vector<ManExample> examples = {
      {"The Derby experiment of 2004 on the disk under /var/tmp: 128 synced "
       "writes per run, sizes 512K down to 1K, shifted by 24 bytes:",
       {"--case", "derby-2004", "--dir", "/var/tmp"}},
      {"Two sizes with fdatasync on a database's filesystem, the result saved "
       "for later:",
       {"--dir", "/srv/db", "--sizes", "4K,64K", "--sync", "fdatasync", "--out",
        "db.json"}},
      {"What alignbench finds out about a directory (filesystem, device, "
       "write cache), as JSON:",
       {"env", "/srv/db", "--format", "json"}},
      {"A saved result again, as markdown for a bug report:",
       {"show", "db.json", "--format", "markdown"}},
      {"Two results side by side (before and after a change):",
       {"compare", "before.json", "after.json"}},
      {"What sqlite3 writes and syncs to its WAL while it runs the commits of "
       "commits.sql, recorded as a trace:",
       {"record", "--file", "/srv/db/test.db-wal", "--out", "wal.trace.json",
        "--", "sqlite3", "/srv/db/test.db", ".read", "commits.sql"}},
      {"The trace measured as a pair, its writes as recorded against the same "
       "writes shifted:",
       {"--replay", "wal.trace.json", "--dir", "/srv/db"}},
      {"Which alignment a log on /srv/db must keep, asked of a cold, "
       "preallocated log synced with fdatasync:",
       {"unit", "/srv/db", "--cache", "cold", "--layout", "prewritten",
        "--sync", "fdatasync"}},
  };
  return examples;
}

std::string RoffEscape(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (static_cast<unsigned char>(c) >= 0x80) {
      char code[16];
      std::snprintf(code, sizeof code, "\\[u%04X]", NextCodePoint(text, i));
      out += code;
      continue;
    }
    switch (c) {
      case '\\':
        out += "\\e";
        break;
      case '-':
        out += "\\-";
        break;
      case '"':
        out += "\\(dq";
        break;
      case '^':
        out += "\\(ha";
        break;
      case '~':
        out += "\\(ti";
        break;
      case '`':
        out += "\\(ga";
        break;
      default:
        out += c;
    }
    ++i;
  }
  return out;
}

namespace {

// The page's header: the generated-file comment, .TH, NAME and SYNOPSIS.
void WriteHead(std::ostream& page, const ManPageInfo& info) {
  page << ".\\\" Generated from the command table (lib/cli/commands.h) and the "
          "exit codes\n"
       << ".\\\" (lib/base/error.h) by lib/cli/man_page.cc; edit those, not "
          "this file.\n"
       << ".TH ALIGNBENCH 1 " << Quoted(info.date) << " "
       << Quoted("alignbench " + info.version)
       << " \"User Commands\"\n"
       // Option names must not be hyphenated at a line's end, nor spread out.
       << ".nh\n.ad l\n";

  page << ".SH NAME\n"
       << "alignbench \\- "
       << RoffEscape("measure what unaligned synchronous writes cost") << "\n";

  page << ".SH SYNOPSIS\n";
  bool first = true;
  for (const Command& command : Commands()) {
    if (!first) page << ".br\n";
    first = false;
    WriteSynopsisLine(page, command);
  }
}

// DESCRIPTION: what alignbench does, the run's own summary, the subcommands.
void WriteDescription(std::ostream& page, const Command& run) {
  page << ".SH DESCRIPTION\n"
       << RoffEscape(
              "alignbench answers one question: on this disk, this filesystem "
              "and this write-cache setting, what does it cost when "
              "synchronous writes are not aligned? In each --dir it writes a "
              "private test file in runs of synced writes, each pair of runs "
              "once at block-aligned offsets and once shifted by --shift "
              "bytes, in blocks of one run of each variant in random order. "
              "Per pair it prints the mean time per write and sync, the gain "
              "of aligning with its 95% interval, a p-value and a verdict, "
              "the device I/O per write and what it means in words; the "
              "result file (--out) also records the probed environment.")
       << "\n.PP\n";
  WriteParagraphs(page, run.summary);
  page << ".PP\n"
       << RoffEscape("Without a subcommand alignbench measures; " +
                     SubcommandNames() +
                     " are described under SUBCOMMANDS. Numbers are decimal, "
                     "an option given twice is refused (--dir excepted) and "
                     "options are never abbreviated.")
       << "\n";
}

}  // namespace

std::string ManPage(const ManPageInfo& info) {
  std::ostringstream page;
  const Command& run = Commands().front();
  WriteHead(page, info);
  WriteDescription(page, run);
  page << ".SH OPTIONS\n";
  WriteOptions(page, run.options);

  page << ".SH SUBCOMMANDS\n";
  for (const Command& command : Commands()) {
    if (command.id == CommandId::kRun) continue;
    page << ".SS " << Quoted(UsageLine(command)) << "\n";
    WriteParagraphs(page, command.summary);
    WriteOptions(page, command.options);
  }

  page << ".SH EXIT STATUS\n";
  for (const ExitCodeRow& row : kExitCodes) {
    page << ".TP\n.B " << Quoted(row.code) << "\n"
         << RoffEscape(row.meaning) << "\n";
  }

  page << ".SH FILES\n";
  WriteFiles(page, info);

  page << ".SH EXAMPLES\n";
  WriteExamples(page);

  page << ".SH SEE ALSO\n"
       << ".BR fsync (2),\n"
       << ".BR fdatasync (2),\n"
       << ".BR open (2),\n"
       << ".BR posix_fadvise (2)\n"
       << ".PP\n"
       << RoffEscape(
              "The README in /usr/share/doc/alignbench; the reference, the "
              "methodology and the result file's description are in docs/ of "
              "the source tree.")
       << "\n";
  return page.str();
}

}  // namespace alignbench
