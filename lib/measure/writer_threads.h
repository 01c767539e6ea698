// The writer threads of a group commit: for each group, every thread (the
// caller among them) takes the next commit from a shared position, as a
// database's sessions take the next place in its log, and writes it; the
// caller goes on when the group is written, to sync it for all. The threads
// live as long as the run and wait between groups.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "lib/base/error.h"

namespace alignbench {

class WriterThreads final {
 public:
  // The caller and writers - 1 threads.
  static Result<std::unique_ptr<WriterThreads>> Start(std::size_t writers);
  ~WriterThreads();
  WriterThreads(const WriterThreads&) = delete;
  WriterThreads& operator=(const WriterThreads&) = delete;

  // write(k) for each commit k of [0, commits), each on the writer that took
  // it; returns when all are done, with the first failure.
  Status WriteGroup(std::size_t commits,
                    const std::function<Status(std::size_t)>& write);

 private:
  WriterThreads() = default;
  void Serve();
  // Takes commits until none is left; keeps the first failure.
  void Take();

  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::uint64_t group_ = 0;  // counts groups: a thread's signal to start
  std::size_t working_ = 0;  // threads still in the group
  bool stop_ = false;
  const std::function<Status(std::size_t)>* write_ = nullptr;
  std::size_t commits_ = 0;
  // The shared log position: the next commit of the group to write.
  std::atomic<std::size_t> next_{0};
  std::optional<Error> failure_;
  std::vector<std::thread> threads_;
};

}  // namespace alignbench
