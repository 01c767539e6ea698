#include "bench/subcommands.h"

#include <iostream>

#include "lib/env/probe.h"
#include "lib/report/compare.h"
#include "lib/report/json.h"
#include "lib/report/table.h"

namespace alignbench {
namespace {

Error Usage(const std::string& what) {
  return PlainError(ErrorKind::kUsage, "command line", what);
}

template <typename T>
void Line(const char* name, const std::optional<T>& value) {
  std::cout << "  " << name << ": ";
  if (value) {
    std::cout << *value << "\n";
  } else {
    std::cout << "unknown\n";
  }
}

}  // namespace

int ReportError(const Error& error) {
  std::cerr << "alignbench: error: " << error.Message() << "\n";
  if (error.kind == ErrorKind::kUsage)
    std::cerr << "Try 'alignbench --help'.\n";
  return ExitCodeFor(error.kind);
}

int EnvCommand(const std::vector<std::string>& args) {
  if (args.size() > 1)
    return ReportError(Usage("env takes at most one directory"));
  const TargetInfo t = ProbeTarget(args.empty() ? "." : args[0]);
  if (!t.real_dir) {
    return ReportError(
        SystemError(ErrorKind::kSetup, "resolve", t.dir, ENOENT));
  }
  std::cout << TargetLine(t) << "\nhost\n";
  Line("hostname", t.host.hostname);
  Line("kernel", t.host.kernel);
  Line("distribution", t.host.distribution);
  Line("cpu", t.host.cpu_model);
  Line("cpus", t.host.cpus);
  Line("memory bytes", t.host.memory_bytes);
  std::cout << "filesystem\n";
  Line("directory", t.real_dir);
  Line("type", t.fs_type);
  Line("mount point", t.mount_point);
  Line("mount source", t.mount_source);
  Line("mount options", t.mount_options);
  Line("direct I/O offset alignment (statx)", t.dio_offset_align);
  Line("direct I/O memory alignment (statx)", t.dio_mem_align);
  if (!t.device) {
    std::cout << "device\n  " << t.no_device_reason << "\n";
    return 0;
  }
  const DeviceInfo& d = *t.device;
  std::cout << "device\n  disk: " << d.disk << "\n";
  Line("partition", d.partition);
  Line("loop backing file", d.backing_file);
  Line("model", d.model);
  Line("vendor", d.vendor);
  Line("rotational", d.rotational);
  Line("logical block bytes", d.logical_block_bytes);
  Line("physical block bytes", d.physical_block_bytes);
  Line("minimum I/O bytes", d.minimum_io_bytes);
  Line("optimal I/O bytes", d.optimal_io_bytes);
  Line("write cache", d.write_cache);
  Line("fua", d.fua);
  Line("scheduler", d.scheduler);
  return 0;
}

int ShowCommand(const std::vector<std::string>& args) {
  std::optional<std::string> file;
  Format format = Format::kTable;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format" || args[i].rfind("--format=", 0) == 0) {
      std::string name;
      if (args[i] == "--format") {
        if (i + 1 == args.size())
          return ReportError(Usage("--format needs a value"));
        name = args[++i];
      } else {
        name = args[i].substr(9);
      }
      auto parsed = FromName(kFormats, name);
      if (!parsed) {
        return ReportError(Usage("unknown format '" + name + "' (expected " +
                                 NameList(kFormats) + ")"));
      }
      format = *parsed;
    } else if (!file && args[i].rfind("-", 0) != 0) {
      file = args[i];
    } else {
      return ReportError(
          Usage("show takes one FILE and --format; got '" + args[i] + "'"));
    }
  }
  if (!file) return ReportError(Usage("show needs a result FILE"));
  Result<Report> report = LoadResultFile(*file);
  if (!report) return ReportError(report.error());
  Render(std::cout, report.value(), format);
  return 0;
}

int CompareCommand(const std::vector<std::string>& args) {
  if (args.size() != 2)
    return ReportError(Usage("compare needs two result files: BASE NEW"));
  Result<Report> base = LoadResultFile(args[0]);
  if (!base) return ReportError(base.error());
  Result<Report> next = LoadResultFile(args[1]);
  if (!next) return ReportError(next.error());
  RenderComparison(std::cout, base.value(), next.value());
  return 0;
}

}  // namespace alignbench
