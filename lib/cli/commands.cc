#include "lib/cli/commands.h"

#include <algorithm>

#include "lib/base/named.h"
#include "lib/config/options.h"
#include "lib/render/text_compact.h"
#include "lib/render/writers.h"

namespace alignbench {
namespace {

// kFormats, but for the names a command does not take.
std::vector<FormatChoice> ReportFormats(
    std::initializer_list<std::string_view> left_out = {}) {
  std::vector<FormatChoice> choices;
  for (const auto& entry : kFormats) {
    if (std::find(left_out.begin(), left_out.end(), entry.name) ==
        left_out.end()) {
      choices.push_back({entry.name, entry.help});
    }
  }
  return choices;
}

// --format json: the result's document itself, which no writer lays out: the
// same document --out saves.
constexpr FormatChoice kResultJson = {
    "json",
    "the result document, the same --out saves (Google Benchmark's JSON with "
    "the \"alignbench\" section); several directories: an array of theirs"};

// kFormats but `left_out`, then json.
std::vector<FormatChoice> ResultFormats(
    std::initializer_list<std::string_view> left_out, FormatChoice json) {
  std::vector<FormatChoice> choices = ReportFormats(left_out);
  choices.push_back(json);
  return choices;
}

CliOption FormatOption(const std::vector<FormatChoice>& formats) {
  std::string help =
      "stdout format (default " + std::string(formats.front().name) + "):";
  for (const FormatChoice& choice : formats) {
    help += "\n  " + std::string(choice.name) + ": " + std::string(choice.help);
  }
  return {"format", "NAME", help};
}

// --details: the text table's every figure, for a run and show.
CliOption DetailsOption() {
  return {"details", "",
          "with the table format: print every figure (device I/O per "
          "variant, tails, means that point elsewhere, why per size, runs far "
          "off) and the legend, instead of the compact report"};
}

// --format and --help, which every command takes, after its own options.
Command WithCommonOptions(Command command, std::vector<CliOption> own) {
  own.push_back(FormatOption(command.formats));
  own.push_back({"help", "", "this text (also -h)"});
  command.options = std::move(own);
  return command;
}

// The run: every settings row with a command-line name, then what to do with
// the result (not what to measure).
Command RunCommand() {
  std::vector<CliOption> options;
  for (const Option& row : SettingOptions()) {
    if (row.name.empty()) continue;
    options.push_back(
        {row.name, row.value_name, HelpOfOption(row), row.repeatable});
  }
  options.insert(
      options.end(),
      {
          {"case", "FILE",
           "JSON case file, or the name of a shipped case (quick, "
           "derby-2004); options given here override it"},
          {"replay", "TRACE",
           "measure a trace saved by alignbench record as a pair: every "
           "traced file's operations as recorded, each sync by its own call; "
           "the log's writes as recorded against the same moved by --shift "
           "(default 512 here), or, where the recorded writes are unaligned, "
           "against the same stream written as whole 4096-byte blocks"},
          {"replay-aligned", "LAYOUT",
           "with --replay of unaligned writes, the aligned variant: "
           "whole-blocks (default: each commit writes the blocks its bytes "
           "touch, whole) or padded (each commit on the next 4096-byte "
           "boundary)"},
          {"out", "FILE",
           "write the result JSON here (atomically); a new file, or a "
           "regular file with --force"},
          {"force", "", "let --out replace an existing regular file"},
          DetailsOption(),
          {"progress", "",
           "progress lines on stderr (default: only on a terminal)"},
          {"redact-host", "", "leave the host name out of the result"},
          {"version", "", "print the version"},
      });
  Command run =
      WithCommonOptions({CommandId::kRun, "", "[OPTIONS]", 0, 0,
                         "Measures aligned against unaligned synced writes. "
                         "--benchmark_color, --benchmark_counters_tabular and "
                         "--benchmark_context go to Google Benchmark.\n" +
                             std::string(kTableLegend),
                         ResultFormats({}, kResultJson)},
                        options);
  run.passes_benchmark_flags = true;
  return run;
}

// record: a program's writes and syncs to its log, saved as a trace.
Command RecordEntry() {
  Command record = WithCommonOptions(
      {CommandId::kRecord,
       "record",
       "[OPTIONS] [-- COMMAND...]",
       0,
       0,
       "Runs COMMAND under strace (or attaches to --pid and its children "
       "until Ctrl-C/SIGINT) and saves what it wrote and synced to its log "
       "file(s) as a trace for --replay: per commit the extents written, "
       "the syncs by call, truncates, unlinks, re-creations, directory "
       "syncs, reads and stats, the open flags and each file's state, with "
       "the program and its version; no data bytes. A commit ends at each "
       "fsync, "
       "fdatasync or sync_file_range of a traced file and at each write to "
       "one opened O_SYNC or O_DSYNC. Where the commits fit a case's rules, "
       "the case file is written beside the trace.",
       {{"text", "what was recorded, in words"}}},
      {
          {"file", "GLOB",
           "trace the files whose absolute path matches GLOB (* does not "
           "cross /); again for more (default: every regular file written "
           "and synced)",
           true},
          {"pid", "PID",
           "attach to a running process and its children instead of running "
           "COMMAND; stop with Ctrl-C or SIGINT"},
          {"out", "FILE",
           "write the trace here: a new file, or a regular file with --force "
           "(default: PROGRAM.trace.json in the current directory)"},
          {"force", "", "let --out replace an existing regular file"},
          {"per-sync", "",
           "keep every sync a commit of its own (default: the syncs of one "
           "transaction that repeat in one order are one commit)"},
          {"untraced-window", "SECONDS",
           "with --pid, first watch the process this long untraced (default "
           "2; 0: not at all): its write bytes and calls per device flush "
           "then and traced say what tracing did to its grouping"},
      });
  record.takes_command = true;
  return record;
}

// unit: the run asked which alignment the stack wants, the directory its
// operand; every option of the run but those of several directories, of a
// replay and the version.
Command UnitCommand() {
  const Command run = RunCommand();
  Command unit{CommandId::kUnit,
               "unit",
               "[DIR]",
               0,
               1,
               "Finds the alignment writes to DIR (default .) must keep, with "
               "the run's options but --dir, --replay and --version: each "
               "shift is a pair against writes aligned past the largest, and "
               "the unit is the smallest shift from which no larger one costs "
               "anything, by time or by the device counters. Without --shift "
               "it tries half a sector, then every power of two from the "
               "logical sector (with --io direct, its alignment) past the "
               "largest unit a layer declares (page, filesystem block or "
               "cluster, stripe, sectors, optimal I/O; 4M at most); without "
               "--sizes, 4K and 64K writes. The answer sets the unit beside "
               "the layers' own.\n" +
                   std::string(kTableLegend),
               run.formats};
  for (const CliOption& option : run.options) {
    if (option.name == "dir" || option.name == "replay" ||
        option.name == "replay-aligned" || option.name == "version") {
      continue;
    }
    unit.options.push_back(option);
  }
  unit.passes_benchmark_flags = true;
  return unit;
}

std::vector<Command> MakeCommands() {
  return {
      RunCommand(),
      WithCommonOptions(
          {CommandId::kEnv,
           "env",
           "[DIR]",
           0,
           1,
           "Prints what alignbench knows about DIR (default .): host, "
           "filesystem, block device and its write cache.",
           {{"text", "for people; never parse it"},
            {"json", "the result file's \"environment\" object, for scripts"}}},
          {}),
      WithCommonOptions(
          {CommandId::kShow, "show", "FILE", 1, 1,
           "Renders a saved result again, in any format.\n" +
               std::string(kTableLegend),
           ResultFormats({}, {"json", "the file's document as it was read"})},
          {DetailsOption()}),
      // compare's formats: show's but derby and ioping (one result's rows
      // only). More files than 64 are more than a table can show side by side.
      WithCommonOptions(
          {CommandId::kCompare, "compare", "FILE FILE...", 2, 64,
           "Two files without --format: BASE and NEW side by side, pairs "
           "matched by size and settings, the change in each mean and p99, "
           "and every setting that differs.\n"
           "Three or more files, or --format: one table for all of them, per "
           "pair a column group per file (labelled host / disk model / "
           "directory: %gain at the centre of its 95% interval, the interval, "
           "the verdict), then every setting and environment field that "
           "differs between them. csv is one row per file and pair.\n"
           "The 2013 ioping post (results/reference/"
           "ioping-2013-know-your-disk-latency.json) and runs: its summaries "
           "beside theirs, network filesystem, local disk and memory, and "
           "each one's average request against the local disk's.",
           ResultFormats({"derby", "ioping"},
                         {"json",
                          "the files' documents as they were read, in one "
                          "array in the order given"})},
          {{"fail-on-regression", "PCT",
            "exit 5 where a pair got firmly slower in a NEW file (each after "
            "the first) than in the first: its typical or its p99 gain grew "
            "(the two 95% intervals apart, each from 8 blocks or more) and "
            "unaligned's time relative to aligned's by more than PCT %"}}),
      RecordEntry(),
      UnitCommand(),
  };
}

}  // namespace

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = MakeCommands();
  return commands;
}

const Command* FindCommand(std::string_view word) {
  return FindNamed(Commands(), word);
}

const CliOption* FindCliOption(const Command& command, std::string_view name) {
  return FindNamed(command.options, name);
}

std::string UsageLine(const Command& command) {
  std::string line = "alignbench";
  if (!command.name.empty()) line += " " + std::string(command.name);
  line += " " + std::string(command.operands);
  if (command.id != CommandId::kRun) {
    std::string names;
    for (const FormatChoice& choice : command.formats) {
      names += (names.empty() ? "" : "|") + std::string(choice.name);
    }
    line += " [--format " + names + "]";
  }
  return line;
}

}  // namespace alignbench
