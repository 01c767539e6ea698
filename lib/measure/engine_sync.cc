// One write at a time (fio's sync engine): each write is done where it stands
// among the step's ops, with pwrite (pwritev2 for its flags), and timed on its
// own; the run's sync follows as the step's next op.
#include "lib/measure/engine.h"

namespace alignbench {
namespace {

class SyncEngine final : public WriteEngine {
 public:
  explicit SyncEngine(LogWriter& writer) : writer_(writer) {}
  bool Batched() const override { return false; }
  Status Queue(const Op& op, const char* bytes, std::size_t) override {
    return writer_.WriteNow(op, bytes);
  }
  Status Commit() override { return Ok{}; }

 private:
  LogWriter& writer_;
};

}  // namespace

std::unique_ptr<WriteEngine> StartSyncEngine(LogWriter& writer) {
  return std::make_unique<SyncEngine>(writer);
}

}  // namespace alignbench
