// lib/trace/tracing_effect.h: the counters of a window parsed and
// subtracted, and the sentence that says what tracing did to the grouping.
// A real program recorded by --pid on a loop device is
// tests/integration/record_tracing.sh's.
#include "lib/trace/tracing_effect.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

using namespace alignbench;

TEST_CASE("tracing: /proc/PID/io's write calls and bytes are read") {
  const std::string io =
      "rchar: 3937\nwchar: 2048\nsyscr: 9\nsyscw: 4\nread_bytes: 0\n"
      "write_bytes: 4096\ncancelled_write_bytes: 0\n";
  const std::optional<ProcessWrites> w = ParseProcessIo(io);
  REQUIRE(w);
  CHECK(w->calls == 4);
  CHECK(w->bytes == 2048);
  CHECK_FALSE(ParseProcessIo("rchar: 1\nsyscw: 4\n"));
  CHECK_FALSE(ParseProcessIo("wchar: -1\nsyscw: 4\n"));
  CHECK_FALSE(ParseProcessIo("wchar: 99999999999999999999999\nsyscw: 4\n"));
  CHECK_FALSE(ParseProcessIo(""));
}

namespace {

CounterReading Reading(int ms, std::map<pid_t, ProcessWrites> processes,
                       std::optional<std::uint64_t> flushes) {
  CounterReading r;
  r.at = std::chrono::steady_clock::time_point(std::chrono::milliseconds(ms));
  r.processes = std::move(processes);
  r.flushes = flushes;
  return r;
}

}  // namespace

TEST_CASE("tracing: a window counts the processes read at both ends") {
  // Process 2 ended in the window and 3 began: neither counts.
  const CounterReading from =
      Reading(1000, {{1, {10, 1000}}, {2, {5, 500}}}, 100);
  const CounterReading to =
      Reading(3000, {{1, {30, 21480}}, {3, {7, 700}}}, 110);
  std::string why;
  const std::optional<CounterWindow> w = WindowBetween(from, to, why);
  REQUIRE(w);
  CHECK(w->milliseconds == 2000);
  CHECK(w->write_calls == 20);
  CHECK(w->write_bytes == 20480);
  CHECK(w->device_flushes == 10);
  CHECK(why.empty());
  // No flush, nothing written, no flush count, an io file not read: why.
  CHECK_FALSE(WindowBetween(from, Reading(3000, {{1, {30, 21480}}}, 100), why));
  CHECK(why == "no device flush in 2.0 s");
  CHECK_FALSE(WindowBetween(from, Reading(3000, {{1, {10, 1000}}}, 120), why));
  CHECK(why == "nothing written in 2.0 s");
  CHECK_FALSE(
      WindowBetween(from, Reading(3000, {{1, {30, 2000}}}, std::nullopt), why));
  CHECK_THAT(why, Catch::Contains("flush count is not known") &&
                      Catch::Contains("5.5"));
  CounterReading denied = to;
  denied.unreadable = "reading /proc/1/io: EACCES (record as root, ...)";
  CHECK_FALSE(WindowBetween(from, denied, why));
  CHECK_THAT(why, Catch::Contains("/proc/1/io: EACCES"));
}

TEST_CASE("tracing: one sentence with both windows, or why not") {
  // 4 KiB in 4 writes a flush untraced, 2.5 KiB in 5 traced: -38 %.
  TracingEffect e{CounterWindow{2000, 400, 409600, 100},
                  CounterWindow{9000, 900, 460800, 180}, ""};
  CHECK(TracingSentence(e) ==
        "tracing changed the grouping: under strace the processes wrote 2.5 "
        "KiB in 5.0 write calls per device flush (180 flushes in 9.0 s), "
        "untraced 4.0 KiB in 4.0 write calls per device flush (100 flushes "
        "in 2.0 s), -38 %: more flushes for what they wrote, so each sync of "
        "the trace makes fewer commits durable than the program's do "
        "untraced, where its commits append their own bytes");
  e.traced->write_bytes = 3 * 409600;  // 6.7 KiB a flush: +67 %
  CHECK_THAT(TracingSentence(e), Catch::Contains("+67 %: fewer flushes") &&
                                     Catch::Contains("more commits durable"));
  e.traced->write_bytes = 759400;  // 4218.9 B a flush: +3 %
  CHECK_THAT(TracingSentence(e),
             Catch::StartsWith("tracing left the bytes written per device "
                               "flush as they were, within 10 %: under "
                               "strace") &&
                 Catch::Contains("+3 %; a log written in whole pages"));
  e.untraced->write_bytes = 20000;  // 200 B a flush: in bytes
  CHECK_THAT(TracingSentence(e),
             Catch::Contains("untraced 200 B in 4.0 write calls per device"));
  e.untraced.reset();
  e.unknown = "recorded from the start: there is no untraced window to compare";
  CHECK(TracingSentence(e) ==
        "what tracing did to the grouping is not known: recorded from the "
        "start: there is no untraced window to compare");
}

TEST_CASE("tracing: the untraced window reads this process's own writes") {
  const StopSignals stop;
  Untraced none =
      WatchUntraced(::getpid(), std::chrono::milliseconds(0), nullptr, stop);
  CHECK_FALSE(none.window);
  CHECK_THAT(none.unknown, Catch::Contains("--untraced-window 0"));
  // A flush counter that counts its readings, and 50 writes of 100 bytes
  // to /dev/null (wchar counts them) while the window is watched.
  std::uint64_t readings = 0;
  const FlushCounter flushes = [&readings] { return readings++; };
  std::atomic<bool> done{false};
  std::thread writer([&done] {
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const char bytes[100] = {};
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int i = 0; i < 50; ++i) {
      if (::write(fd, bytes, sizeof bytes) != 100) break;
    }
    ::close(fd);
    done = true;
  });
  const Untraced u =
      WatchUntraced(::getpid(), std::chrono::milliseconds(300), flushes, stop);
  writer.join();
  REQUIRE(done);
  REQUIRE(u.window);
  CHECK(u.signo == 0);
  CHECK(u.window->device_flushes == 1);
  CHECK(u.window->write_calls >= 50);
  CHECK(u.window->write_bytes >= 5000);
  CHECK(u.window->milliseconds >= 290);
}

TEST_CASE("tracing: no device to watch is said") {
  std::string why;
  CHECK(DeviceStats({}, StraceOptions{}, why).empty());
  CHECK_THAT(why, Catch::Contains("no file open for writing"));
  // This test's own executable, on whatever holds the build: either the
  // stat file of a block device, or why there is none.
  StraceOptions options;
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  options.sizes_before[std::string(self, static_cast<std::size_t>(n))] = 1;
  why.clear();
  const std::vector<std::string> stats = DeviceStats({}, options, why);
  if (stats.empty()) {
    CHECK_THAT(why, Catch::Contains("no block device"));
  } else {
    CHECK(stats.size() == 1);
    CHECK_THAT(stats[0], Catch::Matches("/sys/dev/block/[0-9]+:[0-9]+/stat"));
  }
}
