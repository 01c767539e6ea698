#include "lib/measure/writer_threads.h"

#include <system_error>

namespace alignbench {

Result<std::unique_ptr<WriterThreads>> WriterThreads::Start(
    std::size_t writers) {
  std::unique_ptr<WriterThreads> pool(new WriterThreads());
  try {
    for (std::size_t k = 1; k < writers; ++k) {
      pool->threads_.emplace_back([p = pool.get()] { p->Serve(); });
    }
  } catch (const std::system_error& e) {
    return SystemError(ErrorKind::kSetup,
                       "start " + std::to_string(writers) + " writer threads",
                       "", e.code().value());
  }
  return pool;
}

WriterThreads::~WriterThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WriterThreads::Take() {
  for (std::size_t k = next_.fetch_add(1); k < commits_;
       k = next_.fetch_add(1)) {
    Status written = (*write_)(k);
    if (!written) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = written.error();
    }
  }
}

void WriterThreads::Serve() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || group_ != seen; });
      if (stop_) return;
      seen = group_;
    }
    Take();
    std::lock_guard<std::mutex> lock(mutex_);
    if (--working_ == 0) done_.notify_one();
  }
}

Status WriterThreads::WriteGroup(
    std::size_t commits, const std::function<Status(std::size_t)>& write) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    write_ = &write;
    commits_ = commits;
    next_.store(0);
    failure_.reset();
    working_ = threads_.size();
    ++group_;
  }
  start_.notify_all();
  Take();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return working_ == 0; });
  if (failure_) return *failure_;
  return Ok{};
}

}  // namespace alignbench
