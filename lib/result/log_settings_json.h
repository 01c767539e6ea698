// A log case's settings in a result file: settings.log with the writer's
// rules and the variants' labels; and the way back through the case file's
// parser. (Each pair's per_commit is the pair's own: json_write.cc.)
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/error.h"
#include "lib/result/report.h"

namespace alignbench {

// Adds settings.log (the rules, and the words the printers use) to a
// result's JSON object.
void AddLogJson(const Report& report, nlohmann::json& alignbench);

// Reads settings.log back into report.settings.log and the words recorded
// with it into report.log_words (absent in Derby's sweep and in version 1/2
// files written before it existed; the words before version 3: the caller
// derives what is missing, RecordForPrinters).
Status ReadLogSettings(const nlohmann::json& alignbench,
                       const std::string& origin, Report& report);

}  // namespace alignbench
