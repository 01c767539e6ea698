// Writer threads (--writers): a group's commits written side by side, each
// commit's writes one at a time on the thread that took it (WriterThreads),
// the caller among them; Commit returns when the group is written, and the
// step's sync follows once for all.
#include <cassert>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "lib/measure/engine.h"
#include "lib/measure/writer_threads.h"

namespace alignbench {
namespace {

class ThreadsEngine final : public WriteEngine {
 public:
  ThreadsEngine(std::unique_ptr<WriterThreads> threads, std::size_t commits,
                LogWriter& writer)
      : threads_(std::move(threads)), commits_(commits), writer_(writer) {
    // Step() allocates nothing where a commit writes at most 4 times.
    writes_.reserve(4 * commits);
    starts_.reserve(commits + 1);
  }
  bool Batched() const override { return true; }
  Status Queue(const Op& op, const char* bytes, std::size_t commit) override;
  Status Commit() override;

 private:
  // Commit `commit`'s writes, on the writer thread that took it.
  Status WriteCommit(std::size_t commit);

  std::unique_ptr<WriterThreads> threads_;
  std::size_t commits_;
  LogWriter& writer_;
  // The writes held, in order, and where each commit's start (then the end).
  std::vector<std::pair<const Op*, const char*>> writes_;
  std::vector<std::size_t> starts_;
};

Status ThreadsEngine::Queue(const Op& op, const char* bytes,
                            std::size_t commit) {
  // The step's commits in order, each within the group.
  assert(commit < commits_ && commit + 1 >= starts_.size());
  while (starts_.size() <= commit) starts_.push_back(writes_.size());
  writes_.emplace_back(&op, bytes);
  return Ok{};
}

Status ThreadsEngine::Commit() {
  while (starts_.size() <= commits_) starts_.push_back(writes_.size());
  Status written = threads_->WriteGroup(
      commits_, [this](std::size_t commit) { return WriteCommit(commit); });
  writes_.clear();
  starts_.clear();
  return written;
}

Status ThreadsEngine::WriteCommit(std::size_t commit) {
  for (std::size_t i = starts_[commit]; i < starts_[commit + 1]; ++i) {
    const auto& [op, bytes] = writes_[i];
    if (Status written = writer_.WriteNow(*op, bytes); !written) return written;
  }
  return Ok{};
}

// What to do when the threads cannot be had (pthread_create's errno).
std::string ThreadsHint(int err) {
  return err == EAGAIN ? "no more threads may be started (ulimit -u, the "
                         "cgroup's pids.max): raise the limit or use fewer "
                         "--writers"
                       : "";
}

}  // namespace

Result<std::unique_ptr<WriteEngine>> StartThreadsEngine(std::size_t writers,
                                                        std::size_t commits,
                                                        LogWriter& writer) {
  auto started = WriterThreads::Start(writers);
  if (!started) {
    Error error = started.error();
    error.hint = ThreadsHint(error.errno_value);
    return error;
  }
  return std::unique_ptr<WriteEngine>(
      new ThreadsEngine(std::move(started).value(), commits, writer));
}

}  // namespace alignbench
