#include "lib/pairs/log_case.h"

#include <cmath>
#include <iterator>

#include "lib/base/text.h"
#include "lib/measure/pattern.h"
#include "lib/pairs/explain.h"

namespace alignbench {
namespace {

struct Sides {
  const DevicePerOp& first;
  const DevicePerOp& second;
  std::string first_name;
  std::string second_name;
};

// The variant with more reads than the other, and why a cold page costs one.
std::string ReadSentence(const Sides& s) {
  const double diff = s.first.reads - s.second.reads;
  if (std::fabs(diff) < 0.1) return "";
  const bool first = diff > 0;
  return (first ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " device reads (" +
         Fixed(std::fabs(s.first.kib_read - s.second.kib_read)) +
         " KiB) per commit, a read-on-write. Read-on-write: a write that "
         "covers part of a page that is not cached makes the kernel read that "
         "page first.";
}

std::string WrittenSentence(const Sides& s) {
  const double diff = s.first.kib_written - s.second.kib_written;
  if (std::fabs(diff) < 0.5) return "";
  const bool first = diff > 0;
  return (first ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " KiB written per commit (" +
         Fixed(first ? s.first.kib_written : s.second.kib_written) + " vs " +
         Fixed(first ? s.second.kib_written : s.first.kib_written) + " KiB).";
}

// Journal commits: a growing file's size must reach the disk at each sync.
std::string JournalSentence(const Sides& s, const LogWorkload& w) {
  const double diff = s.first.writes - s.second.writes;
  if (std::fabs(diff) < 0.5) return "";
  std::string flushes;
  if (s.first.flushes && s.second.flushes) {
    flushes = " and " + Fixed(std::fabs(*s.first.flushes - *s.second.flushes)) +
              " flushes";
  }
  std::string why = ".";
  if (w.contrast == LogContrast::kFile) {
    why =
        ". The journal commits a growing file's new size at each sync; a "
        "file written before does not change size.";
  }
  return (diff > 0 ? s.first_name : s.second_name) + ": +" +
         Fixed(std::fabs(diff)) + " device writes" + flushes + " per commit" +
         why;
}

// What the rules make each variant write, beyond what was asked.
std::string RuleSentence(const Settings& s, const PairSpec& pair) {
  const LogWorkload w = WorkloadOf(s);
  const CommitBytes first = PerCommit(s, pair, Variant::kUnaligned);
  const CommitBytes second = PerCommit(s, pair, Variant::kAligned);
  const bool same = first.written == second.written;
  std::string text;
  for (Variant v : {Variant::kUnaligned, Variant::kAligned}) {
    const CommitBytes b = v == Variant::kUnaligned ? first : second;
    if (b.written <= b.asked + 0.5 || (same && v == Variant::kAligned)) {
      continue;
    }
    const LogRules r = RulesFor(w, v);
    std::string how = "record headers";
    if (r.block > 0) how = "the partly filled last block written again";
    if (r.pad > 0) how += ", write-ahead padding";
    if (r.fill > 0) how += ", the last record repeated to a sector boundary";
    if (!text.empty()) text += " ";
    text += (same ? std::string("both") : ColumnLabel(s, v)) + " write" +
            (same ? "" : "s") + " " + Fixed(b.written, 0) +
            " B per commit for " + Fixed(b.asked, 0) + " B asked (" + how +
            ").";
  }
  return text;
}

std::string VerdictNote(const PairResult& pair) {
  if (!pair.verdict || *pair.verdict == Verdict::kUndecided) {
    return "No verdict (" + VerdictText(pair) + ").";
  }
  if (*pair.verdict == Verdict::kNoSignificantDifference) {
    return "No significant time difference.";
  }
  return Firm(*pair.verdict) ? "" : LeaningNote(pair);
}

std::string ExplainLog(const Settings& s, const PairResult& pair) {
  const DevicePerOp& du = *pair.unaligned.device;
  const DevicePerOp& da = *pair.aligned.device;
  const LogWorkload w = WorkloadOf(s);
  const Sides sides{du, da, ColumnLabel(s, Variant::kUnaligned),
                    ColumnLabel(s, Variant::kAligned)};
  std::string text;
  for (const std::string& sentence :
       {RuleSentence(s, pair.spec), ReadSentence(sides), WrittenSentence(sides),
        JournalSentence(sides, w), VerdictNote(pair)}) {
    if (sentence.empty()) continue;
    if (!text.empty()) text += " ";
    text += sentence;
  }
  return text.empty() ? "both variants did the same device I/O." : text;
}

// "log rules: header 2048 B, ..., contrast pad 8192 B".
std::string DescribeRules(const LogWorkload& w) {
  const LogRules& r = w.rules;
  std::string text = "log rules:";
  const std::pair<const char*, std::uint64_t> rules[] = {
      {"header", r.header}, {"record header", r.record_header},
      {"block", r.block},   {"chunk", r.chunk},
      {"pad", r.pad},       {"fill", r.fill}};
  for (const auto& [name, bytes] : rules) {
    if (bytes > 0)
      text += " " + std::string(name) + " " + std::to_string(bytes) + " B,";
  }
  if (r.fill_sync != FillSync::kEnd) {
    text += " sync at the fill boundary, the overshoot written after it,";
  }
  text += " contrast " + std::string(NameOf(kLogContrasts, w.contrast));
  if (w.contrast == LogContrast::kPad || w.contrast == LogContrast::kFill) {
    text += " " + std::to_string(w.aligned_bytes) + " B";
  }
  if (w.contrast == LogContrast::kFile) {
    text += " (the layout is each variant's file state)";
  }
  return text;
}

}  // namespace

CommitBytes PerCommit(const Settings& s, const PairSpec& pair,
                      Variant variant) {
  const double n = static_cast<double>(s.writes);
  if (s.replay) {
    // The recorded commits' bytes, and the variant's: over every commit,
    // as the settings line says them. The new blocks of the measured ones,
    // where the commits are at hand (not in a result read back).
    const Replay& r = *s.replay;
    CommitBytes b{static_cast<double>(r.bytes_per_commit),
                  r.Of(variant).bytes_per_commit, std::nullopt};
    if (!r.Of(variant).commits.empty() && n > 0) {
      const WritePattern::Totals t =
          PatternFor(s, pair, variant).Over(s.warmup, s.writes);
      b.new_blocks = static_cast<double>(t.new_block_commits) / n;
      b.grows = static_cast<double>(t.grow_commits) / n;
    }
    return b;
  }
  const WritePattern pattern(RulesFor(WorkloadOf(s), variant), pair.size);
  const WritePattern::Totals t = pattern.Over(s.warmup, s.writes);
  return {static_cast<double>(t.asked) / n, static_cast<double>(t.written) / n,
          static_cast<double>(t.new_block_commits) / n,
          static_cast<double>(t.grow_commits) / n};
}

std::string ColumnLabel(const Settings& s, Variant variant) {
  return VariantLabel(WorkloadOf(s), variant);
}

LogCaseWords WordsOf(const Settings& s) {
  const LogWorkload& w = *s.log;
  return {ColumnLabel(s, Variant::kUnaligned),
          ColumnLabel(s, Variant::kAligned), DescribeRules(w),
          std::string(NameOf(kLogContrasts, w.contrast)),
          std::string(HelpOf(kLogContrasts, w.contrast))};
}

void ExplainLogPairs(const Settings& s, std::vector<PairResult>& pairs) {
  if (!s.log) return;
  for (PairResult& pair : pairs) {
    // Explain's words stand where the counters cannot say what the commits
    // did as counted: no counters, or a disk busy without alignbench, whose
    // traffic Explain sets against them or names.
    const std::vector<Mechanism> found = MechanismsOf(pair);
    if (found.empty() || found.front() == Mechanism::kNoCounters ||
        OthersCounted(pair)) {
      continue;
    }
    pair.explanation = ExplainLog(s, pair);
  }
}

}  // namespace alignbench
