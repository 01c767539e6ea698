#include "lib/render/derby.h"

#include "lib/render/cells.h"

namespace alignbench {

void RenderDerby(std::ostream& out, const Report& r) {
  for (const PairResult& p : r.pairs) {
    if (!p.Measured()) {
      out << SizeColumn(p.spec.size) << " | n/a | n/a | n/a\n";
      continue;
    }
    out << SizeColumn(p.spec.size) << " | "
        << JavaDouble(p.unaligned.total_ns.mean / 1e6) << " | "
        << JavaDouble(p.aligned.total_ns.mean / 1e6) << " | "
        << JavaDouble(*p.gain_pct) << "%\n";
  }
}

}  // namespace alignbench
