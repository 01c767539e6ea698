#include "lib/config/log_rules.h"

#include <nlohmann/json.hpp>

#include "lib/config/size.h"

namespace alignbench {
namespace {

using nlohmann::json;

Error LogError(const std::string& origin, const std::string& key,
               const std::string& why) {
  return PlainError(ErrorKind::kUsage, "case file " + origin,
                    "key 'log." + key + "': " + why);
}

Result<std::uint64_t> LogBytes(const json& value, const std::string& origin,
                               const std::string& key) {
  std::uint64_t bytes = 0;
  if (auto why = ParseByteValue(value, bytes))
    return LogError(origin, key, *why);
  return bytes;
}

template <typename E, std::size_t N>
Result<E> LogName(const Named<E> (&table)[N], const json& value,
                  const std::string& origin, const std::string& key) {
  if (value.is_string()) {
    if (auto parsed = FromName(table, value.get<std::string>())) return *parsed;
  }
  return LogError(origin, key, "expected one of " + NameList(table));
}

// The byte-size rule named `key`, or nullptr.
std::uint64_t* RuleField(LogRules& rules, const std::string& key) {
  if (key == "header") return &rules.header;
  if (key == "record_header") return &rules.record_header;
  if (key == "block") return &rules.block;
  if (key == "chunk") return &rules.chunk;
  if (key == "pad") return &rules.pad;
  if (key == "fill") return &rules.fill;
  return nullptr;
}

// "aligned"/"unaligned": bytes for pad and fill, file states for file.
Status TakeVariantValue(const json& value, const std::string& origin,
                        const std::string& key, LogWorkload& w) {
  if (w.contrast == LogContrast::kFile) {
    Result<FileState> state = LogName(kFileStates, value, origin, key);
    if (!state) return state.error();
    (key == "aligned" ? w.aligned_file : w.unaligned_file) = state.value();
    return Ok{};
  }
  if (key == "unaligned") {
    return LogError(origin, key,
                    "only a file contrast names the unaligned variant; the "
                    "unaligned variant follows the rules");
  }
  // Framing's aligned variant drops the headers; a value here would be read
  // by nothing, and whoever wrote it meant something else.
  if (w.contrast == LogContrast::kFraming) {
    return LogError(origin, key,
                    "a framing contrast takes no value for the aligned "
                    "variant (it drops the headers); remove it, or use "
                    "contrast pad or fill");
  }
  Result<std::uint64_t> bytes = LogBytes(value, origin, key);
  if (!bytes) return bytes.error();
  w.aligned_bytes = bytes.value();
  return Ok{};
}

}  // namespace

LogWorkload DerbyWorkload(std::uint64_t shift, std::uint64_t unit) {
  LogWorkload w;
  w.rules.header = shift;
  w.framing_unit = unit;
  return w;
}

LogRules RulesFor(const LogWorkload& w, Variant variant) {
  LogRules rules = w.rules;
  if (variant == Variant::kUnaligned) return rules;
  switch (w.contrast) {
    case LogContrast::kFraming:
      // The header padded to whole blocks, not dropped: both variants then
      // grow their files by the same allocations, so where the filesystem
      // puts the blocks is the same for both runs of a block and never tied
      // to one variant (an extent more in one file costs a metadata write
      // per sync on ext4).
      rules.header = RoundUp(w.rules.header, w.framing_unit);
      rules.record_header = 0;
      break;
    case LogContrast::kPad:
      rules.pad = w.aligned_bytes;
      break;
    case LogContrast::kFill:
      rules.fill = w.aligned_bytes;
      break;
    case LogContrast::kFile:
      break;
  }
  return rules;
}

std::optional<FileState> FileFor(const LogWorkload& w, Variant variant) {
  if (w.contrast != LogContrast::kFile) return std::nullopt;
  return variant == Variant::kUnaligned ? w.unaligned_file : w.aligned_file;
}

VariantWrites WritesFor(const LogWorkload& w, Variant variant, Layout layout,
                        CacheState cache) {
  VariantWrites writes{RulesFor(w, variant), layout, cache};
  const std::optional<FileState> file = FileFor(w, variant);
  if (!file) return writes;
  switch (*file) {
    case FileState::kNew:
      writes.layout = Layout::kExtend;
      break;
    case FileState::kPreallocated:
      writes.layout = Layout::kPrealloc;
      break;
    case FileState::kRecycled:
      writes.layout = Layout::kPrewritten;
      writes.cache = CacheState::kCold;
      break;
  }
  return writes;
}

std::string VariantLabel(const LogWorkload& w, Variant variant) {
  const bool first = variant == Variant::kUnaligned;
  switch (w.contrast) {
    case LogContrast::kFraming:
      return first ? "unaligned" : "aligned";
    case LogContrast::kPad:
    case LogContrast::kFill:
      return first ? "unpadded" : "padded";
    case LogContrast::kFile:
      return std::string(
          NameOf(kFileStates, first ? w.unaligned_file : w.aligned_file));
  }
  return "";
}

Result<LogWorkload> ParseLogCase(const json& value, const std::string& origin,
                                 LogWorkload w) {
  if (!value.is_object()) {
    return PlainError(ErrorKind::kUsage, "case file " + origin,
                      "key 'log': expected an object");
  }
  // The contrast first: it says how "aligned" and "unaligned" are read.
  if (auto it = value.find("contrast"); it != value.end()) {
    Result<LogContrast> c = LogName(kLogContrasts, *it, origin, "contrast");
    if (!c) return c.error();
    w.contrast = c.value();
  }
  for (const auto& [key, item] : value.items()) {
    if (key == "contrast") continue;
    if (key == "fill_sync") {
      Result<FillSync> f = LogName(kFillSyncs, item, origin, key);
      if (!f) return f.error();
      w.rules.fill_sync = f.value();
      continue;
    }
    if (std::uint64_t* field = RuleField(w.rules, key)) {
      Result<std::uint64_t> bytes = LogBytes(item, origin, key);
      if (!bytes) return bytes.error();
      *field = bytes.value();
    } else if (key == "aligned" || key == "unaligned") {
      if (Status ok = TakeVariantValue(item, origin, key, w); !ok) {
        return ok.error();
      }
    } else {
      return LogError(origin, key,
                      "unknown key (known: header, record_header, block, "
                      "chunk, pad, fill, fill_sync, contrast, aligned, "
                      "unaligned)");
    }
  }
  return w;
}

Status ValidateLog(const LogWorkload& w) {
  auto usage = [](const std::string& why) {
    return PlainError(ErrorKind::kUsage, "log rules", why);
  };
  constexpr std::uint64_t kMax = 1ull << 30;
  const LogRules& r = w.rules;
  for (std::uint64_t v : {r.header, r.record_header, r.block, r.chunk, r.pad,
                          r.fill, w.aligned_bytes}) {
    if (v > kMax) return usage("every size must be at most 1G");
  }
  for (std::uint64_t v : {r.block, r.chunk, r.pad, r.fill}) {
    if (v != 0 && !IsPowerOfTwo(v)) {
      return usage("block, chunk, pad and fill must be powers of two");
    }
  }
  if (r.chunk != 0 && r.chunk <= r.record_header) {
    return usage("a chunk must be larger than a record header");
  }
  if (r.fill_sync == FillSync::kBoundary && r.fill == 0 &&
      w.contrast != LogContrast::kFill) {
    return usage("fill_sync boundary needs a fill, or a fill contrast");
  }
  const bool by_bytes =
      w.contrast == LogContrast::kPad || w.contrast == LogContrast::kFill;
  if (by_bytes && !IsPowerOfTwo(w.aligned_bytes)) {
    return usage("a pad or fill contrast needs 'aligned': a power of two");
  }
  if (w.contrast == LogContrast::kFile && w.unaligned_file == w.aligned_file) {
    return usage("a file contrast needs two different file states");
  }
  return Ok{};
}

}  // namespace alignbench
