// lib/session/save.h: a directory's share of the runner's document, and the
// result saved whole with the report as its "alignbench" section.
#include "lib/session/save.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

nlohmann::json Document() {
  nlohmann::json d;
  d["context"] = {{"host_name", "secret-host"}, {"num_cpus", 2}};
  d["benchmarks"] =
      nlohmann::json::array({{{"name", "alignbench/dir1/4K/aligned"}},
                             {{"name", "alignbench/dir2/4K/aligned"}},
                             {{"name", "alignbench/dir2/8K/unaligned"}}});
  return d;
}

// The current directory is `dir` while it lives: a result's fallback file
// (written to the current directory first) lands where TempDir removes it,
// also when a check fails.
class InDir {
 public:
  explicit InDir(const std::string& dir) {
    REQUIRE(::getcwd(before_, sizeof before_) != nullptr);
    REQUIRE(::chdir(dir.c_str()) == 0);
  }
  ~InDir() { (void)::chdir(before_); }
  InDir(const InDir&) = delete;
  InDir& operator=(const InDir&) = delete;

 private:
  char before_[4096];
};

nlohmann::json Read(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("save: each directory's document holds only its own runs") {
  const nlohmann::json all = Document();
  CHECK(DocumentFor(all, 0, 1) == all);
  CHECK(DocumentFor(all, 0, 2)["benchmarks"].size() == 1);
  const nlohmann::json second = DocumentFor(all, 1, 2);
  REQUIRE(second["benchmarks"].size() == 2);
  CHECK(second["benchmarks"][1]["name"] == "alignbench/dir2/8K/unaligned");
  CHECK(second["context"] == all["context"]);
}

TEST_CASE("save: the report in its section, the host left out when asked") {
  TempDir dir;
  SessionOptions options;
  options.redact_host = true;
  Report report;
  report.tool_version = "test";
  report.settings.dir = dir.path();
  std::ostringstream log;
  const std::string path = dir.path() + "/r.json";
  CHECK_FALSE(SaveReport(path, options, Document(), report, log));
  const nlohmann::json saved = Read(path);
  CHECK(saved["alignbench"]["tool"]["version"] == "test");
  CHECK_FALSE(saved["context"].contains("host_name"));
  CHECK(saved["context"]["num_cpus"] == 2);
  CHECK(log.str().find(path) != std::string::npos);
  // A runner without a document: the file holds the report alone.
  const std::string plain = dir.path() + "/plain.json";
  CHECK_FALSE(SaveReport(plain, options, nullptr, report, log));
  CHECK(Read(plain).size() == 1);
}

TEST_CASE("save: a result that appeared meanwhile is not replaced") {
  TempDir dir;
  const std::string path = dir.path() + "/r.json";
  std::ofstream(path) << "theirs\n";
  const InDir in_dir(dir.path());
  SessionOptions options;
  Report report;
  std::ostringstream log;
  std::optional<Error> failed =
      SaveReport(path, options, nlohmann::json::object(), report, log);
  REQUIRE(failed);
  std::ifstream in(path);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "theirs\n");
  // The measurement went to a fallback file, which the error names.
  const std::string kept = "the measurement is kept in ";
  REQUIRE(failed->hint.rfind(kept, 0) == 0);
  const std::string fallback =
      failed->hint.substr(kept.size(), failed->hint.find(';') - kept.size());
  CAPTURE(fallback);
  CHECK(Read(fallback).contains("alignbench"));
}
