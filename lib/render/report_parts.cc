#include "lib/render/report_parts.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>

#include "lib/render/log_columns.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

// What a replay's variants are: "unaligned: as recorded, 38 B per commit,
// file 11.6 KiB; aligned: whole blocks, 4096 B per commit, file 12.0 KiB".
// Results from before the variants were recorded say the rule.
std::string ReplayVariantsText(const Replay& r) {
  if (r.unaligned.name.empty() || r.aligned.name.empty()) {
    return r.rule == ReplayRule::kShift
               ? "aligned: as recorded, unaligned: moved by the shift"
               : "unaligned: as recorded, aligned: commits on 4 KiB "
                 "boundaries";
  }
  std::string text;
  for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
    const ReplayVariant& side = r.Of(v);
    text += std::string(text.empty() ? "" : "; ") +
            std::string(NameOf(kVariants, v)) + ": " + side.name + ", " +
            Fixed(side.bytes_per_commit, 0) + " B per commit, file " +
            Fixed(static_cast<double>(side.file_bytes) / 1024, 1) + " KiB";
  }
  return text;
}

// The mean write+sync over every timed write of one variant, all pairs.
std::optional<double> MeanOverPairs(const Report& report,
                                    VariantResult PairResult::*variant) {
  double sum = 0;
  double count = 0;
  for (const PairResult& pair : report.pairs) {
    const Summary& total = (pair.*variant).total_ns;
    if ((pair.*variant).repetitions == 0 || total.count == 0) continue;
    sum += total.mean * static_cast<double>(total.count);
    count += static_cast<double>(total.count);
  }
  if (count == 0) return std::nullopt;
  return sum / count;
}

std::string MeanText(const std::optional<double>& ns) {
  return ns ? Printf("%.3f", *ns / 1e6) + " ms" : "n/a";
}

// The mechanism the most measured pairs show (the first of the table's order
// on a tie), with its count: "read-on-write in 5 of 13 pairs".
std::string DominantMechanism(const Report& report) {
  std::size_t counts[std::size(kMechanisms)] = {};
  std::size_t measured = 0;
  for (const PairResult& pair : report.pairs) {
    const std::vector<Mechanism>& found = pair.mechanisms;
    if (found.empty()) continue;
    ++measured;
    for (std::size_t i = 0; i < std::size(kMechanisms); ++i) {
      if (std::find(found.begin(), found.end(), kMechanisms[i].value) !=
          found.end()) {
        ++counts[i];
      }
    }
  }
  if (measured == 0) return "";
  const std::size_t top =
      std::max_element(std::begin(counts), std::end(counts)) - counts;
  return "; mostly " + std::string(kMechanisms[top].name) + " (" +
         std::to_string(counts[top]) + " of " + std::to_string(measured) +
         " measured pairs)";
}

}  // namespace

std::string MeanMsCell(const VariantResult& v) {
  return v.repetitions > 0 ? Printf("%.4f", v.total_ns.mean / 1e6) : "n/a";
}
std::string PValueCell(const PairResult& p) {
  return p.inference.test ? Printf("%.3g", p.inference.test->p_value) : "n/a";
}

// How a step's commits are written: "4 commits per sync, " and who writes
// them, or nothing for a commit at a time; each count the setting that ran.
std::string GroupText(const Settings& s) {
  if (s.writers > 1) {
    return std::to_string(s.writers) + " writer threads per group, ";
  }
  if (s.queue_depth > 1) {
    return std::to_string(s.queue_depth) +
           " writes in flight per batch (io_uring), ";
  }
  if (s.commits_per_sync > 1) {
    return std::to_string(s.commits_per_sync) + " commits per sync, ";
  }
  return "";
}

std::string AtomicWords(const Settings& s) {
  return s.atomic == AtomicWrites::kOn ? "atomic writes (RWF_ATOMIC)" : "";
}

// How many blocks the pairs got, "6-8 blocks per pair": each pair's fewer
// runs of its two variants, over the measured pairs, as measured (a budget's
// rounds give pairs different numbers; a failed run is no block). A
// mailing-list table has runs, not blocks; a plan that measured nothing says
// what it planned.
std::string BlocksText(const Report& r) {
  const std::uint64_t planned = r.settings.repetitions;
  if (r.reference) {
    return std::to_string(planned) + (planned == 1 ? " run" : " runs") +
           " per variant";
  }
  std::uint64_t low = UINT64_MAX, high = 0;
  for (const PairResult& p : r.pairs) {
    if (!p.Measured()) continue;
    const std::uint64_t blocks =
        std::min(p.unaligned.repetitions, p.aligned.repetitions);
    low = std::min(low, blocks);
    high = std::max(high, blocks);
  }
  if (high == 0) {
    return std::to_string(planned) +
           (planned == 1 ? " block planned" : " blocks planned") + " per pair";
  }
  return (low == high ? std::to_string(low)
                      : std::to_string(low) + "-" + std::to_string(high)) +
         (high == 1 ? " block" : " blocks") + " per pair";
}

std::string SettingsLine(const Report& r, bool compact) {
  const Settings& s = r.settings;
  const bool no_sync =
      std::all_of(s.syncs.begin(), s.syncs.end(),
                  [](SyncMethod m) { return m == SyncMethod::kNone; });
  const bool all_sync =
      std::none_of(s.syncs.begin(), s.syncs.end(),
                   [](SyncMethod m) { return m == SyncMethod::kNone; });
  std::string line = std::to_string(s.writes) +
                     (no_sync    ? " writes per run (no sync), "
                      : all_sync ? " synced writes per run, "
                                 : " writes per run, ") +
                     GroupText(s) +
                     (AtomicWords(s).empty() ? "" : AtomicWords(s) + ", ") +
                     RulesText(r) + ", " + BlocksText(r);
  if (s.seed && !compact) line += ", seed " + std::to_string(*s.seed);
  if (s.warmup > 0) line += ", " + std::to_string(s.warmup) + " warm-up writes";
  if (s.budget_seconds) {
    line += ", --budget " + Printf("%g", *s.budget_seconds) + " s for +-" +
            Printf("%g", s.precision_points) + " points";
  }
  if (!s.case_name.empty()) line += ", case " + s.case_name;
  if (s.replay) {
    const Replay& replay = *s.replay;
    line += ", replay of " +
            (replay.argv.empty() ? replay.trace_path : replay.argv[0]) + " (" +
            replay.log_path + "; " + ReplayVariantsText(replay) + ")";
  }
  return EscapeControl(line);
}

// How to read a group's figures: per commit, the sync shared.
std::string GroupNote(const Settings& s) {
  if (s.group_commit) {
    return "every time and device figure is per commit, its share of a "
           "group: groups of " +
           Printf("%g", *s.group_commit) +
           " commits on average, each group's records written by one write, "
           "then one sync, as an engine's leader writes them; a read-on-write "
           "and a flush are paid once a group";
  }
  const std::uint64_t n = CommitsPerStep(s);
  if (n == 1) return "";
  const bool shared = std::any_of(s.syncs.begin(), s.syncs.end(),
                                  [](SyncMethod m) { return HasSyncCall(m); });
  std::string note =
      "every time and device figure is per commit, its share of a group of " +
      std::to_string(n) + " written " +
      (s.writers > 1       ? "by as many threads at once"
       : s.queue_depth > 1 ? "in flight at once"
                           : "one after another");
  if (shared) {
    note +=
        " and synced once: a read-on-write is paid by every commit and a "
        "flush by the group (1/" +
        std::to_string(n) +
        " a commit), so the shift weighs more than with a sync each";
  }
  if (s.writers > 1 || s.queue_depth > 1) {
    // Measured: sessions agreed on the direction, not on the size.
    note +=
        "; how the kernel schedules threads or merges writes in flight "
        "stays alike for a session: sessions run one after another "
        "agreed on the direction but not on the size, so the interval "
        "holds for this session (scripts/repeatability compares them)";
  }
  return note;
}

std::vector<std::pair<std::string, std::string>> Notes(const Report& r) {
  std::vector<std::pair<std::string, std::string>> notes;
  if (std::string group = GroupNote(r.settings); !group.empty()) {
    notes.emplace_back("group", std::move(group));
  }
  if (!r.target.device) {
    // What a sync does where no device counts it: tmpfs's nothing, or
    // whether sshfs passes it on to its server.
    notes.emplace_back("note", EscapeControl(r.target.no_device_reason +
                                             (r.target.sync_effect
                                                  ? "; " + *r.target.sync_effect
                                                  : std::string())));
  }
  if (r.target.off_grid) {
    // A layer that starts off the grid of the one below makes even the
    // aligned writes straddle its units: say so beside the numbers.
    notes.emplace_back("off grid", EscapeControl(*r.target.off_grid));
  }
  for (const std::string& w : r.warnings) {
    // The one warning of the pairs short of --precision (PrecisionWarnings)
    // under a label of its own, which the compact table leaves to the answer.
    constexpr std::string_view kShort = "precision short of ";
    if (w.rfind(kShort, 0) == 0) {
      const std::size_t label = std::string_view("precision ").size();
      notes.emplace_back(kPrecisionNote, EscapeControl(w.substr(label)));
      continue;
    }
    notes.emplace_back("warning", EscapeControl(w));
  }
  for (const std::string& e : r.errors) {
    notes.emplace_back("error", EscapeControl(e));
  }
  if (!r.complete) {
    notes.emplace_back("INCOMPLETE",
                       "the run was interrupted or stopped by an error");
  }
  return notes;
}

std::vector<std::pair<std::string, std::string>> MeansApart(const Report& r,
                                                            std::size_t from,
                                                            std::size_t to) {
  std::vector<std::pair<std::string, std::string>> apart;
  for (std::size_t i = from; i < to; ++i) {
    std::string note =
        MeansApartNote(r.pairs[i], Heading(r, Variant::kUnaligned),
                       Heading(r, Variant::kAligned));
    if (!note.empty()) {
      apart.emplace_back(SizeText(r.pairs[i].spec.size), std::move(note));
    }
  }
  return apart;
}

std::string TitleLine(const Report& r) {
  if (!r.reference) return TargetLine(r.target);
  return "--- reference table: " + EscapeControl(r.reference->platform) + "; " +
         EscapeControl(r.reference->disk) + " ---";
}

std::string CompactTitleLine(const Report& r) {
  const TargetInfo& t = r.target;
  if (r.reference || !t.device) return TitleLine(r);
  const DeviceInfo& d = *t.device;
  std::string line = "--- " + t.Title() + " ---";
  if (d.logical_block_bytes && d.physical_block_bytes) {
    line += " sectors " + std::to_string(*d.logical_block_bytes) + "/" +
            std::to_string(*d.physical_block_bytes) + " B";
  }
  if (d.write_cache) line += ", write cache: " + *d.write_cache;
  return EscapeControl(line);
}

std::string TargetLine(const TargetInfo& t) {
  std::string line = "--- " + t.Title() + " ---";
  if (t.device) {
    const DeviceInfo& d = *t.device;
    if (d.logical_block_bytes)
      line += " logical " + std::to_string(*d.logical_block_bytes) + " B";
    if (d.physical_block_bytes) {
      line += ", physical " + std::to_string(*d.physical_block_bytes) + " B";
    }
    if (d.write_cache) line += ", write cache: " + *d.write_cache;
  }
  if (t.fs_block_bytes) {
    line += std::string(t.device ? "," : "") + " fs block " +
            std::to_string(*t.fs_block_bytes) + " B";
  }
  return EscapeControl(line);
}

std::string SummaryLine(const Report& report, bool compact) {
  std::size_t counts[std::size(kVerdicts)] = {};
  std::size_t without_verdict = 0;
  for (const PairResult& pair : report.pairs) {
    if (!pair.verdict) {
      ++without_verdict;
      continue;
    }
    for (std::size_t i = 0; i < std::size(kVerdicts); ++i) {
      if (kVerdicts[i].value == *pair.verdict) ++counts[i];
    }
  }
  const std::string subject =
      report.reference ? "reference table: " + report.reference->platform +
                             "; " + report.reference->disk
                       : report.target.Title();
  std::string line = (compact ? "" : "--- " + subject + ": ") +
                     std::to_string(report.pairs.size()) +
                     (report.pairs.size() == 1 ? " pair:" : " pairs:");
  bool first = true;
  for (std::size_t i = 0; i < std::size(kVerdicts); ++i) {
    // Leaning verdicts are counted where there are any (and never in a
    // result written before they existed); a compact line counts only
    // the verdicts there are.
    if (counts[i] == 0 && (compact || (!Firm(kVerdicts[i].value) &&
                                       Directional(kVerdicts[i].value)))) {
      continue;
    }
    line += (first ? " " : ", ") + std::to_string(counts[i]) + " " +
            std::string(kVerdicts[i].name);
    first = false;
  }
  if (without_verdict > 0) {
    line += (first ? " " : ", ") + std::to_string(without_verdict) +
            " without a verdict";
  }
  // The directory's name is the user's: escaped, like every line that holds it.
  return EscapeControl(
      line + "; mean write+sync " +
      MeanText(MeanOverPairs(report, &PairResult::unaligned)) + " unaligned, " +
      MeanText(MeanOverPairs(report, &PairResult::aligned)) + " aligned" +
      (compact ? std::string() : DominantMechanism(report)));
}

std::string ShiftLabel(const Report& r, const PairSpec& spec) {
  if (r.settings.shifts.size() <= 1) return "";
  return "shift " + std::to_string(spec.shift) + " B";
}

std::string GroupLabel(const Report& r, const PairSpec& spec) {
  const std::string shift = ShiftLabel(r, spec);
  return AxesLabel(spec) + (shift.empty() ? "" : ", " + shift);
}

PairKey MatchKeyOf(const Report& r, const PairSpec& spec) {
  PairKey key = KeyOf(spec);
  if (r.settings.shifts.size() <= 1) std::get<5>(key) = 0;
  return key;
}

}  // namespace alignbench
