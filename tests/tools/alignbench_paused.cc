// alignbench with one difference, for the fault tests on real filesystems
// (tests/integration/fault_phases.sh): with ALIGNBENCH_STOP_BEFORE_RUN=K the
// process stops itself (SIGSTOP) just before run K creates its test file, so
// that the test can break the filesystem at exactly that point and let it go
// on with SIGCONT. With ALIGNBENCH_STOP_AT_FSYNC=N it stops just before the
// N-th fsync of a run's file instead: in the middle of a run, its file open.
// The pause lives in this tool's FileOps, not in the binary users run.
#include <csignal>
#include <cstdlib>

#include "bench/app.h"

namespace {

class PauseBeforeRun final : public alignbench::FileOpsWrapper {
 public:
  PauseBeforeRun(unsigned long long run, unsigned long long fsync)
      : FileOpsWrapper(alignbench::SystemFileOps()), run_(run), fsync_(fsync) {}
  int Create(const char* path, int flags, mode_t mode) override {
    if (++created_ == run_) ::raise(SIGSTOP);
    return FileOpsWrapper::Create(path, flags, mode);
  }
  int Fsync(int fd) override {
    if (++synced_ == fsync_) ::raise(SIGSTOP);
    return FileOpsWrapper::Fsync(fd);
  }

 private:
  unsigned long long run_;
  unsigned long long fsync_;
  unsigned long long created_ = 0;
  unsigned long long synced_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const char* run = std::getenv("ALIGNBENCH_STOP_BEFORE_RUN");
  const char* fsync = std::getenv("ALIGNBENCH_STOP_AT_FSYNC");
  PauseBeforeRun ops(run ? std::strtoull(run, nullptr, 10) : 0,
                     fsync ? std::strtoull(fsync, nullptr, 10) : 0);
  return alignbench::AlignbenchMain(argc, argv, ops);
}
