// lib/measure/writer_threads.h: every commit of a group is written once, by
// whichever writer takes it; a failure comes back to the caller; the threads
// serve group after group.
#include "lib/measure/writer_threads.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace alignbench;

TEST_CASE("writer threads: each commit of every group once") {
  auto started = WriterThreads::Start(4);
  REQUIRE(started);
  WriterThreads& writers = *started.value();
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for (int group = 0; group < 500; ++group) {
    std::vector<int> written(4, 0);
    const std::function<Status(std::size_t)> write = [&](std::size_t k) {
      std::lock_guard<std::mutex> lock(mutex);
      ++written[k];
      threads.insert(std::this_thread::get_id());
      return Status(Ok{});
    };
    REQUIRE(writers.WriteGroup(4, write));
    CHECK(written == std::vector<int>(4, 1));
  }
  CHECK(threads.size() >= 1);
  CHECK(threads.size() <= 4);
}

TEST_CASE("writer threads: a commit's failure is the group's") {
  auto started = WriterThreads::Start(3);
  REQUIRE(started);
  WriterThreads& writers = *started.value();
  const std::function<Status(std::size_t)> fail_two = [](std::size_t k) {
    if (k == 2) {
      return Status(SystemError(ErrorKind::kIo, "pwrite", "log", ENOSPC));
    }
    return Status(Ok{});
  };
  const Status failed = writers.WriteGroup(6, fail_two);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().errno_value == ENOSPC);
  // The next group starts clean.
  const std::function<Status(std::size_t)> fine = [](std::size_t) {
    return Status(Ok{});
  };
  CHECK(writers.WriteGroup(6, fine));
}
