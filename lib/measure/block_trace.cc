#include "lib/measure/block_trace.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <utility>

#include "lib/io/cleanup.h"

namespace alignbench {
namespace {

// linux/magic.h's TRACEFS_MAGIC
constexpr long kTracefsMagic = 0x74726163;
// The events, each filtered to the disk.
constexpr const char* kEvents[] = {
    "block/block_bio_queue", "block/block_rq_issue", "block/block_rq_complete"};
// Per CPU: some ten thousand events on each, a run beside a neighbour that
// syncs as fast as it can; a run that loses events has no account.
constexpr const char* kBufferKib = "1024";
// What one Stop() reads at most.
constexpr std::size_t kMaxTraceBytes = std::size_t{256} << 20;

const char* const kMountHint =
    "mount it as root (mount -t tracefs nodev /sys/kernel/tracing) for the "
    "device's requests told apart; the device-wide counters are used";

Error TraceError(std::string operation, const std::string& path, int err) {
  Error error = SystemError(ErrorKind::kSetup, std::move(operation), path, err);
  error.hint = err == ENOENT || err == ENOTDIR ? kMountHint
               : err == EACCES || err == EPERM
                   ? "tracing needs root; the device-wide counters are used"
                   : "the device-wide counters are used";
  return error;
}

// `fd` is on tracefs, or else an error (and the descriptor is closed).
Result<UniqueFd> OnTracefs(UniqueFd fd, const std::string& path) {
  struct statfs fs {};
  if (::fstatfs(fd.get(), &fs) != 0) return TraceError("statfs", path, errno);
  if (fs.f_type != kTracefsMagic) {
    Error error =
        PlainError(ErrorKind::kSetup, "tracefs", path + " is not on tracefs");
    error.hint = kMountHint;
    return error;
  }
  return fd;
}

// Opens `name` under `dir` without following a link, checked to be on
// tracefs.
Result<UniqueFd> OpenAt(int dir, const std::string& name, int flags,
                        const std::string& shown) {
  UniqueFd fd(::openat(dir, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return TraceError("open", shown, errno);
  return OnTracefs(std::move(fd), shown);
}

// "7:0\n" in /sys/block/<disk>/dev... given by the caller as a dev_t: the
// filter's number is the kernel's dev_t, major << 20 | minor.
std::string KernelDev(dev_t disk) {
  return std::to_string((static_cast<unsigned long long>(major(disk)) << 20) |
                        minor(disk));
}

}  // namespace

BlockTrace::BlockTrace(UniqueFd dir, std::string path, int slot)
    : dir_(std::move(dir)), path_(std::move(path)), slot_(slot) {}

BlockTrace::BlockTrace(BlockTrace&& other) noexcept
    : dir_(std::move(other.dir_)),
      path_(std::move(other.path_)),
      slot_(std::exchange(other.slot_, -1)) {}

Result<BlockTrace> BlockTrace::Open(dev_t disk) {
  const std::string base = kTracefsDir;
  Result<UniqueFd> root = OpenAt(AT_FDCWD, base, O_RDONLY | O_DIRECTORY, base);
  if (!root) return root.error();
  const std::string instances = base + "/instances";
  Result<UniqueFd> parent = OpenAt(root.value().get(), "instances",
                                   O_RDONLY | O_DIRECTORY, instances);
  if (!parent) return parent.error();
  const std::string name = "alignbench-" + std::to_string(::getpid());
  const std::string path = instances + "/" + name;
  // EEXIST: someone else's, or a killed run's; never used.
  if (::mkdirat(parent.value().get(), name.c_str(), 0700) != 0)
    return TraceError("mkdir", path, errno);
  const int slot = RegisterForCleanup(path);
  Result<UniqueFd> dir =
      OpenAt(parent.value().get(), name, O_RDONLY | O_DIRECTORY, path);
  if (!dir || slot < 0) {
    ::unlinkat(parent.value().get(), name.c_str(), AT_REMOVEDIR);
    UnregisterCleanup(slot);
    if (!dir) return dir.error();
    return PlainError(ErrorKind::kSetup, "tracefs",
                      "the cleanup registry is full");
  }
  BlockTrace trace(std::move(dir.value()), path, slot);
  const std::string filter = "dev == " + KernelDev(disk);
  Status set = trace.Write("buffer_size_kb", kBufferKib);
  if (set) set = trace.Write("trace_clock", "mono");
  if (set) set = trace.Write("options/record-tgid", "1");
  for (const char* event : kEvents) {
    if (set)
      set = trace.Write((std::string("events/") + event + "/filter").c_str(),
                        filter);
  }
  if (!set) return set.error();
  return trace;
}

Result<BlockTrace> BlockTrace::OpenDisk(const std::string& disk) {
  const std::string path = "/sys/block/" + disk + "/dev";
  unsigned int major_number = 0, minor_number = 0;
  FILE* file = std::fopen(path.c_str(), "re");
  if (file == nullptr) return TraceError("open", path, errno);
  const int got = std::fscanf(file, "%u:%u", &major_number, &minor_number);
  std::fclose(file);
  if (got != 2) {
    return PlainError(ErrorKind::kSetup, "read " + path, "not MAJOR:MINOR");
  }
  return Open(makedev(major_number, minor_number));
}

BlockTrace::~BlockTrace() {
  if (!dir_.valid()) return;
  for (const char* event : kEvents) {
    (void)Write((std::string("events/") + event + "/enable").c_str(), "0");
  }
  dir_.Reset();
  ::rmdir(path_.c_str());
  UnregisterCleanup(slot_);
}

Status BlockTrace::Write(const char* file, const std::string& text) const {
  const std::string shown = path_ + "/" + file;
  Result<UniqueFd> fd = OpenAt(dir_.get(), file, O_WRONLY | O_TRUNC, shown);
  if (!fd) return fd.error();
  if (!text.empty() && ::write(fd.value().get(), text.data(), text.size()) !=
                           static_cast<ssize_t>(text.size())) {
    return TraceError("write", shown, errno);
  }
  return Ok{};
}

Status BlockTrace::Start() {
  // Opened for writing with O_TRUNC, "trace" empties the ring.
  Status set = Write("trace", "");
  for (const char* event : kEvents) {
    if (set)
      set = Write((std::string("events/") + event + "/enable").c_str(), "1");
  }
  return set;
}

Result<ParsedTrace> BlockTrace::Stop() {
  Status set = Ok{};
  for (const char* event : kEvents) {
    Status one =
        Write((std::string("events/") + event + "/enable").c_str(), "0");
    if (set && !one) set = one;
  }
  if (!set) return set.error();
  const std::string shown = path_ + "/trace";
  Result<UniqueFd> fd = OpenAt(dir_.get(), "trace", O_RDONLY, shown);
  if (!fd) return fd.error();
  std::string text;
  char buffer[65536];
  while (text.size() < kMaxTraceBytes) {
    const ssize_t got = ::read(fd.value().get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return TraceError("read", shown, errno);
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ParsedTrace parsed = ParseTrace(text);
  parsed.lost = parsed.lost || text.size() >= kMaxTraceBytes;
  return parsed;
}

}  // namespace alignbench
