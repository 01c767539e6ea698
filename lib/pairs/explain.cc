#include "lib/pairs/explain.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "lib/base/text.h"
#include "lib/pairs/pair_result.h"

namespace alignbench {
namespace {

bool Near(double a, double b) {
  return std::fabs(a - b) <= 0.15 * std::max(1.0, std::max(a, b));
}

// The idle window's traffic is a large part of what was counted: half or more,
// and at least a request every four writes.
bool Dominates(double idle, double counted) {
  return idle >= 0.25 && idle >= 0.5 * counted;
}

// The counters are device-wide: a variant whose idle window shows that much
// of what one counter counted was the disk's own traffic. Reads and writes are
// judged apart: others' writes do not hide a read-on-write.
bool Busy(const VariantResult& v, double DevicePerOp::*counter) {
  if (!v.background || !v.device) return false;
  return Dominates((*v.background).*counter, (*v.device).*counter);
}
// Both sides' requests were told apart (device_requests): the writes' own
// are the file's and the filesystem's, whatever others did meanwhile, so no
// counter is busy and nothing is set against the idle windows.
bool Traced(const PairResult& p) {
  return p.unaligned.device_requests && p.aligned.device_requests;
}
bool BusyWrites(const PairResult& p) {
  return !Traced(p) && (Busy(p.unaligned, &DevicePerOp::writes) ||
                        Busy(p.aligned, &DevicePerOp::writes));
}
bool BusyReads(const PairResult& p) {
  return !Traced(p) && (Busy(p.unaligned, &DevicePerOp::reads) ||
                        Busy(p.aligned, &DevicePerOp::reads));
}

// The counters a mechanism is read from. Flushes are unknown where the
// kernel's stat file has none.
enum class Counter { kReads, kWrites, kKibWritten, kFlushes };

std::optional<double> CountOf(const DevicePerOp& d, Counter c) {
  switch (c) {
    case Counter::kReads:
      return d.reads;
    case Counter::kWrites:
      return d.writes;
    case Counter::kKibWritten:
      return d.kib_written;
    case Counter::kFlushes:
      return d.flushes;
  }
  return std::nullopt;
}

// What the idle windows counted on one counter over a side's write: none
// where they were not read.
std::optional<double> IdleOf(const VariantResult& v, Counter c) {
  return v.background ? CountOf(*v.background, c) : 0.0;
}

// A difference between the sides that others' traffic alone could not have
// made: half a request (or KiB) per operation or more, and at least the
// larger of the two sides' idle counts on that counter.
bool Readable(const PairResult& p, Counter c) {
  const std::optional<double> u = CountOf(*p.unaligned.device, c);
  const std::optional<double> a = CountOf(*p.aligned.device, c);
  const std::optional<double> iu = IdleOf(p.unaligned, c);
  const std::optional<double> ia = IdleOf(p.aligned, c);
  if (!u || !a || !iu || !ia) return false;
  return std::fabs(*u - *a) >= std::max({0.5, *iu, *ia});
}

// The figures the mechanisms are read from: the counters as counted, and
// on a busy disk each side's own share of the busy ones (reads, or writes
// with their KiB and flushes): what it counted less what its idle windows
// did, at least 0.
struct Figures {
  DevicePerOp u;
  DevicePerOp a;
  bool net_reads = false;
  bool net_writes = false;
};

DevicePerOp Own(const VariantResult& v, bool reads, bool writes) {
  DevicePerOp d = *v.device;
  if (!v.background) return d;
  const DevicePerOp& idle = *v.background;
  auto less = [](double counted, double others) {
    return std::max(0.0, counted - others);
  };
  if (reads) {
    d.reads = less(d.reads, idle.reads);
    d.kib_read = less(d.kib_read, idle.kib_read);
  }
  if (writes) {
    d.writes = less(d.writes, idle.writes);
    d.kib_written = less(d.kib_written, idle.kib_written);
    // Flushes the idle windows could not count cannot be set against.
    d.flushes = d.flushes && idle.flushes
                    ? std::optional(less(*d.flushes, *idle.flushes))
                    : std::nullopt;
  }
  return d;
}

// A side's own requests: its files' and the filesystem's; but the KiB
// written are its files' alone, which the shift's extra block is read from:
// the journal is shared, and a neighbour's commits there are no layout's.
DevicePerOp OwnRequests(const DeviceRequests& r) {
  const DevicePerOp& f = r.file;
  const DevicePerOp& m = r.filesystem;
  return {f.reads + m.reads, f.kib_read + m.kib_read, f.writes + m.writes,
          f.kib_written, f.flushes.value_or(0) + m.flushes.value_or(0)};
}

Figures FiguresOf(const PairResult& p) {
  if (Traced(p)) {
    return {OwnRequests(*p.unaligned.device_requests),
            OwnRequests(*p.aligned.device_requests), false, false};
  }
  const bool reads = BusyReads(p);
  const bool writes = BusyWrites(p);
  return {Own(p.unaligned, reads, writes), Own(p.aligned, reads, writes), reads,
          writes};
}

bool Net(const Figures& f, Counter c) {
  return c == Counter::kReads ? f.net_reads : f.net_writes;
}

// A mechanism on a counter may be read from it when the counter is the
// writes' own (a quiet disk), or its difference is readable.
bool Usable(const PairResult& p, const Figures& f, Counter c) {
  return !Net(f, c) || Readable(p, c);
}

// On a busy counter, what a mechanism's sentence says of the idle traffic
// set against it; empty on a quiet one.
std::string NetNote(const PairResult& p, const Figures& f, Counter c) {
  if (!Net(f, c)) return "";
  const std::string u = Fixed(IdleOf(p.unaligned, c).value_or(0));
  const std::string a = Fixed(IdleOf(p.aligned, c).value_or(0));
  const char* what = c == Counter::kReads        ? " device reads"
                     : c == Counter::kWrites     ? " device writes"
                     : c == Counter::kKibWritten ? " KiB written"
                                                 : " device flushes";
  return "net of the disk's own " +
         (u == a ? u : u + " (unaligned) and " + a + " (aligned)") + what +
         " per write in the idle windows";
}

// The note in parentheses, or nothing.
std::string Aside(const std::string& note) {
  return note.empty() ? "" : " (" + note + ")";
}

// The note after a comma, inside parentheses already open, or nothing.
std::string AndNote(const std::string& note) {
  return note.empty() ? "" : ", " + note;
}

// The two variants' counters close: reads and KiB within Near of each other,
// requests within a quarter per write (counted, not measured: an extent-tree
// block at most syncs on one side is never "alike").
bool Alike(const DevicePerOp& u, const DevicePerOp& a) {
  return Near(u.reads, a.reads) && std::fabs(u.writes - a.writes) < 0.25 &&
         Near(u.kib_written, a.kib_written);
}

// One variant's files kept half a tree block more than the other's, on the
// runs' mean: where they landed differs.
bool PlacementDiffers(const VariantResult& u, const VariantResult& a) {
  return u.placement && a.placement &&
         std::fabs(u.placement->tree_blocks - a.placement->tree_blocks) >= 0.5;
}

// Which variant's files landed worse, with both sides' figures.
std::string PlacementSentence(const PairResult& p, const Figures& f) {
  const VariantResult& u = p.unaligned;
  const VariantResult& a = p.aligned;
  const bool unaligned_worse =
      u.placement->tree_blocks > a.placement->tree_blocks;
  const VariantResult& worse = unaligned_worse ? u : a;
  const VariantResult& better = unaligned_worse ? a : u;
  const std::string note = NetNote(p, f, Counter::kWrites);
  return std::string(unaligned_worse ? "unaligned" : "aligned") +
         "'s files landed worse, not by their alignment: they kept " +
         Fixed(worse.placement->tree_blocks) + " extent-tree blocks in " +
         Fixed(worse.placement->extents) + " extents, the other's " +
         Fixed(better.placement->tree_blocks) + " in " +
         Fixed(better.placement->extents) +
         ", and such a block is written again at every sync (" +
         Fixed((unaligned_worse ? f.u : f.a).writes) + " against " +
         Fixed((unaligned_worse ? f.a : f.u).writes) +
         " device writes per operation" + AndNote(note) +
         "); that part of the difference is "
         "where the filesystem put the blocks, which a rerun may draw "
         "otherwise.";
}

// The share of one side's commits that leave metadata for its sync to
// commit, in its layout: those that reach unwritten blocks of a preallocated
// file (extent conversions), or write past the end of one that grows (size
// changes). None in a prewritten file, or where the result has no share.
std::optional<double> MetadataShare(const PairResult& pair, Variant v) {
  const VariantResult& side = pair.Of(v);
  if (!side.per_commit) return std::nullopt;
  switch (pair.spec.WritesOf(v).layout) {
    case Layout::kPrealloc:
      return side.per_commit->new_blocks;
    case Layout::kExtend:
      return side.per_commit->grows;
    case Layout::kPrewritten:
      break;
  }
  return std::nullopt;
}

// Both sides in one such layout, one side's share a quarter of the commits
// above the other's, and half a device write or more per commit more: that
// metadata is its doing. Which, or none.
std::optional<Mechanism> MetadataMechanism(const PairResult& pair,
                                           const Figures& f) {
  const Layout layout = pair.spec.WritesOf(Variant::kUnaligned).layout;
  if (layout != pair.spec.WritesOf(Variant::kAligned).layout) {
    return std::nullopt;
  }
  const std::optional<double> u = MetadataShare(pair, Variant::kUnaligned);
  const std::optional<double> a = MetadataShare(pair, Variant::kAligned);
  if (!u || !a) return std::nullopt;
  const double share = *a - *u;
  const double writes = f.a.writes - f.u.writes;
  if (std::fabs(share) < 0.25 || std::fabs(writes) < 0.5 ||
      (share > 0) != (writes > 0)) {
    return std::nullopt;
  }
  return layout == Layout::kPrealloc ? Mechanism::kExtentConversions
                                     : Mechanism::kSizeChanges;
}

// A time difference at 5 %, firm or leaning.
bool Significant(const PairResult& pair) {
  return pair.verdict && Directional(*pair.verdict);
}

// Then the busy counters no mechanism was read from cannot be read as the
// writes' I/O: that is said instead, naming which.
std::string BusySentence(const PairResult& pair, bool reads, bool writes) {
  double DevicePerOp::*counter =
      writes ? &DevicePerOp::writes : &DevicePerOp::reads;
  const bool unaligned = Busy(pair.unaligned, counter);
  const VariantResult& v = unaligned ? pair.unaligned : pair.aligned;
  const char* which = writes && reads ? "device writes and reads"
                      : writes        ? "device writes"
                                      : "device reads";
  // Two sentences: the figures of this pair, then what they mean, which is
  // the same for every pair of a busy disk and said once for the run.
  return std::string(
             "the disk was busy without alignbench: over the time of one ") +
         (unaligned ? "unaligned" : "aligned") +
         " write the idle windows before its rounds counted " +
         Fixed((*v.background).*counter) +
         (writes ? " device writes" : " device reads") + ", against " +
         Fixed((*v.device).*counter) + " per write while measuring. The " +
         which + " cannot say what the writes themselves cost.";
}

// The read-on-write, where one side reads and the other hardly does.
std::vector<Mechanism> ReadMechanisms(const PairResult& pair,
                                      const Figures& f) {
  const double u = f.u.reads;
  const double a = f.a.reads;
  if (Usable(pair, f, Counter::kReads) &&
      ((u - a >= 0.5 && a <= 0.25) || (a - u >= 0.5 && u <= 0.25))) {
    return {Mechanism::kReadOnWrite};
  }
  return {};
}

// What the write counters show, in the order Explain says them.
std::vector<Mechanism> WriteMechanisms(const PairResult& pair,
                                       const Figures& f) {
  const VariantResult& u = pair.unaligned;
  const VariantResult& a = pair.aligned;
  const bool kib = Usable(pair, f, Counter::kKibWritten);
  const bool writes = Usable(pair, f, Counter::kWrites);
  std::vector<Mechanism> found;
  // Only where the unaligned side writes no fewer bytes by design (the
  // same ones, moved): a whole-block or padded aligned side writes more.
  if (kib && f.u.kib_written - f.a.kib_written >= 0.5 &&
      !(u.per_commit && a.per_commit &&
        u.per_commit->written < a.per_commit->written)) {
    found.push_back(Mechanism::kExtraBlock);
  }
  // Only where the aligned layout writes more by design (a log case's or a
  // replay's bytes per commit): elsewhere more KiB is no layout's doing.
  if (kib && f.a.kib_written - f.u.kib_written >= 0.5 && a.per_commit &&
      u.per_commit && a.per_commit->written > u.per_commit->written) {
    found.push_back(Mechanism::kAlignedWritesMore);
  }
  if (Usable(pair, f, Counter::kFlushes) && f.u.flushes && f.a.flushes &&
      std::fabs(*f.u.flushes - *f.a.flushes) >= 0.5) {
    found.push_back(Mechanism::kMoreFlushes);
  }
  if (const std::optional<Mechanism> m = MetadataMechanism(pair, f);
      m && writes) {
    found.push_back(*m);
  }
  if (writes && PlacementDiffers(u, a)) found.push_back(Mechanism::kPlacement);
  // Alike counts are no difference to read: on a busy disk the idle traffic
  // could be most of them, so they are said only of a quiet one.
  if (!f.net_writes && f.u.writes >= 2.5 && f.a.writes >= 2.5 &&
      Near(f.u.writes, f.a.writes)) {
    found.push_back(Mechanism::kMetadataCommits);
  }
  return found;
}

// The aligned layout writes more by design (whole blocks, padding).
std::string AlignedWritesMore(const PairResult& p, const Figures& f) {
  const std::string note = NetNote(p, f, Counter::kKibWritten);
  const VariantResult& u = p.unaligned;
  const VariantResult& a = p.aligned;
  return "aligned: +" + Fixed(f.a.kib_written - f.u.kib_written) +
         " KiB written per operation (" + Fixed(f.a.kib_written) + " against " +
         Fixed(f.u.kib_written) + AndNote(note) + "): by design it writes " +
         Fixed(a.per_commit->written, 0) + " B per commit against " +
         Fixed(u.per_commit->written, 0) +
         " B (padding to a block, or the block a commit left partly filled "
         "written again by the next).";
}

// One side makes the device flush its cache more often.
std::string MoreFlushes(const PairResult& p, const Figures& f) {
  const std::string note = NetNote(p, f, Counter::kFlushes);
  const bool u_more = *f.u.flushes > *f.a.flushes;
  const double more = u_more ? *f.u.flushes : *f.a.flushes;
  const double less = u_more ? *f.a.flushes : *f.u.flushes;
  return std::string(u_more ? "unaligned" : "aligned") + ": +" +
         Fixed(more - less) + " device flushes per operation (" + Fixed(more) +
         " against " + Fixed(less) + AndNote(note) +
         "): each waits for the disk's write cache.";
}

// The same, from the requests told apart: the reads of the file's own
// blocks, and their size.
std::string TracedReadOnWrite(const PairResult& p, bool u_more) {
  const DevicePerOp& more =
      (u_more ? p.unaligned : p.aligned).device_requests->file;
  const DevicePerOp& less =
      (u_more ? p.aligned : p.unaligned).device_requests->file;
  const double kib = more.reads > 0 ? more.kib_read / more.reads : 0;
  return std::string(u_more ? "unaligned" : "aligned") +
         ": each write read the block of the file it partly overwrote: " +
         Fixed(more.reads) + " reads of " + Fixed(kib) +
         " KiB per write, against " + Fixed(less.reads) +
         " (read-modify-write" +
         std::string((u_more ? p.unaligned : p.aligned).staged
                         ? ""
                         : ", the page cache's read-on-write") +
         ").";
}

// The writes of one side read the block they partly overwrite.
std::string ReadOnWrite(const PairResult& p, const Figures& f) {
  const bool u_more = f.u.reads > f.a.reads;
  if (Traced(p)) return TracedReadOnWrite(p, u_more);
  const DevicePerOp& more = u_more ? f.u : f.a;
  const DevicePerOp& less = u_more ? f.a : f.u;
  const bool staged = (u_more ? p.unaligned : p.aligned).staged;
  return std::string(u_more ? "unaligned" : "aligned") + ": +" +
         Fixed(more.reads - less.reads) + " device reads (" +
         Fixed(more.kib_read - less.kib_read) + " KiB) per write" +
         Aside(NetNote(p, f, Counter::kReads)) +
         ": the partly overwritten block was read first (read-modify-write" +
         std::string(staged ? "" : ", the page cache's read-on-write") + ").";
}

// One side's commits leave metadata for their syncs more often: extent
// conversions in a preallocated file, size changes in one that grows.
std::string MetadataSentence(const PairResult& pair, const Figures& f,
                             Mechanism m) {
  const double nu = *MetadataShare(pair, Variant::kUnaligned);
  const double na = *MetadataShare(pair, Variant::kAligned);
  const bool u_more = nu > na;
  const DevicePerOp& more = u_more ? f.u : f.a;
  const DevicePerOp& less = u_more ? f.a : f.u;
  const std::string note = NetNote(pair, f, Counter::kWrites);
  const bool conversions = m == Mechanism::kExtentConversions;
  return std::string(u_more ? "unaligned" : "aligned") + ": " +
         Fixed(100 * std::max(nu, na), 0) +
         (conversions ? " % of commits write a block of the preallocated file "
                        "for the first time, against "
                      : " % of commits write past the file's end, against ") +
         Fixed(100 * std::min(nu, na), 0) +
         (conversions ? " %: each converts an unwritten extent"
                      : " %: each changes its size") +
         ", which its sync commits to the filesystem's journal (+" +
         Fixed(more.writes - less.writes) + " device writes per operation, " +
         Fixed(more.writes) + " against " + Fixed(less.writes) + AndNote(note) +
         ").";
}

// The sentence that says one mechanism with this pair's figures.
std::string Sentence(Mechanism m, const PairResult& pair, const Figures& f,
                     std::uint64_t shift) {
  const VariantResult& u = pair.unaligned;
  const VariantResult& a = pair.aligned;
  switch (m) {
    case Mechanism::kReadOnWrite:
      return ReadOnWrite(pair, f);
    case Mechanism::kExtraBlock:
      return "unaligned: +" + Fixed(f.u.kib_written - f.a.kib_written) +
             " KiB written per write" +
             Aside(NetNote(pair, f, Counter::kKibWritten)) + ": a " +
             std::to_string(shift) +
             "-byte shift spreads each write over one more block.";
    case Mechanism::kAlignedWritesMore:
      return AlignedWritesMore(pair, f);
    case Mechanism::kMoreFlushes:
      return MoreFlushes(pair, f);
    case Mechanism::kExtentConversions:
    case Mechanism::kSizeChanges:
      return MetadataSentence(pair, f, m);
    case Mechanism::kPlacement:
      return PlacementSentence(pair, f);
    case Mechanism::kMetadataCommits:
      // The gloss is its own sentence: the same for every pair, it is said
      // once for the run.
      return "both: about " + Fixed((f.u.writes + f.a.writes) / 2) +
             " device writes per operation, metadata commits with each sync" +
             std::string(Significant(pair) ? "."
                                           : ", which dominate; alignment is "
                                             "not what costs here.") +
             " Metadata commits: what the filesystem writes besides the data "
             "at each sync (the inode and the block allocation), through a "
             "journal (ext4, xfs) or as new copies of its trees (btrfs).";
    case Mechanism::kBusyDisk:
      return BusySentence(pair, f.net_reads && ReadMechanisms(pair, f).empty(),
                          f.net_writes && WriteMechanisms(pair, f).empty());
    case Mechanism::kNoCounters:
      return "no device counters: no local block device takes these writes, "
             "so the gain cannot be explained from device I/O.";
    case Mechanism::kSameIo:
      return "both variants did the same device I/O (" +
             Fixed(a.device->writes) + " writes, " +
             Fixed(a.device->kib_written) + " KiB per operation).";
    case Mechanism::kOtherIo:
      return "the device I/O differs (unaligned " + Fixed(u.device->writes) +
             " writes, " + Fixed(u.device->kib_written) + " KiB; aligned " +
             Fixed(a.device->writes) + " writes, " +
             Fixed(a.device->kib_written) +
             " KiB per operation) in no pattern the counters name.";
    case Mechanism::kUnexplained:
      return "the device counters are alike for both variants (" +
             Fixed(u.device->writes) + " and " + Fixed(a.device->writes) +
             " writes, " + Fixed(u.device->reads) + " and " +
             Fixed(a.device->reads) +
             " reads per operation): they cannot explain this difference.";
  }
  return "";
}

// KiB as KiB or MiB, whichever reads better.
std::string KibText(double kib) {
  return kib >= 1024 ? Fixed(kib / 1024) + " MiB" : Fixed(kib) + " KiB";
}

// What the requests told apart add: the journal's and metadata's share of
// each write, the time the device held the writes' requests beside their
// write+sync, and what others did meanwhile, which nothing above counts.
std::vector<std::string> TracedNotes(const PairResult& p) {
  if (!Traced(p)) return {};
  const DeviceRequests& u = *p.unaligned.device_requests;
  const DeviceRequests& a = *p.aligned.device_requests;
  auto journal = [](const DevicePerOp& m) {
    return Fixed(m.writes) + " writes (" + Fixed(m.kib_written) + " KiB) and " +
           Fixed(m.flushes.value_or(0)) + " flushes";
  };
  auto ms = [](double ns) { return Fixed(ns * 1e-6, 2) + " ms"; };
  const double writes_u = static_cast<double>(p.unaligned.total_ns.count);
  const double writes_a = static_cast<double>(p.aligned.total_ns.count);
  const double wrote =
      u.others.kib_written * writes_u + a.others.kib_written * writes_a;
  const double read =
      u.others.kib_read * writes_u + a.others.kib_read * writes_a;
  const bool others = wrote + read > 0 || u.others.writes + a.others.writes > 0;
  std::vector<std::string> notes = {
      "The filesystem's journal and metadata per write: unaligned " +
          journal(u.filesystem) + ", aligned " + journal(a.filesystem) +
          (others ? " (the journal is shared: others' commits count there too)."
                  : "."),
      "Of the " + ms(p.unaligned.total_ns.mean) +
          " an unaligned write+sync took, the device held its requests " +
          ms(u.device_ns) + "; of an aligned one's " +
          ms(p.aligned.total_ns.mean) + ", " + ms(a.device_ns) + "."};
  if (others) {
    notes.push_back("Other processes and files wrote " + KibText(wrote) +
                    " and read " + KibText(read) +
                    " on the disk meanwhile; not counted above.");
  }
  return notes;
}

// Why a variant has no time at all: refused, or stopped by an error.
std::string NotMeasured(const PairResult& pair) {
  // The variant without a single finished run; the other may have failed runs
  // too, but it has a time.
  const bool unaligned_missing = pair.unaligned.repetitions == 0;
  const VariantResult& missing =
      unaligned_missing ? pair.unaligned : pair.aligned;
  const char* what = RefusedDirectWrite(pair.spec.io, missing.error_errno)
                         ? " writes are not measurable here: "
                         : " writes were stopped by an error: ";
  return std::string(unaligned_missing ? "unaligned" : "aligned") + what +
         missing.error.value_or("no run completed");
}

// What the run's preparation did that a reader must know: a cold cache that
// was not, and staged direct writes.
std::vector<std::string> PreparationNotes(const PairResult& pair) {
  const VariantResult& u = pair.unaligned;
  const VariantResult& a = pair.aligned;
  std::vector<std::string> notes;
  // --cache cold is checked with mincore(2); say so when the drop did not take.
  const std::uint64_t resident =
      std::max(u.resident_pages_after_drop.value_or(0),
               a.resident_pages_after_drop.value_or(0));
  if (resident > 0) {
    notes.push_back(
        "the cache was not fully cold: " + std::to_string(resident) +
        " page(s) of the file stayed cached after "
        "POSIX_FADV_DONTNEED.");
  }
  if (u.staged) {
    notes.push_back(
        "unaligned direct writes were staged: whole aligned blocks built in "
        "memory, the partly filled first block kept from the write before, "
        "as a database's log buffer does.");
  }
  return notes;
}

// The closing sentence when there is no verdict or no difference.
std::string VerdictNote(const PairResult& pair, bool significant) {
  if (pair.verdict == Verdict::kUndecided) {
    return "No verdict (" + VerdictText(pair) + "): a verdict needs " +
           std::to_string(kMinRunsForVerdict) +
           " runs of each variant, so that run-to-run variation is known.";
  }
  if (!significant) return "No significant time difference.";
  return Firm(*pair.verdict) ? "" : LeaningNote(pair);
}

}  // namespace

std::vector<Mechanism> MechanismsOf(const PairResult& pair) {
  if (!pair.Measured()) return {};
  const VariantResult& u = pair.unaligned;
  const VariantResult& a = pair.aligned;
  if (!u.device || !a.device) return {Mechanism::kNoCounters};
  // Reads and writes are judged apart: others' writes do not hide a
  // read-on-write, nor others' reads a block written more.
  const Figures f = FiguresOf(pair);
  std::vector<Mechanism> found = ReadMechanisms(pair, f);
  const std::vector<Mechanism> writes = WriteMechanisms(pair, f);
  // A busy counter nothing was read from is said to be busy instead.
  const bool unread =
      (f.net_reads && found.empty()) || (f.net_writes && writes.empty());
  found.insert(found.end(), writes.begin(), writes.end());
  if (unread) {
    found.push_back(Mechanism::kBusyDisk);
  } else if (found.empty()) {
    found.push_back(!Alike(*u.device, *a.device) ? Mechanism::kOtherIo
                    : Significant(pair)          ? Mechanism::kUnexplained
                                                 : Mechanism::kSameIo);
  }
  return found;
}

bool OthersCounted(const PairResult& pair) {
  return pair.unaligned.device && pair.aligned.device &&
         (BusyReads(pair) || BusyWrites(pair));
}

std::string Explain(const PairResult& pair, std::uint64_t shift) {
  if (!pair.Measured()) return NotMeasured(pair);
  std::string text;
  auto add = [&text](const std::string& sentence) {
    if (sentence.empty()) return;
    if (!text.empty()) text += " ";
    text += sentence;
  };
  for (const std::string& note : PreparationNotes(pair)) add(note);
  const std::vector<Mechanism> found = MechanismsOf(pair);
  const Figures f = FiguresOf(pair);
  for (Mechanism m : found) add(Sentence(m, pair, f, shift));
  for (const std::string& note : TracedNotes(pair)) add(note);
  // Without counters there is nothing to weigh the verdict against.
  if (found.front() != Mechanism::kNoCounters) {
    add(VerdictNote(pair, Significant(pair)));
  }
  return text;
}

}  // namespace alignbench
