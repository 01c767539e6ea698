#include "bench/reporter.h"

namespace alignbench {

CollectingReporter::CollectingReporter() {
  json_.SetOutputStream(&json_text_);
  json_.SetErrorStream(&json_text_);
}

bool CollectingReporter::ReportContext(const Context& context) {
  return json_.ReportContext(context);
}

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
  json_.ReportRuns(runs);
}

void CollectingReporter::Finalize() { json_.Finalize(); }

nlohmann::json CollectingReporter::Document() const {
  return nlohmann::json::parse(json_text_.str(), nullptr,
                               /*allow_exceptions=*/false);
}

}  // namespace alignbench
