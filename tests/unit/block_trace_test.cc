// A tracing instance of alignbench's own: made, used and removed, or refused
// with a reason where tracefs cannot be had (not root, not mounted).
#include "lib/measure/block_trace.h"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

using namespace alignbench;

namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool TracefsHere() {
  struct statfs fs {};
  return ::statfs(kTracefsDir, &fs) == 0 && fs.f_type == 0x74726163;
}

}  // namespace

TEST_CASE("A block trace's instance lives as long as it does") {
  const std::string instance = std::string(kTracefsDir) +
                               "/instances/alignbench-" +
                               std::to_string(::getpid());
  Result<BlockTrace> trace = BlockTrace::Open(makedev(7, 0));
  if (!trace) {
    // Not root, or no tracefs: the reason says what to do.
    CHECK((::geteuid() != 0 || !TracefsHere()));
    CHECK_FALSE(trace.error().Message().empty());
    CHECK_FALSE(Exists(instance));
    return;
  }
  CHECK(Exists(instance));
  // A second instance of the same process is refused, never shared.
  CHECK_FALSE(BlockTrace::Open(makedev(7, 0)));
  REQUIRE(trace.value().Start());
  Result<ParsedTrace> read = trace.value().Stop();
  REQUIRE(read);
  CHECK_FALSE(read.value().lost);
  {
    BlockTrace moved(std::move(trace).value());
    CHECK(Exists(instance));
  }
  CHECK_FALSE(Exists(instance));
}

TEST_CASE("A disk that /sys/block does not know has no trace") {
  Result<BlockTrace> trace = BlockTrace::OpenDisk("no-such-disk");
  REQUIRE_FALSE(trace);
  CHECK(trace.error().Message().find("/sys/block/no-such-disk/dev") !=
        std::string::npos);
}
