#include "lib/render/report_view.h"

#include <algorithm>

#include "lib/render/answer.h"
#include "lib/render/cells.h"
#include "lib/render/log_columns.h"
#include "lib/render/report_parts.h"
#include "lib/render/unit_answer.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

// The typical gain's 95 % interval to one decimal, "[-18.2,+38.0]", or
// "n/a" without a test.
std::string ShortInterval(const PairResult& p) {
  if (!p.inference.test) return "n/a";
  const Interval& i = p.inference.test->interval_pct;
  return "[" + Printf("%+.1f", i.low) + "," + Printf("%+.1f", i.high) + "]";
}

// Short words keep ten column groups on a wide terminal.
std::string ShortVerdict(const std::optional<Verdict>& verdict) {
  if (!verdict) return "n/a";
  switch (*verdict) {
    case Verdict::kAlignedFaster:
      return "aligned";
    case Verdict::kUnalignedFaster:
      return "unaligned";
    case Verdict::kLeansAligned:
      return "lean al.";
    case Verdict::kLeansUnaligned:
      return "lean un.";
    case Verdict::kNoSignificantDifference:
      return "n.s.";
    case Verdict::kUndecided:
      return "undecided";
  }
  return "n/a";
}

SideView SideOf(const VariantResult& v) {
  return {v.repetitions > 0, v.error ? EscapeControl(*v.error) : std::string(),
          v.total_ns,        v.device,
          v.background,      v.device_requests,
          CommitCell(v)};
}

// The row's cells, then its figures.
RowView RowOf(const Report& r, const PairResult& p) {
  RowView row;
  row.size_bytes = p.spec.size;
  row.axes = AxesLabel(p.spec);
  row.sync = NameOf(kSyncMethods, p.spec.sync);
  row.io = NameOf(kIoModes, p.spec.io);
  row.layout = NameOf(kLayouts, p.spec.layout);
  row.cache = NameOf(kCacheStates, p.spec.cache);
  row.key = MatchKeyOf(r, p.spec);
  row.shift = p.spec.shift;
  row.size = SizeText(p.spec.size);
  row.unaligned_ms = MeanMsCell(p.unaligned);
  row.aligned_ms = MeanMsCell(p.aligned);
  row.means_gain = MeansGainCell(p);
  row.gain = TypicalGainCell(p);
  row.interval = IntervalText(p);
  row.p = PValueCell(p);
  row.verdict = LabelledVerdict(r, p);
  row.verdict_words = VerdictWords(r, p);
  row.atomic = NameOf(kAtomicWrites, r.settings.atomic);
  row.means_apart = !MeansApartNote(p, "", "").empty();
  row.short_gain = GainOrMeansCell(p);
  row.short_interval = ShortInterval(p);
  row.short_verdict = ShortVerdict(p.verdict);
  // "+9.9 [-18.2,+38.0]": the compact table's cell.
  row.gain_with_interval =
      p.inference.test ? TypicalGainCell(p, "%+.1f") + " " + row.short_interval
                       : row.short_gain;
  row.measured = p.Measured();
  row.unaligned = SideOf(p.unaligned);
  row.aligned = SideOf(p.aligned);
  row.means_gain_pct = p.means_gain_pct;
  row.medians_gain_pct = p.medians_gain_pct;
  row.shown_gain_pct = p.ShownGainPct();
  row.test = p.inference.test;
  row.tail = p.tail;
  row.tail_verdict = p.tail_verdict ? NameOf(kVerdicts, *p.tail_verdict)
                                    : std::string_view("undecided");
  row.others_cpu_share = p.others_cpu_share;
  return row;
}

GroupView GroupOf(const Report& r, const std::string& label, std::size_t from,
                  std::size_t to) {
  GroupView g;
  g.label = label;
  for (std::size_t i = from; i < to; ++i) {
    const PairResult& p = r.pairs[i];
    g.rows.push_back(RowOf(r, p));
    for (const std::string& note : p.run_notes) {
      g.far_runs.emplace_back(SizeText(p.spec.size), EscapeControl(note));
    }
  }
  g.means_apart = MeansApart(r, from, to);
  g.why = WhyLinesOf(r.pairs, from, to);
  for (std::string& sentence : g.why.common) sentence = EscapeControl(sentence);
  for (auto& [size, text] : g.why.per_size) text = EscapeControl(text);
  return g;
}

// "ext4 on vda (QEMU HARDDISK), sectors 512/4096 B, write cache: write
// back, Linux 6.18", or "..., no block device".
std::string EnvironmentWords(const TargetInfo& t) {
  std::string text = t.fs_type.value_or("unknown fs");
  if (t.device) {
    const DeviceInfo& d = *t.device;
    text += " on " + d.disk;
    if (d.model) text += " (" + *d.model + ")";
    if (d.logical_block_bytes && d.physical_block_bytes) {
      text += ", sectors " + std::to_string(*d.logical_block_bytes) + "/" +
              std::to_string(*d.physical_block_bytes) + " B";
    }
    if (d.write_cache) text += ", write cache: " + *d.write_cache;
  } else {
    text += ", no block device";
  }
  if (t.host.kernel) text += ", Linux " + *t.host.kernel;
  return EscapeControl(text);
}

bool Any(const Report& r, bool (*has)(const PairResult&)) {
  return std::any_of(r.pairs.begin(), r.pairs.end(), has);
}

// What heads the report: the tool and its build, the subject and its title
// lines, a reference table's source.
void HeadOf(const Report& r, ReportView& v) {
  v.tool = "alignbench " + EscapeControl(r.tool_version);
  v.build =
      EscapeControl(r.git_revision.value_or("revision unknown")) +
      (r.build_type ? ", " + EscapeControl(*r.build_type) + " build" : "");
  v.dir = r.target.dir;
  v.environment = EnvironmentWords(r.target);
  v.subject = r.reference
                  ? "reference table: " + EscapeControl(r.reference->platform)
                  : EscapeControl(r.target.Title());
  if (!r.settings.log && r.settings.shifts.size() == 1) {
    v.unaligned_shift =
        " (shift " + std::to_string(r.settings.shifts.front()) + " B)";
  }
  v.title = TitleLine(r);
  v.compact_title = CompactTitleLine(r);
  v.reference = r.reference.has_value();
  if (r.reference) {
    v.source = EscapeControl(r.reference->source);
    v.platform_and_disk = EscapeControl(r.reference->platform) + "; " +
                          EscapeControl(r.reference->disk);
  }
}

// The result's device_account in words.
std::string SourceWords(const DeviceAccountSource& account) {
  if (account.source == kSourceBlockTrace) {
    return "the block layer's requests, told apart (block trace)";
  }
  return "device-wide counters" +
         (account.why_not_traced
              ? "; no block trace: " + EscapeControl(*account.why_not_traced)
              : std::string());
}

}  // namespace

ReportView ViewOf(const Report& r) {
  ReportView v;
  HeadOf(r, v);
  v.settings = SettingsLine(r);
  v.compact_settings = SettingsLine(r, true);
  v.atomic = AtomicWords(r.settings);
  v.unaligned = Heading(r, Variant::kUnaligned);
  v.aligned = Heading(r, Variant::kAligned);
  v.replay = r.settings.replay != nullptr;
  if (!r.reference && !r.target.device) {
    v.no_device =
        "none counted, no block device takes these writes (the note below "
        "says where they go)";
  }
  if (r.device_account) v.device_source = SourceWords(*r.device_account);
  v.has_background = Any(r, [](const PairResult& p) {
    return p.unaligned.background.has_value() ||
           p.aligned.background.has_value();
  });
  v.has_cpu_share = Any(
      r, [](const PairResult& p) { return p.others_cpu_share.has_value(); });
  ForEachGroup(r,
               [&](const std::string& label, std::size_t from, std::size_t to) {
                 v.groups.push_back(GroupOf(r, label, from, to));
               });
  v.shared_why = SharedWhyOf(r.pairs, 0, r.pairs.size());
  v.shared_why.text = EscapeControl(v.shared_why.text);
  for (const PairResult& p : r.pairs) v.sizes.push_back(p.spec.size);
  std::sort(v.sizes.begin(), v.sizes.end());
  v.sizes.erase(std::unique(v.sizes.begin(), v.sizes.end()), v.sizes.end());
  v.notes = Notes(r);
  v.interval_of = r.statistics.interval_of;
  v.min_runs_for_verdict = r.statistics.min_runs_for_verdict;
  v.runs_per_variant = r.settings.repetitions;
  v.log_footer = LogFooter(r);
  v.summary = SummaryLine(r);
  v.compact_summary = SummaryLine(r, true);
  v.answer = AnswerLine(r);
  v.compact_answer = CompactAnswerOf(r);
  v.unit = UnitAnswerLine(r);
  v.declared = DeclaredLine(r);
  return v;
}

}  // namespace alignbench
