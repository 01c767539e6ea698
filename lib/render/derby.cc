#include "lib/render/derby.h"

#include "lib/render/cells.h"

namespace alignbench {
namespace {

void DerbyRow(std::ostream& out, const RowView& row) {
  if (!row.measured) {
    out << SizeColumn(row.size_bytes) << " | n/a | n/a | n/a\n";
    return;
  }
  out << SizeColumn(row.size_bytes) << " | "
      << JavaDouble(row.unaligned.total_ns.mean / 1e6) << " | "
      << JavaDouble(row.aligned.total_ns.mean / 1e6) << " | "
      << JavaDouble(*row.means_gain_pct) << "%\n";
}

}  // namespace

void RenderDerby(std::ostream& out, const ReportView& v) {
  // Derby's program wrote plain writes; rows of any other kind say so.
  if (!v.atomic.empty()) out << v.atomic << "\n";
  for (const GroupView& group : v.groups) {
    for (const RowView& row : group.rows) DerbyRow(out, row);
  }
}

}  // namespace alignbench
