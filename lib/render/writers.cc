#include "lib/render/writers.h"

#include "lib/render/csv.h"
#include "lib/render/derby.h"
#include "lib/render/ioping.h"
#include "lib/render/markdown.h"
#include "lib/render/text_compact.h"
#include "lib/render/text_detailed.h"

namespace alignbench {

void Render(std::ostream& out, const ReportView& view, Format format,
            Detail detail) {
  switch (format) {
    case Format::kTable:
      return detail == Detail::kFull ? RenderDetailed(out, view)
                                     : RenderCompact(out, view);
    case Format::kDerby:
      return RenderDerby(out, view);
    case Format::kMarkdown:
      return RenderMarkdown(out, view);
    case Format::kCsv:
      return RenderCsv(out, view);
    case Format::kIoping:
      return RenderIoping(out, view);
  }
}

void Render(std::ostream& out, const Report& report, Format format,
            Detail detail) {
  Render(out, ViewOf(report), format, detail);
}

void RenderMany(std::ostream& out, const ManyView& view, Format format) {
  if (view.views.empty()) return;
  switch (format) {
    case Format::kMarkdown:
      return RenderManyMarkdown(out, view);
    case Format::kCsv:
      return RenderManyCsv(out, view);
    case Format::kTable:
    case Format::kDerby:
      return RenderManyText(out, view);
    case Format::kIoping:
      for (const ReportView& one : view.views) Render(out, one, format);
      return;
  }
}

}  // namespace alignbench
