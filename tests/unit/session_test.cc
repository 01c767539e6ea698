// The measuring session as a library part: real files in a temporary
// directory, runs driven by PlainRunner (no Google Benchmark), and faults
// injected through the session's FileOps at a chosen call, without root.
#include "lib/session/session.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lib/session/session_options.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

SessionOptions SmallPlan(const std::string& dir) {
  SessionOptions options;
  options.settings.dir = dir;
  options.settings.sizes = {4096, 8192};
  options.settings.writes = 4;
  options.settings.repetitions = 6;
  options.settings.seed = 7;
  options.dirs = {dir};
  options.command_line = {"alignbench", "--dir", dir};
  return options;
}

// The small plan in `dir` through `ops`, which must not fail before measuring.
SessionOutcome RunSmallPlan(const std::string& dir, FileOps& ops) {
  PlainRunner runner;
  std::ostringstream log;
  Result<SessionOutcome> ran = RunSession(SmallPlan(dir), runner, ops, log);
  REQUIRE(ran);
  return std::move(ran).value();
}

std::size_t RunsOf(const Report& report, bool failed) {
  std::size_t n = 0;
  for (const PairResult& pair : report.pairs) {
    for (const VariantResult* v : {&pair.unaligned, &pair.aligned}) {
      n += failed ? v->failed_repetitions : v->repetitions;
    }
  }
  return n;
}

// Fails the `nth` call of one kind with `error`, counting from the first
// run's first call of that kind; every other call goes to the kernel.
class FailNth final : public FileOpsWrapper {
 public:
  enum class Call { kCreate, kFsync, kUnlink };
  FailNth(Call call, int nth, int error)
      : FileOpsWrapper(SystemFileOps()),
        call_(call),
        nth_(nth),
        error_(error) {}
  int Create(const char* path, int flags, mode_t mode) override {
    if (Hit(Call::kCreate)) return -1;
    return FileOpsWrapper::Create(path, flags, mode);
  }
  int Fsync(int fd) override {
    if (Hit(Call::kFsync)) return -1;
    return FileOpsWrapper::Fsync(fd);
  }
  int UnlinkAt(int dir_fd, const char* name) override {
    if (Hit(Call::kUnlink)) return -1;
    return FileOpsWrapper::UnlinkAt(dir_fd, name);
  }
  int calls() const { return calls_; }

 private:
  bool Hit(Call call) {
    if (call != call_ || ++calls_ != nth_) return false;
    errno = error_;
    return true;
  }
  Call call_;
  int nth_;
  int error_;
  int calls_ = 0;
};

}  // namespace

TEST_CASE("a session measures every planned run and saves its result") {
  TempDir dir, out;
  SessionOptions options = SmallPlan(dir.path());
  options.out = out.path() + "/r.json";
  PlainRunner runner;
  std::ostringstream log;
  Result<SessionOutcome> ran =
      RunSession(options, runner, SystemFileOps(), log);
  REQUIRE(ran);
  const SessionOutcome& outcome = ran.value();
  REQUIRE(outcome.reports.size() == 1);
  const Report& report = outcome.reports[0];
  CHECK(report.complete);
  CHECK_FALSE(outcome.fatal);
  CHECK(outcome.not_saved.empty());
  REQUIRE(report.pairs.size() == 2);
  CHECK(RunsOf(report, false) == 2 * 2 * 6);
  CHECK(RunsOf(report, true) == 0);
  for (const PairResult& pair : report.pairs) {
    CHECK(pair.Measured());
    CHECK(pair.verdict.has_value());
  }
  CHECK(report.settings.seed == 7u);
  CHECK(dir.Names().empty());  // every test file removed
  std::ifstream saved(*options.out);
  const nlohmann::json document = nlohmann::json::parse(saved);
  CHECK(document["alignbench"]["complete"] == true);
  CHECK(document["alignbench"]["pairs"].size() == 2);
  CHECK(log.str().find("result saved to " + *options.out) != std::string::npos);
}

TEST_CASE("the same seed gives the same order of runs") {
  TempDir dir;
  PlainRunner runner;
  std::ostringstream log;
  std::vector<std::vector<std::size_t>> orders;
  for (int i = 0; i < 2; ++i) {
    Result<SessionOutcome> ran =
        RunSession(SmallPlan(dir.path()), runner, SystemFileOps(), log);
    REQUIRE(ran);
    std::vector<std::size_t> order;
    for (const RunPoint& run : ran.value().reports[0].pairs[0].aligned.runs) {
      order.push_back(run.order);
    }
    orders.push_back(order);
  }
  CHECK(orders[0] == orders[1]);
  CHECK(orders[0].size() == 6);
}

TEST_CASE("a refused directory stops the session before anything is run") {
  TempDir dir;
  SessionOptions options = SmallPlan(dir.path() + "/missing");
  FailNth ops(FailNth::Call::kCreate, 1, ENOSPC);
  PlainRunner runner;
  std::ostringstream log;
  Result<SessionOutcome> ran = RunSession(options, runner, ops, log);
  REQUIRE_FALSE(ran);
  CHECK(ran.error().errno_value == ENOENT);
  CHECK(ops.calls() == 0);  // no run got as far as its file
}

// A fault in each phase of a run, at the start, in the middle and at the end
// of the schedule: the session stops the runs, keeps what was measured, marks
// the result incomplete with the one error, and leaves no test file.
TEST_CASE("a fault at any run stops the session and keeps what was measured") {
  constexpr int kRuns = 2 * 2 * 6;
  for (int at : {1, kRuns / 2, kRuns}) {
    DYNAMIC_SECTION("ENOSPC creating the file of run " << at) {
      TempDir dir;
      FailNth ops(FailNth::Call::kCreate, at, ENOSPC);
      const SessionOutcome outcome = RunSmallPlan(dir.path(), ops);
      REQUIRE(outcome.fatal);
      CHECK(outcome.fatal->errno_value == ENOSPC);
      CHECK_FALSE(outcome.fatal->hint.empty());
      const Report& report = outcome.reports[0];
      CHECK_FALSE(report.complete);
      CHECK(report.errors.size() == 1);
      CHECK(RunsOf(report, false) == static_cast<std::size_t>(at - 1));
      CHECK(dir.Names().empty());
    }
    DYNAMIC_SECTION("EIO syncing a timed write of run " << at) {
      TempDir dir;
      // Each run syncs once while preparing its file, then after each of its
      // 4 timed writes: the third timed sync of run `at`.
      FailNth ops(FailNth::Call::kFsync, (at - 1) * 5 + 4, EIO);
      const SessionOutcome outcome = RunSmallPlan(dir.path(), ops);
      REQUIRE(outcome.fatal);
      CHECK(outcome.fatal->errno_value == EIO);
      const Report& report = outcome.reports[0];
      CHECK_FALSE(report.complete);
      CHECK(RunsOf(report, false) == static_cast<std::size_t>(at - 1));
      CHECK(RunsOf(report, true) == 1);
      CHECK(dir.Names().empty());
    }
  }
}

TEST_CASE("a test file that cannot be removed is said, not hidden") {
  TempDir dir;
  FailNth ops(FailNth::Call::kUnlink, 1, EBUSY);
  // The destructor of the test file says it on stderr; the session goes on.
  CHECK_FALSE(RunSmallPlan(dir.path(), ops).fatal);
  CHECK(dir.Names().size() == 1);  // left, and named in the warning
}

TEST_CASE("several directories: one report each, their runs interleaved") {
  TempDir a, b;
  SessionOptions options = SmallPlan(a.path());
  options.dirs = {a.path(), b.path()};
  PlainRunner runner;
  std::ostringstream log;
  Result<SessionOutcome> ran =
      RunSession(options, runner, SystemFileOps(), log);
  REQUIRE(ran);
  const std::vector<Report>& reports = ran.value().reports;
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].settings.dir == a.path());
  CHECK(reports[1].settings.dir == b.path());
  // Interleaved: each directory has runs in both halves of the schedule.
  for (const Report& report : reports) {
    std::size_t early = 0, late = 0;
    for (const PairResult& pair : report.pairs) {
      for (const RunPoint& run : pair.aligned.runs) {
        (run.order <= 2 * 2 * 2 * 6 / 2 ? early : late) += 1;
      }
    }
    CHECK(early > 0);
    CHECK(late > 0);
  }
  CHECK(log.str().find("in each of 2 directories, interleaved") !=
        std::string::npos);
}
