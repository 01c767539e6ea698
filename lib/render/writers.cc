#include "lib/render/writers.h"

#include "lib/render/csv.h"
#include "lib/render/derby.h"
#include "lib/render/ioping.h"
#include "lib/render/markdown.h"
#include "lib/render/text_compact.h"
#include "lib/render/text_detailed.h"

namespace alignbench {

void Render(std::ostream& out, const Report& report, Format format,
            Detail detail) {
  switch (format) {
    case Format::kTable:
      return detail == Detail::kFull ? RenderDetailed(out, report)
                                     : RenderCompact(out, report);
    case Format::kDerby:
      return RenderDerby(out, report);
    case Format::kMarkdown:
      return RenderMarkdown(out, report);
    case Format::kCsv:
      return RenderCsv(out, report);
    case Format::kIoping:
      return RenderIoping(out, report);
  }
}

}  // namespace alignbench
