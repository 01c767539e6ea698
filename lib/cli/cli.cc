#include "lib/cli/cli.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <initializer_list>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/base/text.h"
#include "lib/cli/unit_search.h"
#include "lib/config/case_file.h"
#include "lib/config/case_search.h"
#include "lib/config/options.h"
#include "lib/config/replay.h"
#include "lib/config/trace_file.h"

namespace alignbench {
namespace {

namespace po = boost::program_options;

Error Usage(const std::string& option, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "option --" + option, why);
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min(
          {row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Google Benchmark flags that would contradict what alignbench does, and what
// to use instead.
struct RefusedFlag {
  std::string_view name;
  std::string_view instead;
};
constexpr RefusedFlag kRefusedBenchmarkFlags[] = {
    {"--benchmark_out",
     "use --out: the result file holds Google Benchmark's JSON"},
    {"--benchmark_out_format", "use --out; the result file is JSON"},
    {"--benchmark_format", "use --format"},
    {"--benchmark_repetitions", "use --repetitions"},
    {"--benchmark_min_time",
     "use --writes: every run does exactly that many writes"},
    {"--benchmark_min_warmup_time", "use --warmup"},
    {"--benchmark_time_unit", "times are reported in ms and ns"},
    {"--benchmark_report_aggregates_only", "alignbench reports every run"},
    {"--benchmark_display_aggregates_only", "alignbench prints its own table"},
    {"--benchmark_list_tests",
     "the benchmarks are alignbench/SIZE/VARIANT/SYNC/IO/LAYOUT/CACHE"},
    {"--benchmark_filter",
     "select with --sizes, --sync, --io, --layout and --cache"},
    {"--benchmark_enable_random_interleaving",
     "alignbench orders the runs itself, in blocks (--seed repeats an order)"},
    {"--benchmark_perf_counters",
     "alignbench times every write and sync itself and counts the device's "
     "I/O; Google Benchmark's counters would time its own loop"},
};

// What Google Benchmark itself would accept without a word: its own parser
// takes "banana" as a colour and prints half a line for a perf counter it
// cannot open, so alignbench checks the values it passes on.
bool OneOf(const std::string& value, std::initializer_list<const char*> ok) {
  return std::any_of(ok.begin(), ok.end(),
                     [&](const char* name) { return value == name; });
}

// "key=value" pairs separated by commas, each key non-empty and once.
bool ContextPairs(const std::string& value) {
  if (value.empty()) return false;
  std::vector<std::string> keys;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string item = value.substr(start, comma - start);
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0) return false;
    const std::string key = item.substr(0, equals);
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return false;
    keys.push_back(key);
    start = comma + 1;
  }
  return true;
}

struct PassedFlag {
  std::string_view name;
  bool (*valid)(const std::string&);
  std::string_view expected;
};
const PassedFlag kPassedBenchmarkFlags[] = {
    {"--benchmark_color",
     [](const std::string& v) {
       return OneOf(v, {"auto", "true", "false", "yes", "no"});
     },
     "auto, true, false, yes or no"},
    {"--benchmark_counters_tabular",
     [](const std::string& v) {
       return OneOf(v, {"true", "false"});
     },
     "true or false"},
    {"--benchmark_context", ContextPairs,
     "KEY=VALUE pairs separated by commas, each key once"},
};

Status CheckBenchmarkFlag(const std::string& arg) {
  const std::size_t equals = arg.find('=');
  const std::string name = arg.substr(0, equals);
  for (const RefusedFlag& refused : kRefusedBenchmarkFlags) {
    if (name == refused.name) {
      return Usage(name.substr(2), "is not passed to Google Benchmark: " +
                                       std::string(refused.instead));
    }
  }
  std::string passed;
  for (const PassedFlag& flag : kPassedBenchmarkFlags) {
    passed += (passed.empty() ? "" : ", ") + std::string(flag.name);
    if (name != flag.name) continue;
    const std::string value =
        equals == std::string::npos ? "" : arg.substr(equals + 1);
    if (equals == std::string::npos || !flag.valid(value)) {
      return Usage(name.substr(2), "expected " + name + "=VALUE, VALUE " +
                                       std::string(flag.expected) + "; got '" +
                                       arg + "'");
    }
    return Ok{};
  }
  return Usage(name.substr(2),
               "is not a Google Benchmark flag alignbench "
               "passes on (it passes " +
                   passed + ")");
}

}  // namespace

std::string ClosestOption(const std::string& unknown,
                          const std::vector<std::string>& known) {
  std::string stripped = unknown.substr(0, unknown.find('='));
  while (!stripped.empty() && stripped.front() == '-') stripped.erase(0, 1);
  std::string best;
  std::size_t best_distance = 3;  // more than two edits away is not "close"
  for (const std::string& name : known) {
    const std::size_t d = EditDistance(stripped, name);
    if (d < best_distance &&
        2 * d < stripped.size()) {  // "x" is close to nothing
      best_distance = d;
      best = name;
    }
  }
  return best.empty() ? "" : "did you mean --" + best + "?";
}

bool ParsedCommand::Has(std::string_view name) const {
  return values.find(name) != values.end();
}

const std::string& ParsedCommand::Value(std::string_view name) const {
  return values.find(name)->second.back();
}

namespace {

// --help in lines of at most this many columns, a terminal's width.
constexpr std::size_t kHelpWidth = 80;

// The hidden option Boost hands a subcommand's operands to.
constexpr const char* kOperand = "operand";

// The command's options, from the table; every value is read as text and
// converted where it acts, so every error names its option.
po::options_description Description(const Command& command) {
  po::options_description desc("Options", kHelpWidth, kHelpWidth / 2);
  for (const CliOption& option : command.options) {
    const std::string name(option.name);
    const std::string value(option.value_name);
    if (option.repeatable) {
      desc.add_options()(
          name.c_str(),
          po::value<std::vector<std::string>>()->composing()->value_name(value),
          option.help.c_str());
    } else if (value.empty()) {
      desc.add_options()(name.c_str(), option.help.c_str());
    } else {
      desc.add_options()(name.c_str(),
                         po::value<std::string>()->value_name(value),
                         option.help.c_str());
    }
  }
  return desc;
}

// A word Boost did not know: a --benchmark_* flag to pass on (unless it would
// contradict alignbench), or a mistake answered with the closest option.
Status Unrecognized(const std::string& arg, const Command& command,
                    std::vector<std::string>& benchmark_flags) {
  if (command.passes_benchmark_flags && arg.rfind("--benchmark_", 0) == 0) {
    if (Status allowed = CheckBenchmarkFlag(arg); !allowed) return allowed;
    benchmark_flags.push_back(arg);
    return Ok{};
  }
  if (arg.rfind("-", 0) != 0) {
    return PlainError(
        ErrorKind::kUsage, "command line",
        "unexpected argument '" + arg + "' (options start with --)");
  }
  std::vector<std::string> known;
  for (const CliOption& option : command.options) {
    known.emplace_back(option.name);
  }
  Error error = PlainError(ErrorKind::kUsage, "command line",
                           "unknown option '" + arg + "'");
  error.hint = ClosestOption(arg, known);
  return error;
}

// A word Boost would read without complaint but alignbench refuses: an
// operand where the command takes none, an option whose value is an option.
Status CheckParsed(const po::parsed_options& options) {
  for (const po::option& option : options.options) {
    if (option.string_key == kOperand && option.position_key == -1) {
      return PlainError(ErrorKind::kUsage, "command line",
                        "unknown option '--" + option.string_key + "'");
    }
    // Boost takes "--writes --sizes 4K" as --writes="--sizes": refuse it.
    if (!option.unregistered && option.position_key == -1 &&
        !option.value.empty() && option.value.front().rfind("--", 0) == 0) {
      return Usage(option.string_key,
                   "needs a value (got option '" + option.value.front() + "')");
    }
  }
  return Ok{};
}

// The options and operands Boost stored, into `parsed`.
void StoreValues(const po::variables_map& vm, ParsedCommand& parsed) {
  for (const CliOption& option : parsed.command->options) {
    const std::string name(option.name);
    if (!vm.count(name)) continue;
    if (option.repeatable) {
      parsed.values[name] = vm[name].as<std::vector<std::string>>();
    } else {
      parsed.values[name] = {option.value_name.empty()
                                 ? std::string()
                                 : vm[name].as<std::string>()};
    }
  }
  if (vm.count(kOperand)) {
    parsed.operands = vm[kOperand].as<std::vector<std::string>>();
  }
}

// Boost's parse, with alignbench's rules: no "--", no option taken as another
// option's value, --benchmark_* flags checked and passed on, and an unknown
// option answered with the closest known one.
Status ParseWords(const std::vector<std::string>& args, ParsedCommand& parsed) {
  const Command& command = *parsed.command;
  if (std::find(args.begin(), args.end(), "--") != args.end()) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "unexpected argument '--': alignbench has no end of "
                      "options; a word that starts with - is an option");
  }
  po::options_description desc = Description(command);
  po::positional_options_description positional;
  if (command.max_operands > 0) {
    desc.add_options()(kOperand, po::value<std::vector<std::string>>());
    positional.add(kOperand, -1);
  }
  po::variables_map vm;
  std::vector<std::string> unrecognized;
  try {
    // No guessing of abbreviations: "--v=3" is not a misspelt --version, and
    // an option added later must not change what an old command line means.
    po::command_line_parser parser(args);
    parser.options(desc)
        .style(po::command_line_style::default_style &
               ~po::command_line_style::allow_guessing)
        .allow_unregistered();
    // Without operands a word that is no option is unrecognized, and said so.
    if (command.max_operands > 0) parser.positional(positional);
    po::parsed_options options = parser.run();
    if (Status ok = CheckParsed(options); !ok) return ok;
    unrecognized = po::collect_unrecognized(
        options.options, command.max_operands > 0 ? po::exclude_positional
                                                  : po::include_positional);
    po::store(options, vm);
  } catch (const po::error& e) {
    return PlainError(ErrorKind::kUsage, "command line", e.what());
  }
  for (const std::string& arg : unrecognized) {
    if (Status known = Unrecognized(arg, command, parsed.benchmark_flags);
        !known) {
      return known;
    }
  }
  StoreValues(vm, parsed);
  return Ok{};
}

// The operands' count, and --format: one of the command's formats.
Status CheckCommand(ParsedCommand& parsed) {
  const Command& command = *parsed.command;
  const std::size_t count = parsed.operands.size();
  if (count < command.min_operands || count > command.max_operands) {
    const std::size_t min = command.min_operands, max = command.max_operands;
    return PlainError(
        ErrorKind::kUsage, "command line",
        std::string(command.name) + " takes " +
            (min == max ? std::to_string(min)
                        : std::to_string(min) + " to " + std::to_string(max)) +
            " operand(s), got " + std::to_string(count));
  }
  parsed.format = std::string(command.formats.front().name);
  if (parsed.Has("details") && parsed.Has("format") &&
      parsed.Value("format") != "table") {
    return Usage("details",
                 "applies to --format table, the one format with a compact "
                 "form; leave --format out, or --details");
  }
  if (!parsed.Has("format")) return Ok{};
  const std::string& name = parsed.Value("format");
  if (name.find(',') != std::string::npos) {
    return Usage("format", "takes one value");
  }
  std::string names;
  for (const FormatChoice& choice : command.formats) {
    if (choice.name == name) {
      parsed.format = name;
      return Ok{};
    }
    names += (names.empty() ? "" : ", ") + std::string(choice.name);
  }
  return Usage("format",
               "unknown value '" + name + "' (expected " + names + ")");
}

// The directory a path names, so that "d" and "d/" are one; the path itself
// when it does not resolve (the checks before measuring then say why).
std::string SameDirectoryKey(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) ? resolved : path;
}

// The --budget of a run that names neither it nor --repetitions: 60 s at the
// default +-5 points, within which every pair of Derby's case got there on a
// quiet disk of the machines this was measured on (on a busy one the run ends
// here). An interval narrows as 1/sqrt(blocks), so a finer --precision P needs
// (5/P)^2 times the blocks, and its budget grows alike: 375 s at +-2.
double DefaultBudgetSeconds(double precision_points) {
  const double ratio = Settings{}.precision_points / precision_points;
  return std::min(kMaxBudgetSeconds, std::ceil(60 * ratio * ratio));
}

// Every --dir, each checked as the settings table checks one, none twice:
// the one repeatable row, as a session measures several directories.
Status ApplyDirs(const ParsedCommand& parsed, SessionOptions& o) {
  const Option& row = *FindOption("dir");
  o.dirs = parsed.Has("dir") ? parsed.values.find("dir")->second
                             : std::vector<std::string>{o.settings.dir};
  for (auto at = o.dirs.begin(); at != o.dirs.end(); ++at) {
    Settings check;
    if (Status ok = ApplyOption(row, *at, FromCommandLine(row), check); !ok) {
      return ok;
    }
    for (auto before = o.dirs.begin(); before != at; ++before) {
      if (SameDirectoryKey(*before) == SameDirectoryKey(*at)) {
        return Usage(
            "dir", "'" + *at + "' is the same directory as '" + *before + "'");
      }
    }
  }
  o.settings.dir = o.dirs.front();
  return Ok{};
}

// --replay-aligned: the aligned layout of an unaligned stream.
Result<ReplayRule> ReplayAligned(const ParsedCommand& parsed) {
  if (!parsed.Has("replay-aligned")) return ReplayRule::kWholeBlocks;
  const std::string& layout = parsed.Value("replay-aligned");
  if (layout == "padded") return ReplayRule::kAlign;
  if (layout == "whole-blocks") return ReplayRule::kWholeBlocks;
  return Usage("replay-aligned",
               "'" + EscapeControl(layout) + "': whole-blocks or padded");
}

// The settings the command line gives, over those of --case.
// --replay TRACE: the trace's commits instead of a workload, and the axes
// its log file had (sync call, O_DIRECT, state); what the command line sets
// of these is refused rather than silently not measured.
Status ApplyReplay(const ParsedCommand& parsed, Settings& s) {
  if (parsed.Has("case")) {
    return Usage("replay",
                 "measures the trace's own commits: no --case with it");
  }
  for (const char* axis : {"sizes", "sync", "io", "layout", "cache"}) {
    if (parsed.Has(axis)) {
      return Usage("replay", std::string("takes --") + axis +
                                 " from the trace: leave --" + axis + " out");
    }
  }
  const std::string& path = parsed.Value("replay");
  Result<std::string> text = ReadTraceText(path);
  if (!text) return text.error();
  Result<Trace> trace = ParseTrace(text.value(), path);
  if (!trace) return trace.error();
  Result<ReplayRule> unaligned = ReplayAligned(parsed);
  if (!unaligned) return unaligned.error();
  Result<Replay> replay = ReplayOf(
      trace.value(), path, text.value(),
      parsed.Has("shift") ? s.shifts.front() : kReplayShift, unaligned.value());
  if (!replay) return replay.error();
  const Replay& r = replay.value();
  // Said before anything is measured, and kept in the result's warnings.
  for (const std::string& note : r.notes) {
    std::cerr << "alignbench: replay: " << EscapeControl(note) << "\n";
  }
  if (parsed.Has("shift") && r.rule != ReplayRule::kShift) {
    return Usage("shift",
                 "moves the writes of a trace that writes at 4096-byte "
                 "boundaries; this one's commits mostly start elsewhere and "
                 "are paired with the same stream aligned (--replay-aligned)");
  }
  if (parsed.Has("replay-aligned") && r.rule == ReplayRule::kShift) {
    return Usage("replay-aligned",
                 "aligns a trace whose commits mostly start off 4096-byte "
                 "boundaries; this one's start on them and are paired with "
                 "its writes moved by --shift");
  }
  const std::uint64_t commits = r.commits;
  if (!parsed.Has("writes")) s.writes = commits - std::min(commits, s.warmup);
  if (s.writes + s.warmup > commits) {
    return Usage(parsed.Has("writes") ? "writes" : "warmup",
                 "the trace has " + std::to_string(commits) +
                     " commits: --warmup and --writes together at most that");
  }
  s.sizes = {r.bytes_per_commit};
  s.shifts = {r.shift};
  s.syncs = {r.sync};
  s.ios = {r.io};
  s.layouts = {r.layout};
  s.caches = {r.layout == Layout::kPrewritten ? CacheState::kCold
                                              : CacheState::kWarm};
  // O_DIRECT moved by a shift is what a database builds in memory: whole
  // blocks, staged, as the log cases do.
  if (r.io == IoMode::kDirect && !parsed.Has("direct-unaligned")) {
    s.direct_unaligned = DirectUnaligned::kStage;
  }
  s.replay = std::make_shared<const Replay>(r);
  return Ok{};
}

Status ApplySettings(const ParsedCommand& parsed, SessionOptions& o) {
  Settings& s = o.settings;
  bool repetitions_from_case = false;
  if (parsed.Has("case")) {
    Result<std::string> found = FindCaseFile(parsed.Value("case"));
    if (!found) return found.error();
    const std::uint64_t repetitions_before = s.repetitions;
    // A case that sets it is told apart from one that does not.
    s.repetitions = 0;
    if (Status loaded = ApplyCaseFile(found.value(), s); !loaded) {
      return loaded;
    }
    repetitions_from_case = s.repetitions != 0;
    if (!repetitions_from_case) s.repetitions = repetitions_before;
    o.case_path = found.value();
  }
  for (const Option& option : SettingOptions()) {
    if (option.repeatable || !parsed.Has(option.name)) continue;
    const nlohmann::json word = parsed.Value(option.name);
    if (Status applied = ApplyOption(option, word, FromCommandLine(option), s);
        !applied) {
      return applied;
    }
  }
  // Measure until the gain is known, unless the number of blocks was asked
  // for: a command line or case that names --repetitions (the Derby
  // reproduction, scripts, tests) gets exactly that many.
  if (!parsed.Has("repetitions") && !repetitions_from_case &&
      !s.budget_seconds) {
    s.budget_seconds = DefaultBudgetSeconds(s.precision_points);
  }
  if (Status dirs = ApplyDirs(parsed, o); !dirs) return dirs;
  if (parsed.Has("replay") && s.shifts.size() > 1) {
    return Usage("shift",
                 "moves a replay's writes by one shift: give one value");
  }
  if (parsed.Has("replay")) {
    if (Status replayed = ApplyReplay(parsed, s); !replayed) return replayed;
  } else if (parsed.Has("replay-aligned")) {
    return Usage("replay-aligned", "only with --replay");
  }
  // A log case's header is one of its rules: a --shift would be ignored.
  if (parsed.Has("shift") && s.log) {
    return Usage("shift",
                 "does not apply to a log case, whose \"log\" rules set the "
                 "header and framing; change them in a copy of the case");
  }
  return Validate(s);
}

}  // namespace

Result<ParsedCommand> ParseCommandLine(const std::vector<std::string>& args) {
  // Bare, it would write and sync for a minute in whatever directory it was
  // started in: a newcomer's first try is told what to give instead.
  if (args.empty()) {
    return PlainError(ErrorKind::kUsage, "command line",
                      "nothing to do: name the directory to measure with --dir "
                      "DIR (the Derby experiment: --case derby-2004 --dir "
                      "/var/tmp)");
  }
  ParsedCommand parsed;
  const Command* named = args.empty() ? nullptr : FindCommand(args.front());
  parsed.command = named ? named : &Commands().front();
  std::vector<std::string> words(args.begin() + (named ? 1 : 0), args.end());
  if (parsed.command->takes_command) {
    const auto dashes = std::find(words.begin(), words.end(), "--");
    if (dashes != words.end()) {
      parsed.command_argv.assign(dashes + 1, words.end());
      words.erase(dashes, words.end());
    }
  }
  // -h is --help: the first thing a newcomer types.
  std::replace(words.begin(), words.end(), std::string("-h"),
               std::string("--help"));
  if (Status ok = ParseWords(words, parsed); !ok) return ok.error();
  if (parsed.Has("help") || parsed.Has("version")) return parsed;
  if (Status ok = CheckCommand(parsed); !ok) return ok.error();
  return parsed;
}

// Whether `command` exits with the codes of `scope`.
bool ExitsWith(const Command& command, ExitScope scope) {
  switch (scope) {
    case ExitScope::kEveryCommand:
      return true;
    case ExitScope::kMeasurement:
      return command.id == CommandId::kRun || command.id == CommandId::kUnit;
    case ExitScope::kRecord:
      return command.id == CommandId::kRecord;
    case ExitScope::kCompare:
      return command.id == CommandId::kCompare;
  }
  return true;
}

namespace {

// `text` in lines of 80 beside `head`, every line begun at column 10:
// Wrapped would make the spaces after `head` one.
std::string Hanging(const std::string& head, const std::string& text) {
  constexpr std::size_t kAt = 10;
  std::istringstream lines(Wrapped(text, kHelpWidth - kAt));
  std::string out;
  std::string start = head + std::string(kAt - head.size(), ' ');
  for (std::string line; std::getline(lines, line);) {
    out += start + line + "\n";
    start = std::string(kAt, ' ');
  }
  return out;
}

}  // namespace

std::string HelpText(const Command& command) {
  std::ostringstream help;
  const char* prefix = "Usage: ";
  for (const Command& each : Commands()) {
    if (command.id != CommandId::kRun && each.id != command.id) continue;
    help << prefix << UsageLine(each) << "\n";
    prefix = "       ";
  }
  // Each paragraph of the summary in lines of 80, as the options are.
  std::istringstream paragraphs(command.summary);
  help << "\n";
  for (std::string paragraph; std::getline(paragraphs, paragraph);) {
    help << Wrapped(paragraph, kHelpWidth) << "\n";
  }
  help << "\n" << Description(command);
  help << "\nExit codes:\n";
  for (const ExitCodeRow& row : kExitCodes) {
    if (!ExitsWith(command, row.scope)) continue;
    // A command that measures nothing says what the code means for it.
    const bool reads = command.id != CommandId::kRun && !row.reading.empty();
    help << Hanging("  " + std::string(row.code),
                    std::string(reads ? row.reading : row.meaning));
  }
  return help.str();
}

Format ReportFormat(const ParsedCommand& parsed) {
  return FromName(kFormats, parsed.format).value_or(Format::kTable);
}

Detail ReportDetail(const ParsedCommand& parsed) {
  return parsed.Has("details") ? Detail::kFull : Detail::kCompact;
}

Result<RunOptions> RunOptionsOf(const ParsedCommand& parsed) {
  RunOptions o;
  const bool unit = parsed.command->id == CommandId::kUnit;
  if (unit) o.session.settings = UnitSearchDefaults(parsed.operands);
  if (Status ok = ApplySettings(parsed, o.session); !ok) return ok.error();
  if (unit) {
    if (Status ok = ApplyUnitSearch(parsed.Has("shift"), o.session); !ok) {
      return ok.error();
    }
  }
  o.format = ReportFormat(parsed);
  o.detail = ReportDetail(parsed);
  o.result_json = parsed.format == "json";
  o.benchmark_flags = parsed.benchmark_flags;
  SessionOptions& session = o.session;
  if (parsed.Has("out")) session.out = parsed.Value("out");
  if (parsed.Has("force")) session.overwrite = Overwrite::kReplace;
  session.redact_host = parsed.Has("redact-host");
  session.progress = parsed.Has("progress") || ::isatty(STDERR_FILENO) != 0;
  return o;
}

}  // namespace alignbench
