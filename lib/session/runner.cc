#include "lib/session/runner.h"

namespace alignbench {
namespace {

class CountingLoop final : public TimedLoop {
 public:
  explicit CountingLoop(std::uint64_t writes) : left_(writes) {}
  bool Next() override {
    if (failed_ || left_ == 0) return false;
    --left_;
    return true;
  }
  void Record(double) override {}
  void Fail(const std::string&) override { failed_ = true; }

 private:
  std::uint64_t left_;
  bool failed_ = false;
};

}  // namespace

nlohmann::json PlainRunner::RunStage(const std::vector<RunSlot>& slots,
                                     const MeasureFn& measure) {
  for (std::size_t i = 0; i < slots.size(); ++i) {
    CountingLoop loop(slots[i].writes);
    measure(i, loop);
  }
  return nullptr;
}

}  // namespace alignbench
