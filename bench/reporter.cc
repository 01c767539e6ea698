#include "bench/reporter.h"

#include <cstdio>

namespace alignbench {

CollectingReporter::CollectingReporter(Progress& progress)
    : progress_(progress) {
  json_.SetOutputStream(&json_text_);
  json_.SetErrorStream(&json_text_);
}

bool CollectingReporter::ReportContext(const Context& context) {
  return json_.ReportContext(context);
}

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
  json_.ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration) continue;
    ++progress_.done;
    if (!progress_.enabled) continue;
    const double elapsed = progress_.ElapsedSeconds();
    const double eta = elapsed / static_cast<double>(progress_.done) *
                       static_cast<double>(progress_.planned - progress_.done);
    std::fprintf(stderr, "%s[%zu/%zu] %s %s, %.0f s elapsed, ETA %.0f s%s",
                 progress_.terminal ? "\r\033[K" : "", progress_.done,
                 progress_.planned, run.benchmark_name().c_str(),
                 run.error_occurred ? "failed" : "done", elapsed, eta,
                 progress_.terminal ? "" : "\n");
  }
}

void CollectingReporter::Finalize() {
  json_.Finalize();
  if (progress_.enabled && progress_.terminal) std::fprintf(stderr, "\r\033[K");
}

nlohmann::json CollectingReporter::Document() const {
  return nlohmann::json::parse(json_text_.str(), nullptr,
                               /*allow_exceptions=*/false);
}

}  // namespace alignbench
