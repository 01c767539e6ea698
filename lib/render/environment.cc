#include "lib/render/environment.h"

#include "lib/render/report_parts.h"
#include "lib/result/env_fields.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

// One section's fields as the field table orders them, "unknown" where a
// field printed always is.
void PrintSection(std::ostream& out, const TargetInfo& t, EnvSection section) {
  for (const EnvField& field : EnvFields()) {
    if (field.section != section || field.printed == Printed::kNever) continue;
    const FieldValue value = field.get(t);
    const bool known = !std::holds_alternative<std::monostate>(value);
    if (!known && field.printed == Printed::kIfKnown) continue;
    out << "  " << field.label << ": " << EscapeControl(FieldText(value))
        << "\n";
  }
}

}  // namespace

void RenderEnvironment(std::ostream& out, const TargetInfo& t) {
  out << TargetLine(t) << "\nhost\n";
  PrintSection(out, t, EnvSection::kHost);
  out << "filesystem\n";
  PrintSection(out, t, EnvSection::kTarget);
  if (!t.device) {
    out << "device\n  " << EscapeControl(t.no_device_reason) << "\n";
    return;
  }
  out << "device\n";
  PrintSection(out, t, EnvSection::kDevice);
}

}  // namespace alignbench
