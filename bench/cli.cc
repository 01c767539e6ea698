#include "bench/cli.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/config/case_file.h"
#include "lib/config/case_search.h"
#include "lib/config/options.h"

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

namespace {

// Options of the command line alone: what to do with the result, not what to
// measure (those are the settings table's, lib/config/options.h).
struct CommandLineOnly {
  const char* name;
  const char* value;
  std::string help;
};

std::vector<CommandLineOnly> CommandLineOptions() {
  std::string formats;
  for (const auto& entry : kFormats) {
    formats +=
        "\n  " + std::string(entry.name) + ": " + std::string(entry.help);
  }
  return {
      {"case", "FILE",
       "JSON case file, or the name of a shipped case (quick, derby-2004); "
       "options given here override it"},
      {"out", "FILE",
       "write the result JSON here (atomically); a new file, or a regular "
       "file with --force"},
      {"force", "", "let --out replace an existing regular file"},
      {"format", "NAME", "stdout format (default table):" + formats},
      {"progress", "",
       "progress lines on stderr (default: only on a terminal)"},
      {"redact-host", "", "leave the host name out of the result"},
      {"help", "",
       "this text; --benchmark_color, --benchmark_counters_tabular and "
       "--benchmark_context go to Google Benchmark"},
      {"version", "", "print the version"},
  };
}

// Every value is read as text and converted by the settings table, so every
// error names its option.
po::options_description Description() {
  po::options_description desc(
      "Usage: alignbench [OPTIONS]        aligned against shifted synced "
      "writes\n"
      "       alignbench env [DIR]        what alignbench knows about DIR\n"
      "       alignbench show FILE [--format NAME]\n"
      "       alignbench compare FILE FILE... [--format NAME]\n\n"
      "Options",
      100, 50);
  // The one option that may be given more than once: each --dir is measured,
  // in one interleaved schedule.
  const Option& dir = *FindOption("dir");
  desc.add_options()(
      "dir",
      po::value<std::vector<std::string>>()->composing()->value_name("DIR"),
      HelpOfOption(dir).c_str());
  auto add = [&desc](const char* name, const char* value,
                     const std::string& help) {
    if (*value == '\0') {
      desc.add_options()(name, help.c_str());
    } else {
      desc.add_options()(name, po::value<std::string>()->value_name(value),
                         help.c_str());
    }
  };
  for (const Option& option : SettingOptions()) {
    if (option.name.empty() || option.name == "dir") continue;
    add(std::string(option.name).c_str(),
        std::string(option.value_name).c_str(), HelpOfOption(option));
  }
  for (const CommandLineOnly& option : CommandLineOptions()) {
    add(option.name, option.value, option.help);
  }
  return desc;
}

// A word Boost did not know: a --benchmark_* flag to pass on (unless it would
// contradict alignbench), or a mistake answered with the closest option.
Status Unrecognized(const std::string& arg, const po::options_description& desc,
                    std::vector<std::string>& benchmark_flags) {
  if (arg.rfind("--benchmark_", 0) == 0) {
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
  for (const auto& option : desc.options()) {
    known.push_back(option->long_name());
  }
  Error error = PlainError(ErrorKind::kUsage, "command line",
                           "unknown option '" + arg + "'");
  error.hint = ClosestOption(arg, known);
  return error;
}

// Boost's parse, with alignbench's rules: no "--", no option taken as another
// option's value, --benchmark_* flags checked and passed on, and an unknown
// option answered with the closest known one.
Result<po::variables_map> ParseWords(
    const std::vector<std::string>& args, const po::options_description& desc,
    std::vector<std::string>& benchmark_flags) {
  for (const std::string& arg : args) {
    if (arg == "--") {
      return PlainError(
          ErrorKind::kUsage, "command line",
          "unexpected argument '--': alignbench takes options only");
    }
  }
  po::variables_map vm;
  std::vector<std::string> unrecognized;
  try {
    // No guessing of abbreviations: "--v=3" is not a misspelt --version, and
    // an option added later must not change what an old command line means.
    po::parsed_options options =
        po::command_line_parser(args)
            .options(desc)
            .style(po::command_line_style::default_style &
                   ~po::command_line_style::allow_guessing)
            .allow_unregistered()
            .run();
    // Boost takes "--writes --sizes 4K" as --writes="--sizes": refuse that.
    for (const po::option& option : options.options) {
      if (!option.unregistered && !option.value.empty() &&
          option.value.front().rfind("--", 0) == 0) {
        return Usage(option.string_key, "needs a value (got option '" +
                                            option.value.front() + "')");
      }
    }
    unrecognized =
        po::collect_unrecognized(options.options, po::include_positional);
    po::store(options, vm);
  } catch (const po::error& e) {
    return PlainError(ErrorKind::kUsage, "command line", e.what());
  }
  for (const std::string& arg : unrecognized) {
    if (Status known = Unrecognized(arg, desc, benchmark_flags); !known) {
      return known.error();
    }
  }
  return vm;
}

// The directory a path names, so that "d" and "d/" are one; the path itself
// when it does not resolve (the checks before measuring then say why).
std::string SameDirectoryKey(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) ? resolved : path;
}

// The --budget of a run that names neither it nor --repetitions: on a quiet
// disk of the machines this was measured on, every pair of Derby's case
// reached +-5 points well within it; on a busy one the run ends here.
constexpr double kDefaultBudgetSeconds = 60;

// Every --dir, each checked as the settings table checks one, none twice.
Status ApplyDirs(const po::variables_map& vm, SessionOptions& o) {
  const Option& row = *FindOption("dir");
  o.dirs = vm.count("dir") ? vm["dir"].as<std::vector<std::string>>()
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

// The settings the command line gives, over those of --case.
Status ApplySettings(const po::variables_map& vm, SessionOptions& o) {
  Settings& s = o.settings;
  bool repetitions_from_case = false;
  if (vm.count("case")) {
    Result<std::string> found = FindCaseFile(vm["case"].as<std::string>());
    if (!found) return found.error();
    const std::uint64_t repetitions_before = s.repetitions;
    s.repetitions =
        0;  // a case that sets it is told apart from one that does not
    if (Status loaded = ApplyCaseFile(found.value(), s); !loaded) {
      return loaded;
    }
    repetitions_from_case = s.repetitions != 0;
    if (!repetitions_from_case) s.repetitions = repetitions_before;
    o.case_path = found.value();
  }
  for (const Option& option : SettingOptions()) {
    const std::string name(option.name);
    if (name.empty() || name == "dir" || !vm.count(name)) continue;
    const nlohmann::json word = vm[name].as<std::string>();
    if (Status applied = ApplyOption(option, word, FromCommandLine(option), s);
        !applied) {
      return applied;
    }
  }
  // Measure until the gain is known, unless the number of blocks was asked
  // for: a command line or case that names --repetitions (the Derby
  // reproduction, scripts, tests) gets exactly that many.
  if (!vm.count("repetitions") && !repetitions_from_case && !s.budget_seconds) {
    s.budget_seconds = kDefaultBudgetSeconds;
  }
  if (Status dirs = ApplyDirs(vm, o); !dirs) return dirs;
  // A log case's header is one of its rules: a --shift would be ignored.
  if (vm.count("shift") && s.log) {
    return Usage("shift",
                 "does not apply to a log case, whose \"log\" rules set the "
                 "header and framing; change them in a copy of the case");
  }
  return Validate(s);
}

// What to do with the result: where it goes and how stdout looks.
Status ApplyOutputOptions(const po::variables_map& vm, RunOptions& o) {
  if (vm.count("format")) {
    const std::string name = vm["format"].as<std::string>();
    const std::optional<Format> format = FromName(kFormats, name);
    if (name.find(',') != std::string::npos) {
      return Usage("format", "takes one value");
    }
    if (!format) {
      return Usage("format", "unknown value '" + name + "' (expected " +
                                 NameList(kFormats) + ")");
    }
    o.format = *format;
  }
  SessionOptions& session = o.session;
  if (vm.count("out")) session.out = vm["out"].as<std::string>();
  if (vm.count("force")) session.overwrite = Overwrite::kReplace;
  session.redact_host = vm.count("redact-host") > 0;
  session.progress = vm.count("progress") > 0 || ::isatty(STDERR_FILENO) != 0;
  return Ok{};
}

}  // namespace

Result<ParsedRun> ParseRunCommandLine(const std::vector<std::string>& args) {
  const po::options_description desc = Description();
  ParsedRun parsed;
  std::ostringstream help;
  help << desc
       << "\nExit codes: 0 success, 1 usage, 2 setup, 3 I/O error during "
          "measurement, 4 measured but --out could not be written (kept in a "
          "fallback file), 128+N killed by signal N.\n";
  parsed.help = help.str();

  Result<po::variables_map> words =
      ParseWords(args, desc, parsed.options.benchmark_flags);
  if (!words) return words.error();
  const po::variables_map& vm = words.value();
  if (vm.count("help")) {
    parsed.command = Command::kHelp;
  } else if (vm.count("version")) {
    parsed.command = Command::kVersion;
  } else if (Status settings = ApplySettings(vm, parsed.options.session);
             !settings) {
    return settings.error();
  } else if (Status output = ApplyOutputOptions(vm, parsed.options); !output) {
    return output.error();
  }
  return parsed;
}

}  // namespace alignbench
