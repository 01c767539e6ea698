#include "lib/report/compare.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "lib/config/size.h"
#include "lib/report/table.h"
#include "lib/report/tail.h"

namespace alignbench {
namespace {

template <typename T>
std::string Text(const std::optional<T>& value) {
  if (!value) return "unknown";
  if constexpr (std::is_same_v<T, std::string>) {
    return *value;
  } else if constexpr (std::is_same_v<T, bool>) {
    return *value ? "yes" : "no";
  } else {
    return std::to_string(*value);
  }
}

std::string Sizes(const std::vector<std::uint64_t>& sizes) {
  std::string text;
  for (std::uint64_t s : sizes)
    text += (text.empty() ? "" : ",") + FormatSize(s);
  return text;
}

template <typename E, std::size_t N>
std::string Names(const Named<E> (&table)[N], const std::vector<E>& values) {
  std::string text;
  for (E v : values)
    text += (text.empty() ? "" : ",") + std::string(NameOf(table, v));
  return text;
}

std::string GainCell(const PairResult& p) {
  if (!p.gain_pct) return "n/a";
  std::string cell = Printf("%+.1f", *p.gain_pct);
  if (p.inference.test) {
    const Interval& i = p.inference.test->interval_pct;
    cell += " [" + Printf("%+.1f", i.low) + "," + Printf("%+.1f", i.high) + "]";
  }
  return cell;
}

std::string Change(const VariantResult& base, const VariantResult& next,
                   double Summary::*f) {
  if (base.repetitions == 0 || next.repetitions == 0) return "n/a";
  const double change = (next.total_ns.*f / base.total_ns.*f - 1) * 100;
  // A reference table has no p99: unknown, not a number.
  return std::isfinite(change) ? Printf("%+.1f%%", change) : "n/a";
}

std::string GainVerdict(const PairResult& base, const PairResult& next) {
  if (!base.gain_pct || !next.gain_pct) return "not comparable";
  if (!base.inference.test || !next.inference.test) {
    return "no interval: cannot tell";
  }
  const Interval& b = base.inference.test->interval_pct;
  const Interval& n = next.inference.test->interval_pct;
  if (b.high < n.low) return "gain grew";
  if (n.high < b.low) return "gain shrank";
  return "unchanged (intervals overlap)";
}

}  // namespace

std::vector<std::string> DifferingFields(const Report& a, const Report& b) {
  std::vector<std::string> out;
  auto check = [&out](const std::string& name, const std::string& x,
                      const std::string& y) {
    if (x != y) out.push_back(name + ": " + x + " -> " + y);
  };
  const Settings& sa = a.settings;
  const Settings& sb = b.settings;
  check("shift bytes", std::to_string(sa.shift), std::to_string(sb.shift));
  check("writes per run", std::to_string(sa.writes), std::to_string(sb.writes));
  check("repetitions", std::to_string(sa.repetitions),
        std::to_string(sb.repetitions));
  check("sizes", Sizes(sa.sizes), Sizes(sb.sizes));
  check("sync", Names(kSyncMethods, sa.axes.syncs),
        Names(kSyncMethods, sb.axes.syncs));
  check("io", Names(kIoModes, sa.axes.ios), Names(kIoModes, sb.axes.ios));
  check("layout", Names(kLayouts, sa.axes.layouts),
        Names(kLayouts, sb.axes.layouts));
  check("cache", Names(kCacheStates, sa.axes.caches),
        Names(kCacheStates, sb.axes.caches));
  const TargetInfo& ta = a.target;
  const TargetInfo& tb = b.target;
  check("filesystem", Text(ta.fs_type), Text(tb.fs_type));
  check("host", Text(ta.host.hostname), Text(tb.host.hostname));
  check("kernel", Text(ta.host.kernel), Text(tb.host.kernel));
  const DeviceInfo none;
  const DeviceInfo& da = ta.device ? *ta.device : none;
  const DeviceInfo& db = tb.device ? *tb.device : none;
  check("disk", da.disk.empty() ? "unknown" : da.disk,
        db.disk.empty() ? "unknown" : db.disk);
  check("disk model", Text(da.model), Text(db.model));
  check("drive write cache (hdparm)", Text(da.drive_write_cache),
        Text(db.drive_write_cache));
  check("scheduler", Text(da.scheduler), Text(db.scheduler));
  check("rotational", Text(da.rotational), Text(db.rotational));
  check("logical sector bytes", Text(da.logical_block_bytes),
        Text(db.logical_block_bytes));
  check("physical sector bytes", Text(da.physical_block_bytes),
        Text(db.physical_block_bytes));
  check("write cache", Text(da.write_cache), Text(db.write_cache));
  return out;
}

void RenderComparison(std::ostream& out, const Report& base,
                      const Report& next) {
  out << "base: " << TitleLine(base) << "\nnew:  " << TitleLine(next) << "\n";
  const std::vector<std::string> differing = DifferingFields(base, next);
  if (!differing.empty()) {
    out << "warning: the two results differ in " << differing.size()
        << " setting(s) or environment field(s):\n";
    for (const std::string& d : differing) out << "  " << d << "\n";
  }
  out << "\n"
      << Pad("size", 6) << " | " << Pad("base %gain [95%]", 22) << " | "
      << Pad("new %gain [95%]", 22) << " | " << Pad("unaligned mean", 14)
      << " | " << Pad("aligned mean", 12) << " | " << Pad("unaligned p99", 13)
      << " | " << Pad("aligned p99", 11) << " | gain\n";
  // Indexed by spec: matching each base pair by a scan of NEW was quadratic
  // (30 s for two files of 60,000 pairs). The last of equal specs wins, as
  // the scan's did.
  using Key = std::tuple<std::uint64_t, SyncMethod, IoMode, Layout, CacheState>;
  auto key = [](const PairSpec& s) {
    return Key{s.size, s.sync, s.io, s.layout, s.cache};
  };
  std::map<Key, const PairResult*> by_spec;
  for (const PairResult& candidate : next.pairs)
    by_spec[key(candidate.spec)] = &candidate;
  std::size_t matched = 0;
  for (const PairResult& b : base.pairs) {
    const auto found = by_spec.find(key(b.spec));
    if (found == by_spec.end()) continue;
    const PairResult* n = found->second;
    ++matched;
    out << Pad(SizeColumn(b.spec.size), 6) << " | " << Pad(GainCell(b), 22)
        << " | " << Pad(GainCell(*n), 22) << " | "
        << Pad(Change(b.unaligned, n->unaligned, &Summary::mean), 14) << " | "
        << Pad(Change(b.aligned, n->aligned, &Summary::mean), 12) << " | "
        << Pad(Change(b.unaligned, n->unaligned, &Summary::p99), 13) << " | "
        << Pad(Change(b.aligned, n->aligned, &Summary::p99), 11) << " | "
        << GainVerdict(b, *n) << "\n";
  }
  if (matched == 0) {
    out << "no pair of BASE matches a pair of NEW (size, sync, io, layout and "
           "cache must agree)\n";
  }
  RenderPercentileMoves(out, base, next);
  out << "\nsize in KiB; %gain = (unaligned/aligned - 1)*100 with its 95% "
         "interval; mean and "
         "p99 columns: change from base to new.\n";
}

}  // namespace alignbench
