#include "lib/result/escape.h"

#include <vector>

namespace alignbench {

void EscapeControlStrings(nlohmann::json& document) {
  // A stack of our own, not recursion: a hostile file may nest a million deep.
  std::vector<nlohmann::json*> pending{&document};
  while (!pending.empty()) {
    nlohmann::json& value = *pending.back();
    pending.pop_back();
    if (value.is_string()) {
      value = EscapeControl(value.get_ref<const std::string&>());
    } else if (value.is_structured()) {
      for (auto& element : value) pending.push_back(&element);
    }
  }
}

}  // namespace alignbench
