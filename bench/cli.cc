#include "bench/cli.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "lib/config/case_search.h"
#include "lib/config/size.h"
#include "lib/stats/compare.h"

namespace alignbench {
namespace {

namespace po = boost::program_options;

Error Usage(const std::string& option, const std::string& why) {
  return PlainError(ErrorKind::kUsage, "option --" + option, why);
}

Result<std::uint64_t> ParseCount(const std::string& text,
                                 const std::string& option,
                                 std::size_t max_digits = 12) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit)) {
    return Usage(option, "'" + text + "' is not a non-negative whole number");
  }
  if (text.size() > max_digits) {
    return Usage(option, "'" + text + "' is too large");
  }
  return std::stoull(text);
}

Result<double> ParsePositive(const std::string& text,
                             const std::string& option) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() ||
      !std::isfinite(value) || !(value > 0)) {
    return Usage(option, "'" + text + "' is not a number above 0");
  }
  return value;
}

// "fsync,fdatasync" → the values of `table`; names the option and the known
// values on error.
template <typename E, std::size_t N>
Result<std::vector<E>> ParseNameList(const Named<E> (&table)[N],
                                     const std::string& text,
                                     const std::string& option) {
  std::vector<E> values;
  // Every item counts, also an empty one ("fsync," is a mistake, not fsync).
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    auto value = FromName(table, item);
    if (!value) {
      return Usage(option, "unknown value '" + item + "' (expected " +
                               NameList(table) + ")");
    }
    values.push_back(*value);
  }
  if (values.empty())
    return Usage(option, "needs a value (" + NameList(table) + ")");
  return values;
}

template <typename E, std::size_t N>
std::string HelpFor(const Named<E> (&table)[N]) {
  std::string help;
  for (const auto& entry : table) {
    help += "\n  " + std::string(entry.name) + ": " + std::string(entry.help);
  }
  return help;
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
// to use instead. Every other --benchmark_* flag is passed through.
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
};

Status CheckBenchmarkFlag(const std::string& arg) {
  const std::string name = arg.substr(0, arg.find('='));
  for (const RefusedFlag& refused : kRefusedBenchmarkFlags) {
    if (name == refused.name) {
      return Usage(name.substr(2), "is not passed to Google Benchmark: " +
                                       std::string(refused.instead));
    }
  }
  return Ok{};
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

Result<ParsedRun> ParseRunCommandLine(const std::vector<std::string>& args) {
  po::options_description desc(
      "Usage: alignbench [OPTIONS]        aligned against shifted synced "
      "writes\n"
      "       alignbench env [DIR]        what alignbench knows about DIR\n"
      "       alignbench show FILE [--format NAME]\n"
      "       alignbench compare FILE FILE... [--format NAME]\n\n"
      "Options",
      100, 50);
  // Values are read as text and converted here, so every error names its
  // option.
  // The options table: name, value name (empty for a flag) and help. Defaults
  // in the help come from Settings, so they cannot drift from the code.
  const Settings d;
  const struct {
    const char* name;
    const char* value;
    std::string help;
  } kOptions[] = {
      {"dir", "DIR",
       "directory for the private test file (default " + d.dir + ")"},
      {"sizes", "LIST",
       "block sizes: 4K,64K or 1K..512K (default Derby's 13, 512K down to 1K)"},
      {"shift", "BYTES",
       "shift of the unaligned writes (default " + std::to_string(d.shift) +
           ")"},
      {"writes", "N",
       "timed writes per run (default " + std::to_string(d.writes) + ")"},
      {"warmup", "N",
       "untimed writes before them (default " + std::to_string(d.warmup) + ")"},
      {"repetitions", "N",
       "runs per variant of each pair, in blocks of one run of each variant "
       "(default " +
           std::to_string(d.repetitions) + "; a verdict needs " +
           std::to_string(kMinRunsForVerdict) + ")"},
      {"seed", "N",
       "the seed of the run order; the same seed repeats the same order "
       "(default: a fresh one, recorded in the result)"},
      {"budget", "SECONDS",
       "after the first runs, measure as many more as each pair needs for "
       "--precision (decided once, from their variance), for the pairs that "
       "fit in this many seconds of measuring"},
      {"precision", "POINTS",
       "target half-width of the gain interval, in %gain points (default " +
           Printf("%g", d.precision_points) + ")"},
      {"progress", "",
       "progress lines on stderr (default: only on a terminal)"},
      {"sync", "LIST",
       "sync after each write; a list measures each (default fsync):" +
           HelpFor(kSyncMethods)},
      {"io", "LIST", "I/O path (default buffered):" + HelpFor(kIoModes)},
      {"layout", "LIST",
       "the file before the run (default extend):" + HelpFor(kLayouts)},
      {"cache", "LIST",
       "page cache before the run (default warm):" + HelpFor(kCacheStates)},
      {"direct-unaligned", "HOW",
       "direct writes at unaligned offsets (default report):" +
           HelpFor(kDirectUnaligned)},
      {"case", "FILE",
       "JSON case file, or the name of a shipped case (quick, derby-2004); "
       "options given here override it"},
      {"out", "FILE",
       "write the result JSON here (atomically); a new file, or a regular "
       "file with --force"},
      {"force", "", "let --out replace an existing regular file"},
      {"format", "NAME", "stdout format (default table):" + HelpFor(kFormats)},
      {"redact-host", "", "leave the host name out of the result"},
      {"help", "", "this text; --benchmark_* flags go to Google Benchmark"},
      {"version", "", "print the version"},
  };
  for (const auto& option : kOptions) {
    if (*option.value == '\0') {
      desc.add_options()(option.name, option.help.c_str());
    } else {
      desc.add_options()(option.name,
                         po::value<std::string>()->value_name(option.value),
                         option.help.c_str());
    }
  }

  ParsedRun parsed;
  std::ostringstream help;
  help << desc
       << "\nExit codes: 0 success, 1 usage, 2 setup, 3 I/O error during "
          "measurement, 4 measured but --out could not be written (kept in a "
          "fallback file), 128+N killed by signal N.\n";
  parsed.help = help.str();

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
    po::parsed_options options =
        po::command_line_parser(args).options(desc).allow_unregistered().run();
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
  std::vector<std::string> known;
  for (const auto& option : desc.options())
    known.push_back(option->long_name());
  for (const std::string& arg : unrecognized) {
    if (arg.rfind("--benchmark_", 0) == 0) {
      if (Status allowed = CheckBenchmarkFlag(arg); !allowed) {
        return allowed.error();
      }
      parsed.options.benchmark_flags.push_back(arg);
      continue;
    }
    if (arg.rfind("-", 0) != 0) {
      return PlainError(
          ErrorKind::kUsage, "command line",
          "unexpected argument '" + arg + "' (options start with --)");
    }
    Error error = PlainError(ErrorKind::kUsage, "command line",
                             "unknown option '" + arg + "'");
    error.hint = ClosestOption(arg, known);
    return error;
  }
  if (vm.count("help")) {
    parsed.command = Command::kHelp;
    return parsed;
  }
  if (vm.count("version")) {
    parsed.command = Command::kVersion;
    return parsed;
  }

  RunOptions& o = parsed.options;
  Settings& s = o.settings;
  if (vm.count("case")) {
    Result<std::string> found = FindCaseFile(vm["case"].as<std::string>());
    if (!found) return found.error();
    if (Status loaded = ApplyCaseFile(found.value(), s); !loaded) {
      return loaded.error();
    }
    o.case_path = found.value();
  }
  auto text = [&vm](const char* name) { return vm[name].as<std::string>(); };
  std::optional<Error> failure;
  auto take = [&failure](auto result, auto& target) {
    if (failure) return;
    if (!result) {
      failure = result.error();
    } else {
      target = std::move(result).value();
    }
  };
  if (vm.count("dir")) s.dir = text("dir");
  if (vm.count("sizes")) {
    auto sizes = ParseSizeList(text("sizes"));
    if (!sizes) return Usage("sizes", sizes.error().Message());
    s.sizes = std::move(sizes).value();
  }
  if (vm.count("shift")) {
    auto shift = ParseByteSize(text("shift"));
    if (!shift) return Usage("shift", shift.error().Message());
    s.shift = shift.value();
  }
  if (vm.count("writes")) take(ParseCount(text("writes"), "writes"), s.writes);
  if (vm.count("warmup")) take(ParseCount(text("warmup"), "warmup"), s.warmup);
  if (vm.count("repetitions"))
    take(ParseCount(text("repetitions"), "repetitions"), s.repetitions);
  if (vm.count("seed")) {
    std::uint64_t seed = 0;
    take(ParseCount(text("seed"), "seed", 16), seed);
    s.seed = seed;
  }
  if (vm.count("budget")) {
    double seconds = 0;
    take(ParsePositive(text("budget"), "budget"), seconds);
    s.budget_seconds = seconds;
  }
  if (vm.count("precision")) {
    take(ParsePositive(text("precision"), "precision"), s.precision_points);
  }
  if (vm.count("sync"))
    take(ParseNameList(kSyncMethods, text("sync"), "sync"), s.axes.syncs);
  if (vm.count("io"))
    take(ParseNameList(kIoModes, text("io"), "io"), s.axes.ios);
  if (vm.count("layout"))
    take(ParseNameList(kLayouts, text("layout"), "layout"), s.axes.layouts);
  if (vm.count("cache"))
    take(ParseNameList(kCacheStates, text("cache"), "cache"), s.axes.caches);
  if (vm.count("direct-unaligned")) {
    std::vector<DirectUnaligned> choice;
    take(ParseNameList(kDirectUnaligned, text("direct-unaligned"),
                       "direct-unaligned"),
         choice);
    if (!failure && choice.size() != 1)
      failure = Usage("direct-unaligned", "takes one value");
    if (!failure) s.direct_unaligned = choice.front();
  }
  if (vm.count("format")) {
    std::vector<Format> formats;
    take(ParseNameList(kFormats, text("format"), "format"), formats);
    if (!failure && formats.size() != 1)
      failure = Usage("format", "takes one value");
    if (!failure) o.format = formats.front();
  }
  if (failure) return *failure;
  if (vm.count("out")) o.out = text("out");
  if (vm.count("force")) o.overwrite = Overwrite::kReplace;
  o.redact_host = vm.count("redact-host") > 0;
  o.progress = vm.count("progress") > 0 || ::isatty(STDERR_FILENO) != 0;
  if (Status valid = Validate(s); !valid) return valid.error();
  return parsed;
}

}  // namespace alignbench
