// A short command run to its end, one stream read back, killed at its deadline.
#include "lib/io/command.h"

#include <catch2/catch.hpp>
#include <chrono>

using namespace alignbench;

TEST_CASE("The stream asked for is read back, the other is not") {
  const std::vector<std::string> both = {"sh", "-c",
                                         "echo out; echo err >&2; exit 3"};
  const CommandOutput out = RunCommand(both, OutputStream::kStdout, 10000);
  CHECK(out.exited);
  CHECK(out.exit_status == 3);
  CHECK(out.text == "out\n");
  CHECK(RunCommand(both, OutputStream::kStderr, 10000).text == "err\n");
}

TEST_CASE(
    "A command past its deadline is killed, one that cannot run says so") {
  const auto start = std::chrono::steady_clock::now();
  const CommandOutput slow = RunCommand(
      {"sh", "-c", "echo started; exec sleep 30"}, OutputStream::kStdout, 300);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_FALSE(slow.exited);
  CHECK(slow.text == "started\n");
  const CommandOutput missing =
      RunCommand({"alignbench-no-such-command"}, OutputStream::kStdout, 10000);
  CHECK_FALSE(missing.exited);
  CHECK_FALSE(RunCommand({}, OutputStream::kStdout, 10000).exited);
}
