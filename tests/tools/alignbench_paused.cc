// alignbench with one difference, for the fault tests on real filesystems
// (tests/integration/fault_phases.sh): with ALIGNBENCH_STOP_BEFORE_RUN=K the
// process stops itself (SIGSTOP) just before run K creates its test file, so
// that the test can break the filesystem at exactly that point and let it go
// on with SIGCONT. The pause lives in this tool's FileOps, not in the binary
// users run.
#include <csignal>
#include <cstdlib>

#include "bench/app.h"

namespace {

class PauseBeforeRun final : public alignbench::FileOpsWrapper {
 public:
  explicit PauseBeforeRun(unsigned long long run)
      : FileOpsWrapper(alignbench::SystemFileOps()), run_(run) {}
  int Create(const char* path, int flags, mode_t mode) override {
    if (++created_ == run_) ::raise(SIGSTOP);
    return FileOpsWrapper::Create(path, flags, mode);
  }

 private:
  unsigned long long run_;
  unsigned long long created_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const char* text = std::getenv("ALIGNBENCH_STOP_BEFORE_RUN");
  PauseBeforeRun ops(text ? std::strtoull(text, nullptr, 10) : 0);
  return alignbench::AlignbenchMain(argc, argv, ops);
}
