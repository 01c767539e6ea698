#include "lib/render/beside_post.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include "lib/config/size.h"
#include "lib/env/netfs.h"
#include "lib/render/cells.h"
#include "lib/render/ioping.h"
#include "lib/render/log_columns.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

constexpr const char* kKinds[] = {kNetworkFs, kLocalDisk, kMemory};

// The row of a run at the post's request size, else its largest.
const RowView* RowFor(const ReportView& run, std::uint64_t size) {
  const RowView* best = nullptr;
  for (const GroupView& group : run.groups) {
    for (const RowView& row : group.rows) {
      if (row.size_bytes == size) return &row;
      if (best == nullptr || row.size_bytes > best->size_bytes) best = &row;
    }
  }
  return best;
}

std::string Indented(const std::string& label, const std::string& line) {
  return Pad(label, 6) + "  " + line + "\n";
}

void PostLines(std::ostream& out, const IopingLine& l) {
  out << Indented("post", "--- " + l.dir + " (" + l.fs_type + " " + l.source +
                              ") ioping statistics ---");
  out << Indented("", std::to_string(l.requests) + " requests completed in " +
                          Printf("%.1f", l.completed_in_ms) + " ms, " +
                          Printf("%.0f", l.iops) + " iops, " +
                          Printf("%.1f", l.mib_per_s) + " MiB/s");
  out << Indented("", "min/avg/max/mdev = " + Printf("%.1f", l.min_ms) + "/" +
                          Printf("%.1f", l.avg_ms) + "/" +
                          Printf("%.1f", l.max_ms) + "/" +
                          Printf("%.1f", l.mdev_ms) + " ms");
}

// The run's summary of one variant at `row`, its lines indented under "run".
void RunLines(std::ostream& out, const ReportView& run, const RowView& row,
              Variant variant) {
  out << Indented("", IopingHeading(run, row, variant));
  std::ostringstream lines;
  if (auto s = IopingSummaryOf(row.Of(variant), row.size_bytes)) {
    RenderIopingLines(lines, *s);
  } else {
    lines << "no request completed\n";
  }
  std::istringstream each(lines.str());
  for (std::string line; std::getline(each, line);) out << Indented("", line);
}

std::optional<double> RunAverageMs(const Report& run, std::uint64_t size) {
  const ReportView view = ViewOf(run);
  const RowView* row = RowFor(view, size);
  if (row == nullptr) return std::nullopt;
  auto s = IopingSummaryOf(row->aligned, row->size_bytes);
  return s ? std::optional<double>(s->avg_ms) : std::nullopt;
}

// The average request of the first directory of each kind, post and run.
struct Averages {
  std::optional<double> post[3];
  std::optional<double> run[3];
};

Averages AveragesOf(const IopingPost& post, const std::vector<Report>& runs) {
  Averages a;
  for (int k = 0; k < 3; ++k) {
    for (const IopingLine& line : post.directories) {
      if (!a.post[k] && StorageKind(line.fs_type) == kKinds[k]) {
        a.post[k] = line.avg_ms;
      }
    }
    for (const Report& run : runs) {
      if (!a.run[k] &&
          StorageKind(run.target.fs_type.value_or("")) == kKinds[k]) {
        a.run[k] = RunAverageMs(run, post.request_bytes);
      }
    }
  }
  return a;
}

std::string Ratio(const std::optional<double>& ms,
                  const std::optional<double>& local) {
  if (!ms || !local || !(*local > 0)) return "n/a";
  return Printf("%.3g", *ms / *local) + " x (" + Printf("%.3g", *ms) + " / " +
         Printf("%.3g", *local) + " ms)";
}

// The post's question: how much longer a request takes than on the local disk.
void RenderPostQuestion(std::ostream& out, const IopingPost& post,
                        const std::vector<Report>& runs) {
  const Averages a = AveragesOf(post, runs);
  out << "\nthe average request against the local disk's (the run: aligned "
         "writes at "
      << FormatSize(post.request_bytes) << " or its largest size):\n";
  for (int k : {0, 2}) {
    const std::string kind = kKinds[k];
    out << "  " << kind << std::string(20 - kind.size(), ' ') << "post "
        << Ratio(a.post[k], a.post[1]) << "   run " << Ratio(a.run[k], a.run[1])
        << "\n";
  }
}

}  // namespace

void RenderBesidePost(std::ostream& out, const IopingPost& post,
                      const std::vector<Report>& runs) {
  out << "the post: \"" << post.title << "\" (" << post.published << "), "
      << post.tool << ", " << post.command << ": " << post.measured << " of "
      << FormatSize(post.request_bytes) << "\n"
      << "the run: alignbench, a write and its sync per request, aligned and "
         "shifted\n"
      << "the post measured " << post.measured
      << " and the run synced writes: the lines have one shape, not one "
         "operation.\n";
  for (const char* kind : kKinds) {
    out << "\n" << kind << ":\n";
    for (const IopingLine& line : post.directories) {
      if (StorageKind(line.fs_type) == kind) PostLines(out, line);
    }
    for (const Report& run : runs) {
      const ReportView view = ViewOf(run);
      const RowView* row = RowFor(view, post.request_bytes);
      if (StorageKind(run.target.fs_type.value_or("")) != kind || !row) {
        continue;
      }
      out << Indented("run", row->size_bytes == post.request_bytes
                                 ? "aligned, then shifted:"
                                 : "no " + FormatSize(post.request_bytes) +
                                       " pair in this run: its largest, " +
                                       FormatSize(row->size_bytes) +
                                       ", aligned, then shifted:");
      RunLines(out, view, *row, Variant::kAligned);
      RunLines(out, view, *row, Variant::kUnaligned);
    }
  }
  RenderPostQuestion(out, post, runs);
}

}  // namespace alignbench
