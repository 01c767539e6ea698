#include "lib/session/save.h"

#include "lib/io/result_file.h"
#include "lib/result/result_json.h"

namespace alignbench {

nlohmann::json DocumentFor(const nlohmann::json& document, std::size_t dir,
                           std::size_t dirs) {
  if (dirs == 1 || !document.is_object() || !document.contains("benchmarks")) {
    return document;
  }
  nlohmann::json mine = document;
  mine["benchmarks"] = nlohmann::json::array();
  const std::string prefix = "alignbench/dir" + std::to_string(dir + 1) + "/";
  for (const nlohmann::json& entry : document["benchmarks"]) {
    if (entry.value("name", "").rfind(prefix, 0) == 0) {
      mine["benchmarks"].push_back(entry);
    }
  }
  return mine;
}

nlohmann::json ResultDocument(const SessionOptions& options,
                              nlohmann::json document, const Report& report) {
  // A runner without a document (PlainRunner) leaves none: the result file
  // then carries the alignbench section only.
  if (!document.is_object()) document = nlohmann::json::object();
  if (options.redact_host && document.contains("context")) {
    document["context"].erase("host_name");
  }
  document["alignbench"] = ToJson(report);
  return document;
}

std::optional<Error> SaveDocument(const std::string& path,
                                  const SessionOptions& options,
                                  const nlohmann::json& result,
                                  std::ostream& log) {
  // A directory name that is not UTF-8 must not lose the measurement.
  const SaveOutcome saved =
      SaveResult(path, ResultDocumentText(result, false), options.overwrite);
  if (!saved.status) return saved.status.error();
  log << "result saved to " << EscapeControl(path) << "\n";
  return std::nullopt;
}

std::optional<Error> SaveReport(const std::string& path,
                                const SessionOptions& options,
                                nlohmann::json document, const Report& report,
                                std::ostream& log) {
  return SaveDocument(
      path, options, ResultDocument(options, std::move(document), report), log);
}

}  // namespace alignbench
