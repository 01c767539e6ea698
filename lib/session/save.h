// A directory's result saved: the runner's document (with several
// directories, only the runs measured in this one) with the report as its
// "alignbench" section, written whole or not at all (lib/io/result_file.h).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "lib/base/error.h"
#include "lib/result/report.h"
#include "lib/session/session_options.h"

namespace alignbench {

// The runner's document for directory `dir` of `dirs`: with several, only
// the runs measured there (named alignbench/dirN/...).
nlohmann::json DocumentFor(const nlohmann::json& document, std::size_t dir,
                           std::size_t dirs);

// The result document: `document` with `report` as its "alignbench" section;
// the host name is left out of the runner's context when
// options.redact_host. What --out saves and --format json prints.
nlohmann::json ResultDocument(const SessionOptions& options,
                              nlohmann::json document, const Report& report);

// Saves a result document to `path`. Says where it went on `log`; returns
// the error when the result went to a fallback file instead.
std::optional<Error> SaveDocument(const std::string& path,
                                  const SessionOptions& options,
                                  const nlohmann::json& result,
                                  std::ostream& log);

// SaveDocument of ResultDocument.
std::optional<Error> SaveReport(const std::string& path,
                                const SessionOptions& options,
                                nlohmann::json document, const Report& report,
                                std::ostream& log);

}  // namespace alignbench
