#include "lib/result/env_fields.h"

#include <limits>
#include <optional>
#include <type_traits>

namespace alignbench {
namespace {

template <typename M>
struct MemberTraits;
template <typename C, typename T>
struct MemberTraits<T C::*> {
  using Class = C;
  using Type = T;
};

// The part of a TargetInfo a member belongs to, chosen by a null tag pointer.
const HostInfo* PartOf(const TargetInfo& t, HostInfo*) { return &t.host; }
const TargetInfo* PartOf(const TargetInfo& t, TargetInfo*) { return &t; }
const DeviceInfo* PartOf(const TargetInfo& t, DeviceInfo*) {
  return t.device ? &*t.device : nullptr;
}
HostInfo& MutablePartOf(TargetInfo& t, HostInfo*) { return t.host; }
TargetInfo& MutablePartOf(TargetInfo& t, TargetInfo*) { return t; }
DeviceInfo& MutablePartOf(TargetInfo& t, DeviceInfo*) {
  if (!t.device) t.device.emplace();
  return *t.device;
}

FieldValue ToValue(const std::string& value) { return value; }
template <typename T>
FieldValue ToValue(const std::optional<T>& value) {
  if (!value) return {};
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
    return *value;
  } else {
    return static_cast<std::uint64_t>(*value);
  }
}

bool FromValue(const FieldValue& value, std::string& out) {
  const auto* text = std::get_if<std::string>(&value);
  if (text) out = *text;
  return text != nullptr;
}
template <typename T>
bool FromValue(const FieldValue& value, std::optional<T>& out) {
  if (std::holds_alternative<std::monostate>(value)) {
    out.reset();
    return true;
  }
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
    const auto* known = std::get_if<T>(&value);
    if (known) out = *known;
    return known != nullptr;
  } else {
    const auto* count = std::get_if<std::uint64_t>(&value);
    if (!count || *count > std::numeric_limits<T>::max()) return false;
    out = static_cast<T>(*count);
    return true;
  }
}

template <auto M>
FieldValue Get(const TargetInfo& t) {
  using C = typename MemberTraits<decltype(M)>::Class;
  const C* part = PartOf(t, static_cast<C*>(nullptr));
  return part ? ToValue(part->*M) : FieldValue{};
}

template <auto M>
bool Set(TargetInfo& t, const FieldValue& value) {
  using C = typename MemberTraits<decltype(M)>::Class;
  return FromValue(value, MutablePartOf(t, static_cast<C*>(nullptr)).*M);
}

template <auto M>
EnvField Field(const char* key, const char* label, const char* name,
               Printed printed, Compared compared) {
  using C = typename MemberTraits<decltype(M)>::Class;
  using T = typename MemberTraits<decltype(M)>::Type;
  constexpr bool kRequired = std::is_same_v<T, std::string>;
  using V = std::conditional_t<kRequired, T, typename T::value_type>;
  const EnvSection section = std::is_same_v<C, HostInfo> ? EnvSection::kHost
                             : std::is_same_v<C, TargetInfo>
                                 ? EnvSection::kTarget
                                 : EnvSection::kDevice;
  const FieldKind kind = std::is_same_v<V, std::string> ? FieldKind::kText
                         : std::is_same_v<V, bool>      ? FieldKind::kYesNo
                                                        : FieldKind::kCount;
  return {section,   key,     label,    name,    kind,
          kRequired, printed, compared, &Get<M>, &Set<M>};
}

constexpr Printed kAlways = Printed::kAlways;
constexpr Printed kIfKnown = Printed::kIfKnown;
constexpr Compared kYes = Compared::kYes;
constexpr Compared kNo = Compared::kNo;

std::vector<EnvField> HostFields() {
  return {
      Field<&HostInfo::hostname>("hostname", "hostname", "host", kAlways, kYes),
      Field<&HostInfo::kernel>("kernel", "kernel", "kernel", kAlways, kYes),
      Field<&HostInfo::distribution>("distribution", "distribution",
                                     "distribution", kAlways, kNo),
      Field<&HostInfo::cpu_model>("cpu_model", "cpu", "cpu", kAlways, kNo),
      Field<&HostInfo::cpus>("cpus", "cpus", "cpus", kAlways, kNo),
      Field<&HostInfo::memory_bytes>("memory_bytes", "memory bytes",
                                     "memory bytes", kAlways, kNo),
      Field<&HostInfo::page_bytes>("page_bytes", "page bytes", "page bytes",
                                   kAlways, kYes),
  };
}

std::vector<EnvField> TargetFields() {
  return {
      Field<&TargetInfo::dir>("dir", "directory as given", "directory",
                              Printed::kNever, kNo),
      Field<&TargetInfo::real_dir>("real_dir", "directory", "real directory",
                                   kAlways, kNo),
      Field<&TargetInfo::fs_type>("fs_type", "type", "filesystem", kAlways,
                                  kYes),
      Field<&TargetInfo::mount_point>("mount_point", "mount point",
                                      "mount point", kAlways, kNo),
      Field<&TargetInfo::mount_source>("mount_source", "mount source",
                                       "mount source", kAlways, kNo),
      Field<&TargetInfo::mount_options>("mount_options", "mount options",
                                        "mount options", kAlways, kYes),
      Field<&TargetInfo::sync_effect>("sync_effect", "what a sync does",
                                      "what a sync does", kIfKnown, kYes),
      Field<&TargetInfo::dio_offset_align>(
          "dio_offset_align_bytes", "direct I/O offset alignment (statx)",
          "direct I/O offset alignment", kAlways, kYes),
      Field<&TargetInfo::dio_mem_align>(
          "dio_mem_align_bytes", "direct I/O memory alignment (statx)",
          "direct I/O memory alignment", kAlways, kNo),
      Field<&TargetInfo::atomic_write_unit_min>(
          "atomic_write_unit_min_bytes",
          "atomic write unit min (statx, 0: none)", "atomic write unit min",
          kIfKnown, kYes),
      Field<&TargetInfo::atomic_write_unit_max>(
          "atomic_write_unit_max_bytes",
          "atomic write unit max (statx, 0: none)", "atomic write unit max",
          kIfKnown, kYes),
      Field<&TargetInfo::atomic_write_segments_max>(
          "atomic_write_segments_max", "atomic write segments max (statx)",
          "atomic write segments", kIfKnown, kNo),
      Field<&TargetInfo::fs_block_bytes>(
          "fs_block_bytes", "filesystem block bytes (statfs f_bsize)",
          "filesystem block bytes", kAlways, kYes),
      Field<&TargetInfo::fs_fragment_bytes>(
          "fs_fragment_bytes", "filesystem fragment bytes (statfs f_frsize)",
          "filesystem fragment bytes", kAlways, kNo),
      Field<&TargetInfo::ext4_bigalloc>("ext4_bigalloc", "ext4 bigalloc",
                                        "ext4 bigalloc", kIfKnown, kYes),
      Field<&TargetInfo::ext4_cluster_bytes>(
          "ext4_cluster_bytes", "ext4 cluster bytes (superblock)",
          "ext4 cluster bytes", kIfKnown, kYes),
      Field<&TargetInfo::xfs_sunit_bytes>(
          "xfs_sunit_bytes", "xfs stripe unit bytes (0: none)",
          "xfs stripe unit bytes", kIfKnown, kYes),
      Field<&TargetInfo::xfs_swidth_bytes>(
          "xfs_swidth_bytes", "xfs stripe width bytes (0: none)",
          "xfs stripe width bytes", kIfKnown, kYes),
      Field<&TargetInfo::btrfs_sectorsize_bytes>(
          "btrfs_sectorsize_bytes", "btrfs sectorsize bytes",
          "btrfs sectorsize bytes", kIfKnown, kYes),
      Field<&TargetInfo::btrfs_nodesize_bytes>(
          "btrfs_nodesize_bytes", "btrfs nodesize bytes",
          "btrfs nodesize bytes", kIfKnown, kYes),
      Field<&TargetInfo::off_grid>("off_grid", "OFF GRID", "off grid", kIfKnown,
                                   kYes),
      Field<&TargetInfo::units_unknown>("units_unknown",
                                        "units unknown, and why",
                                        "units unknown", kIfKnown, kNo),
  };
}

std::vector<EnvField> DeviceFields() {
  return {
      Field<&DeviceInfo::disk>("disk", "disk", "disk", kAlways, kYes),
      Field<&DeviceInfo::partition>("partition", "partition", "partition",
                                    kIfKnown, kNo),
      Field<&DeviceInfo::backing_file>("loop_backing_file", "loop backing file",
                                       "loop backing file", kIfKnown, kNo),
      Field<&DeviceInfo::model>("model", "model", "disk model", kAlways, kYes),
      Field<&DeviceInfo::vendor>("vendor", "vendor", "disk vendor", kAlways,
                                 kNo),
      Field<&DeviceInfo::rotational>("rotational", "rotational", "rotational",
                                     kAlways, kYes),
      Field<&DeviceInfo::logical_block_bytes>(
          "logical_block_bytes", "logical block bytes", "logical sector bytes",
          kAlways, kYes),
      Field<&DeviceInfo::physical_block_bytes>(
          "physical_block_bytes", "physical block bytes",
          "physical sector bytes", kAlways, kYes),
      Field<&DeviceInfo::minimum_io_bytes>("minimum_io_bytes",
                                           "minimum I/O bytes",
                                           "minimum I/O bytes", kAlways, kNo),
      Field<&DeviceInfo::optimal_io_bytes>("optimal_io_bytes",
                                           "optimal I/O bytes",
                                           "optimal I/O bytes", kAlways, kNo),
      Field<&DeviceInfo::alignment_offset_bytes>(
          "alignment_offset_bytes", "alignment offset bytes",
          "alignment offset bytes", kAlways, kYes),
      Field<&DeviceInfo::partition_start_bytes>(
          "partition_start_bytes", "partition start bytes",
          "partition start bytes", kIfKnown, kYes),
      Field<&DeviceInfo::loop_offset_bytes>(
          "loop_offset_bytes", "loop offset bytes", "loop offset bytes",
          kIfKnown, kYes),
      Field<&DeviceInfo::loop_direct_io>("loop_direct_io", "loop direct I/O",
                                         "loop direct I/O", kIfKnown, kYes),
      Field<&DeviceInfo::loop_backing_block_bytes>(
          "loop_backing_block_bytes",
          "loop backing file's filesystem block bytes",
          "loop backing block bytes", kIfKnown, kNo),
      Field<&DeviceInfo::md_chunk_bytes>("md_chunk_bytes", "md chunk bytes",
                                         "md chunk bytes", kIfKnown, kYes),
      Field<&DeviceInfo::md_raid_disks>("md_raid_disks", "md raid disks",
                                        "md raid disks", kIfKnown, kYes),
      Field<&DeviceInfo::dm_name>("dm_name", "dm name", "dm name", kIfKnown,
                                  kNo),
      Field<&DeviceInfo::write_cache>("write_cache", "write cache",
                                      "write cache", kAlways, kYes),
      Field<&DeviceInfo::fua>("fua", "fua", "fua", kAlways, kYes),
      Field<&DeviceInfo::atomic_write_unit_min_bytes>(
          "atomic_write_unit_min_bytes", "atomic write unit min bytes (queue)",
          "device atomic write unit min", kIfKnown, kYes),
      Field<&DeviceInfo::atomic_write_unit_max_bytes>(
          "atomic_write_unit_max_bytes", "atomic write unit max bytes (queue)",
          "device atomic write unit max", kIfKnown, kYes),
      Field<&DeviceInfo::atomic_write_max_bytes>(
          "atomic_write_max_bytes", "atomic write max bytes (queue)",
          "device atomic write max", kIfKnown, kNo),
      Field<&DeviceInfo::atomic_write_boundary_bytes>(
          "atomic_write_boundary_bytes", "atomic write boundary bytes (queue)",
          "device atomic write boundary", kIfKnown, kNo),
      Field<&DeviceInfo::scheduler>("scheduler", "scheduler", "scheduler",
                                    kAlways, kYes),
      Field<&DeviceInfo::stack>("stack", "stacked on", "stacked on", kIfKnown,
                                kYes),
      Field<&DeviceInfo::drive_write_cache>(
          "drive_write_cache_hdparm", "drive write cache (hdparm -W)",
          "drive write cache (hdparm)", kIfKnown, kYes),
  };
}

// Every field, section by section, in the order `env` prints them.
std::vector<EnvField> MakeEnvFields() {
  std::vector<EnvField> fields;
  for (auto section : {HostFields, TargetFields, DeviceFields}) {
    const std::vector<EnvField> rows = section();
    fields.insert(fields.end(), rows.begin(), rows.end());
  }
  return fields;
}

}  // namespace

const std::vector<EnvField>& EnvFields() {
  static const std::vector<EnvField> fields = MakeEnvFields();
  return fields;
}

const char* SectionKey(EnvSection section) {
  switch (section) {
    case EnvSection::kHost:
      return "host";
    case EnvSection::kTarget:
      return "target";
    case EnvSection::kDevice:
      return "device";
  }
  return "?";
}

std::string FieldText(const FieldValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  if (const auto* yes = std::get_if<bool>(&value)) return *yes ? "yes" : "no";
  if (const auto* count = std::get_if<std::uint64_t>(&value)) {
    return std::to_string(*count);
  }
  return "unknown";
}

}  // namespace alignbench
