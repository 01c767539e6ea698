#include "lib/report/json.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "lib/io/fd.h"
#include "lib/io/file_io.h"

namespace alignbench {
namespace {

using nlohmann::json;

template <typename T>
void Put(json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}
template <typename T>
void Get(const json& j, const char* key, std::optional<T>& value) {
  if (j.contains(key) && !j.at(key).is_null()) value = j.at(key).get<T>();
}

template <typename E, std::size_t N>
json NameArray(const Named<E> (&table)[N], const std::vector<E>& values) {
  json list = json::array();
  for (E value : values) list.push_back(NameOf(table, value));
  return list;
}
template <typename E, std::size_t N>
E ParseName(const Named<E> (&table)[N], const json& value) {
  auto parsed = FromName(table, value.get<std::string>());
  if (!parsed)
    throw std::invalid_argument("unknown value '" + value.get<std::string>() +
                                "'");
  return *parsed;
}
template <typename E, std::size_t N>
std::vector<E> ParseNames(const Named<E> (&table)[N], const json& list) {
  std::vector<E> values;
  for (const json& item : list) values.push_back(ParseName(table, item));
  return values;
}

// Unknown statistics (NaN: a reference table printed only the mean) are left
// out.
json SummaryJson(const Summary& s) {
  json j = {{"count", s.count}};
  const std::pair<const char*, double> fields[] = {
      {"mean_ns", s.mean}, {"stddev_ns", s.stddev}, {"min_ns", s.min},
      {"p50_ns", s.p50},   {"p90_ns", s.p90},       {"p99_ns", s.p99},
      {"max_ns", s.max}};
  for (const auto& [key, value] : fields) {
    if (std::isfinite(value)) j[key] = value;
  }
  return j;
}
Summary SummaryFrom(const json& j) {
  const double unknown = std::nan("");
  Summary s;
  s.count = j.at("count").get<std::size_t>();
  s.mean = j.at("mean_ns").get<double>();
  s.stddev = j.value("stddev_ns", unknown);
  s.min = j.value("min_ns", unknown);
  s.p50 = j.value("p50_ns", unknown);
  s.p90 = j.value("p90_ns", unknown);
  s.p99 = j.value("p99_ns", unknown);
  s.max = j.value("max_ns", unknown);
  return s;
}

json VariantJson(const VariantResult& v) {
  json j = {{"repetitions", v.repetitions}, {"staged", v.staged}};
  if (v.repetitions > 0) {
    j["write_sync"] = SummaryJson(v.total_ns);
    // A reference table knows only write+sync; its split is unknown, hence
    // absent.
    if (std::isfinite(v.write_ns.mean)) j["write"] = SummaryJson(v.write_ns);
    if (std::isfinite(v.sync_ns.mean)) j["sync"] = SummaryJson(v.sync_ns);
  }
  if (v.device) {
    j["device_per_write"] = {{"reads", v.device->reads},
                             {"read_kib", v.device->kib_read},
                             {"writes", v.device->writes},
                             {"written_kib", v.device->kib_written},
                             {"flushes", v.device->flushes}};
  }
  if (v.process) {
    j["process_per_write"] = {{"read_bytes", v.process->read_bytes},
                              {"write_bytes", v.process->write_bytes}};
  }
  Put(j, "resident_pages_after_drop", v.resident_pages_after_drop);
  if (v.error) {
    j["error"] = {{"message", *v.error}};
    if (v.error_errno != 0) {
      j["error"]["errno"] = v.error_errno;
      j["error"]["errno_name"] = ErrnoName(v.error_errno);
    }
  }
  return j;
}
VariantResult VariantFrom(const json& j) {
  VariantResult v;
  v.repetitions = j.at("repetitions").get<std::size_t>();
  v.staged = j.at("staged").get<bool>();
  if (v.repetitions > 0) {
    v.total_ns = SummaryFrom(j.at("write_sync"));
    v.write_ns =
        j.contains("write") ? SummaryFrom(j.at("write")) : Summarize({});
    v.sync_ns = j.contains("sync") ? SummaryFrom(j.at("sync")) : Summarize({});
  }
  if (j.contains("device_per_write")) {
    const json& d = j.at("device_per_write");
    v.device = DevicePerOp{
        d.at("reads").get<double>(), d.at("read_kib").get<double>(),
        d.at("writes").get<double>(), d.at("written_kib").get<double>(),
        d.at("flushes").get<double>()};
  }
  if (j.contains("process_per_write")) {
    const json& p = j.at("process_per_write");
    v.process = ProcessPerOp{p.at("read_bytes").get<double>(),
                             p.at("write_bytes").get<double>()};
  }
  Get(j, "resident_pages_after_drop", v.resident_pages_after_drop);
  if (j.contains("error")) {
    v.error = j.at("error").at("message").get<std::string>();
    v.error_errno = j.at("error").value("errno", 0);
  }
  return v;
}

json PairJson(const PairResult& p) {
  json j = {{"size_bytes", p.spec.size},
            {"sync", NameOf(kSyncMethods, p.spec.sync)},
            {"io", NameOf(kIoModes, p.spec.io)},
            {"layout", NameOf(kLayouts, p.spec.layout)},
            {"cache", NameOf(kCacheStates, p.spec.cache)},
            {"unaligned", VariantJson(p.unaligned)},
            {"aligned", VariantJson(p.aligned)},
            {"explanation", p.explanation}};
  Put(j, "gain_pct", p.gain_pct);
  Put(j, "median_gain_pct", p.median_gain_pct);
  if (p.gain_interval) {
    j["gain_interval_pct"] = {
        {"low", p.gain_interval->low},
        {"high", p.gain_interval->high},
        {"confidence", 0.95},
        {"method",
         std::min(p.unaligned.repetitions, p.aligned.repetitions) < 2
             ? "Welch t interval of the ratio of means over single writes (one "
               "repetition: run-to-run drift not included)"
             : "Welch t interval of the ratio of means over repetition means "
               "(delta method)"}};
  }
  Put(j, "p_value", p.p_value);
  if (p.verdict) j["verdict"] = VerdictName(*p.verdict);
  return j;
}
PairResult PairFrom(const json& j) {
  PairResult p;
  p.spec.size = j.at("size_bytes").get<std::uint64_t>();
  p.spec.sync = ParseName(kSyncMethods, j.at("sync"));
  p.spec.io = ParseName(kIoModes, j.at("io"));
  p.spec.layout = ParseName(kLayouts, j.at("layout"));
  p.spec.cache = ParseName(kCacheStates, j.at("cache"));
  p.unaligned = VariantFrom(j.at("unaligned"));
  p.aligned = VariantFrom(j.at("aligned"));
  p.explanation = j.value("explanation", "");
  Get(j, "gain_pct", p.gain_pct);
  Get(j, "median_gain_pct", p.median_gain_pct);
  if (j.contains("gain_interval_pct")) {
    const json& i = j.at("gain_interval_pct");
    p.gain_interval =
        Interval{i.at("low").get<double>(), i.at("high").get<double>()};
  }
  Get(j, "p_value", p.p_value);
  if (j.contains("verdict")) {
    const std::string name = j.at("verdict").get<std::string>();
    for (Verdict v : {Verdict::kAlignedFaster, Verdict::kShiftedFaster,
                      Verdict::kNoSignificantDifference}) {
      if (VerdictName(v) == name) p.verdict = v;
    }
  }
  return p;
}

json SettingsJson(const Settings& s) {
  json j = {{"dir", s.dir},
            {"sizes_bytes", s.sizes},
            {"shift_bytes", s.shift},
            {"writes", s.writes},
            {"warmup_writes", s.warmup},
            {"repetitions", s.repetitions},
            {"sync", NameArray(kSyncMethods, s.axes.syncs)},
            {"io", NameArray(kIoModes, s.axes.ios)},
            {"layout", NameArray(kLayouts, s.axes.layouts)},
            {"cache", NameArray(kCacheStates, s.axes.caches)},
            {"direct_unaligned", NameOf(kDirectUnaligned, s.direct_unaligned)}};
  if (!s.case_name.empty()) {
    j["case"] = {{"name", s.case_name},
                 {"description", s.case_description},
                 {"expect", s.case_expect}};
  }
  return j;
}
Settings SettingsFrom(const json& j) {
  Settings s;
  s.dir = j.at("dir").get<std::string>();
  s.sizes = j.at("sizes_bytes").get<std::vector<std::uint64_t>>();
  s.shift = j.at("shift_bytes").get<std::uint64_t>();
  s.writes = j.at("writes").get<std::uint64_t>();
  s.warmup = j.value("warmup_writes", std::uint64_t{0});
  s.repetitions = j.at("repetitions").get<std::uint64_t>();
  s.axes.syncs = ParseNames(kSyncMethods, j.at("sync"));
  s.axes.ios = ParseNames(kIoModes, j.at("io"));
  s.axes.layouts = ParseNames(kLayouts, j.at("layout"));
  s.axes.caches = ParseNames(kCacheStates, j.at("cache"));
  s.direct_unaligned = ParseName(kDirectUnaligned, j.at("direct_unaligned"));
  if (j.contains("case")) {
    const json& c = j.at("case");
    s.case_name = c.value("name", "");
    s.case_description = c.value("description", "");
    s.case_expect = c.value("expect", "");
  }
  return s;
}

json DeviceJson(const DeviceInfo& d) {
  json j = {{"disk", d.disk}};
  Put(j, "partition", d.partition);
  Put(j, "loop_backing_file", d.backing_file);
  Put(j, "model", d.model);
  Put(j, "vendor", d.vendor);
  Put(j, "rotational", d.rotational);
  Put(j, "logical_block_bytes", d.logical_block_bytes);
  Put(j, "physical_block_bytes", d.physical_block_bytes);
  Put(j, "minimum_io_bytes", d.minimum_io_bytes);
  Put(j, "optimal_io_bytes", d.optimal_io_bytes);
  Put(j, "write_cache", d.write_cache);
  Put(j, "fua", d.fua);
  Put(j, "scheduler", d.scheduler);
  return j;
}
DeviceInfo DeviceFrom(const json& j) {
  DeviceInfo d;
  d.disk = j.at("disk").get<std::string>();
  Get(j, "partition", d.partition);
  Get(j, "loop_backing_file", d.backing_file);
  Get(j, "model", d.model);
  Get(j, "vendor", d.vendor);
  Get(j, "rotational", d.rotational);
  Get(j, "logical_block_bytes", d.logical_block_bytes);
  Get(j, "physical_block_bytes", d.physical_block_bytes);
  Get(j, "minimum_io_bytes", d.minimum_io_bytes);
  Get(j, "optimal_io_bytes", d.optimal_io_bytes);
  Get(j, "write_cache", d.write_cache);
  Get(j, "fua", d.fua);
  Get(j, "scheduler", d.scheduler);
  return d;
}

json EnvironmentJson(const TargetInfo& t) {
  json host = json::object();
  Put(host, "hostname", t.host.hostname);
  Put(host, "kernel", t.host.kernel);
  Put(host, "distribution", t.host.distribution);
  Put(host, "cpu_model", t.host.cpu_model);
  Put(host, "cpus", t.host.cpus);
  Put(host, "memory_bytes", t.host.memory_bytes);
  json target = {{"dir", t.dir}};
  Put(target, "real_dir", t.real_dir);
  Put(target, "fs_type", t.fs_type);
  Put(target, "mount_point", t.mount_point);
  Put(target, "mount_source", t.mount_source);
  Put(target, "mount_options", t.mount_options);
  Put(target, "dio_offset_align_bytes", t.dio_offset_align);
  Put(target, "dio_mem_align_bytes", t.dio_mem_align);
  if (t.device) {
    target["device"] = DeviceJson(*t.device);
  } else {
    target["device"] = nullptr;
    target["device_unavailable_reason"] = t.no_device_reason;
  }
  return {{"host", host}, {"target", target}};
}
TargetInfo EnvironmentFrom(const json& j) {
  TargetInfo t;
  const json& host = j.at("host");
  Get(host, "hostname", t.host.hostname);
  Get(host, "kernel", t.host.kernel);
  Get(host, "distribution", t.host.distribution);
  Get(host, "cpu_model", t.host.cpu_model);
  Get(host, "cpus", t.host.cpus);
  Get(host, "memory_bytes", t.host.memory_bytes);
  const json& target = j.at("target");
  t.dir = target.at("dir").get<std::string>();
  Get(target, "real_dir", t.real_dir);
  Get(target, "fs_type", t.fs_type);
  Get(target, "mount_point", t.mount_point);
  Get(target, "mount_source", t.mount_source);
  Get(target, "mount_options", t.mount_options);
  Get(target, "dio_offset_align_bytes", t.dio_offset_align);
  Get(target, "dio_mem_align_bytes", t.dio_mem_align);
  if (target.contains("device") && !target.at("device").is_null()) {
    t.device = DeviceFrom(target.at("device"));
  }
  t.no_device_reason = target.value("device_unavailable_reason", "");
  return t;
}

}  // namespace

json ToJson(const Report& r) {
  json pairs = json::array();
  for (const PairResult& pair : r.pairs) pairs.push_back(PairJson(pair));
  return {{"schema_version", kSchemaVersion},
          {"tool",
           {{"name", "alignbench"},
            {"version", r.tool_version},
            {"git_revision", r.git_revision}}},
          {"command_line", r.command_line},
          {"started_at", r.started_at},
          {"finished_at", r.finished_at},
          {"complete", r.complete},
          {"settings", SettingsJson(r.settings)},
          {"environment", EnvironmentJson(r.target)},
          {"pairs", pairs},
          {"warnings", r.warnings},
          {"errors", r.errors}};
}

Result<Report> FromJson(const json& j, const std::string& origin) {
  try {
    if (!j.is_object())
      throw std::invalid_argument("the alignbench entry is not an object");
    const int version = j.at("schema_version").get<int>();
    if (version > kSchemaVersion) {
      Error error =
          PlainError(ErrorKind::kUsage, "read " + origin,
                     "schema_version " + std::to_string(version) +
                         " is newer than this alignbench understands (" +
                         std::to_string(kSchemaVersion) + ")");
      error.hint = "use a newer alignbench to read it";
      return error;
    }
    Report r;
    r.tool_version = j.at("tool").at("version").get<std::string>();
    r.git_revision = j.at("tool").at("git_revision").get<std::string>();
    r.command_line = j.at("command_line").get<std::vector<std::string>>();
    r.started_at = j.value("started_at", "");
    r.finished_at = j.value("finished_at", "");
    r.complete = j.value("complete", true);
    r.settings = SettingsFrom(j.at("settings"));
    r.target = EnvironmentFrom(j.at("environment"));
    for (const json& pair : j.at("pairs")) r.pairs.push_back(PairFrom(pair));
    r.warnings = j.value("warnings", std::vector<std::string>{});
    r.errors = j.value("errors", std::vector<std::string>{});
    return r;
  } catch (const std::exception& e) {
    return PlainError(ErrorKind::kUsage, "read " + origin,
                      std::string("not an alignbench result: ") + e.what());
  }
}

Result<Report> LoadResultFile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return SystemError(ErrorKind::kUsage, "open result file", path, errno);
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return PlainError(ErrorKind::kUsage, "read " + path, "not valid JSON");
  }
  if (!doc.is_object() || !doc.contains("alignbench")) {
    return PlainError(
        ErrorKind::kUsage, "read " + path,
        "no \"alignbench\" object: not an alignbench result file");
  }
  return FromJson(doc.at("alignbench"), path);
}

Status WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  UniqueFd fd(
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (!fd.valid())
    return SystemError(ErrorKind::kSetup, "create", temporary, errno);
  Status written = PwriteAll(fd.get(), text.data(), text.size(), 0, temporary);
  if (written && ::fsync(fd.get()) != 0) {
    written = SystemError(ErrorKind::kSetup, "fsync", temporary, errno);
  }
  fd.Reset();
  if (written && ::rename(temporary.c_str(), path.c_str()) != 0) {
    written =
        SystemError(ErrorKind::kSetup, "rename to " + path, temporary, errno);
  }
  if (!written) ::unlink(temporary.c_str());
  return written;
}

}  // namespace alignbench
