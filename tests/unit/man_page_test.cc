// The manual page (lib/cli/man_page.h): made from the command table and
// kExitCodes, so every option of every command and every exit code is on it;
// roff's special characters are escaped; every line is a known request or
// text; its examples parse. groff's own verdict on the page is
// tests/integration/man_page.sh.
#include "lib/cli/man_page.h"

#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "lib/base/error.h"
#include "lib/cli/cli.h"
#include "lib/cli/commands.h"

using namespace alignbench;

namespace {

std::string Page() {
  return ManPage({"9.8.7", "2026-11-30", "/usr/share/alignbench"});
}

std::vector<std::string> PageLines(const std::string& page) {
  std::vector<std::string> lines;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of section NAME, up to the next .SH.
std::string Section(const std::string& page, const std::string& name) {
  const std::string head = ".SH " + name + "\n";
  const std::size_t start = page.find(head);
  if (start == std::string::npos) return "";
  const std::size_t body = start + head.size();
  const std::size_t end = page.find("\n.SH ", body);
  return page.substr(body, end == std::string::npos ? end : end + 1 - body);
}

bool Mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++count;
  }
  return count;
}

std::string Tag(const CliOption& option) {
  return "\\fB" + RoffEscape("--" + std::string(option.name)) + "\\fR";
}

}  // namespace

TEST_CASE("man page: roff's special characters are escaped") {
  CHECK(RoffEscape("--dir") == "\\-\\-dir");
  CHECK(RoffEscape("a\\b") == "a\\eb");
  CHECK(RoffEscape("say \"x\"") == "say \\(dqx\\(dq");
  CHECK(RoffEscape(".hidden") == "\\&.hidden");
  CHECK(RoffEscape("'quoted'") == "\\&'quoted'");
  CHECK(RoffEscape("one\n.two\n'three") == "one\n\\&.two\n\\&'three");
  CHECK(RoffEscape("a.b") == "a.b");
  CHECK(RoffEscape("2^53 ~ `x`") == "2\\(ha53 \\(ti \\(gax\\(ga");
  CHECK(RoffEscape("\xC2\xB1"
                   "5") == "\\[u00B1]5");                 // ±
  CHECK(RoffEscape("\xE2\x88\x92") == "\\[u2212]");       // minus sign
  CHECK(RoffEscape("\xF0\x9F\x98\x80") == "\\[u1F600]");  // outside the BMP
  CHECK(RoffEscape("\xC2") == "\\[u00C2]");               // cut short
}

TEST_CASE("man page: the sections, in the order man-pages(7) gives") {
  const std::string page = Page();
  const std::vector<std::string> sections = {
      "NAME",        "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS",
      "EXIT STATUS", "FILES",    "EXAMPLES",    "SEE ALSO"};
  std::size_t last = 0;
  for (const std::string& name : sections) {
    INFO(name);
    const std::size_t at = page.find("\n.SH " + name + "\n");
    REQUIRE(at != std::string::npos);
    CHECK(at > last);
    last = at;
    CHECK_FALSE(Section(page, name).empty());
  }
  CHECK(Count(page, "\n.SH ") == sections.size());
  CHECK(page.find(".TH ALIGNBENCH 1 \"2026\\-11\\-30\" \"alignbench 9.8.7\"") !=
        std::string::npos);
  // whatis and lintian read the NAME line: "name \- summary".
  CHECK(Section(page, "NAME").rfind("alignbench \\- ", 0) == 0);
}

TEST_CASE("man page: the synopsis is every command's usage line") {
  const std::string synopsis = Section(Page(), "SYNOPSIS");
  for (const Command& command : Commands()) {
    INFO(UsageLine(command));
    std::string head = "alignbench";
    if (!command.name.empty()) head += " " + std::string(command.name);
    CHECK(Mentions(synopsis,
                   ".B \"" + head + "\"\n" +
                       RoffEscape(UsageLine(command).substr(head.size() + 1)) +
                       "\n"));
  }
}

TEST_CASE("man page: every option of the table, in its command's section") {
  const std::string page = Page();
  const std::string options = Section(page, "OPTIONS");
  const std::string subcommands = Section(page, "SUBCOMMANDS");
  for (const Command& command : Commands()) {
    INFO(command.name);
    std::string where = options;
    if (command.id != CommandId::kRun) {
      const std::string head = ".SS \"" + RoffEscape(UsageLine(command)) + "\"";
      const std::size_t start = subcommands.find(head);
      REQUIRE(start != std::string::npos);
      where = subcommands.substr(start,
                                 subcommands.find(".SS ", start + 1) - start);
    }
    for (const CliOption& option : command.options) {
      INFO(option.name);
      std::string tag = ".TP\n" + Tag(option);
      if (!option.value_name.empty()) {
        tag += " \\fI" + RoffEscape(option.value_name) + "\\fR";
      }
      CHECK(Count(where, tag + "\n") == 1);
      // The help's first line follows the tag.
      const std::string help = option.help.substr(0, option.help.find('\n'));
      CHECK(Mentions(where, tag + "\n" + RoffEscape(help) + "\n"));
    }
    // Each value --format takes, with its help.
    for (const FormatChoice& format : command.formats) {
      CHECK(Mentions(where, ".B \"" + RoffEscape(format.name) + "\"\n" +
                                RoffEscape(format.help) + "\n"));
    }
  }
}

TEST_CASE("man page: the exit status is kExitCodes, complete") {
  const std::string exit_status = Section(Page(), "EXIT STATUS");
  for (const ExitCodeRow& row : kExitCodes) {
    INFO(row.code);
    CHECK(Mentions(exit_status, ".TP\n.B \"" + RoffEscape(row.code) + "\"\n" +
                                    RoffEscape(row.meaning) + "\n"));
  }
  CHECK(Count(exit_status, ".TP\n") == std::size(kExitCodes));
}

TEST_CASE("man page: the files name the installed data directory") {
  const std::string files = Section(Page(), "FILES");
  CHECK(Mentions(files, "\"/usr/share/alignbench/cases/\""));
  CHECK(Mentions(files,
                 "\"/usr/share/alignbench/schema/alignbench\\-result.schema."
                 "json\""));
  CHECK(Mentions(files, "alignbench\\-result\\-PID\\-RANDOM.json"));
}

TEST_CASE("man page: every example parses as a command line") {
  const std::string examples = Section(Page(), "EXAMPLES");
  REQUIRE(ManExamples().size() >= 3);
  std::set<CommandId> shown;
  for (const ManExample& example : ManExamples()) {
    const std::vector<std::string> args(example.args.begin(),
                                        example.args.end());
    std::string line = "alignbench";
    for (const std::string& arg : args) line += " " + arg;
    INFO(line);
    Result<ParsedCommand> parsed = ParseCommandLine(args);
    REQUIRE(parsed.ok());
    shown.insert(parsed.value().command->id);
    CHECK(Mentions(examples, ".nf\n" + RoffEscape(line) + "\n.fi\n"));
  }
  // Each command is shown at least once.
  CHECK(shown.size() == Commands().size());
}

TEST_CASE("man page: every line is a request it means or plain text") {
  const std::set<std::string> requests = {
      ".\\\"", ".TH", ".SH", ".SS", ".TP", ".B",  ".I",  ".BR",
      ".PP",   ".RS", ".RE", ".nf", ".fi", ".br", ".nh", ".ad"};
  const std::regex unescaped_minus(R"((^|[^\\])-)");
  for (const std::string& line : PageLines(Page())) {
    INFO(line);
    CHECK_FALSE(line.empty());
    for (char c : line) CHECK(static_cast<unsigned char>(c) < 0x80);
    if (line.front() == '.') {
      CHECK(requests.count(line.substr(0, line.find(' '))) == 1);
      if (line.rfind(".\\\"", 0) == 0) continue;  // a comment
    }
    CHECK(line.front() != '\'');
    CHECK_FALSE(std::regex_search(line, unescaped_minus));
  }
}

TEST_CASE("man page: the description names every subcommand") {
  const std::string page = Page();
  const std::size_t description = page.find(".SH DESCRIPTION");
  const std::size_t options = page.find(".SH OPTIONS");
  REQUIRE(description < options);
  const std::string text = page.substr(description, options - description);
  for (const Command& command : Commands()) {
    if (command.id == CommandId::kRun) continue;
    INFO(command.name);
    CHECK(text.find(std::string(command.name)) != std::string::npos);
  }
  CHECK(text.find("env, show, compare, record and unit are described") !=
        std::string::npos);
}
