#include "lib/trace/files_before.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/kcmp.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>

namespace alignbench {
namespace {

// Open flags of an octal "flags:" line of /proc/PID/fdinfo/FD, by name.
std::vector<std::string> FlagNames(unsigned long flags) {
  std::vector<std::string> names;
  switch (flags & O_ACCMODE) {
    case O_RDONLY:
      names.push_back("O_RDONLY");
      break;
    case O_WRONLY:
      names.push_back("O_WRONLY");
      break;
    default:
      names.push_back("O_RDWR");
      break;
  }
  const std::pair<unsigned long, const char*> known[] = {
      {O_APPEND, "O_APPEND"},
      {O_DIRECT, "O_DIRECT"},
      {O_CLOEXEC, "O_CLOEXEC"},
      {O_NOATIME, "O_NOATIME"}};
  for (const auto& [bit, name] : known) {
    if (flags & bit) names.push_back(name);
  }
  // O_SYNC holds O_DSYNC's bit: strace names it alone, and so does this.
  if ((flags & O_SYNC) == O_SYNC) {
    names.push_back("O_SYNC");
  } else if (flags & O_DSYNC) {
    names.push_back("O_DSYNC");
  }
  return names;
}

}  // namespace

std::optional<FileLayout> LayoutBefore(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(fd);
    return std::nullopt;
  }
  FileLayout layout;
  layout.size = static_cast<std::uint64_t>(st.st_size);
  layout.allocated = static_cast<std::uint64_t>(st.st_blocks) * 512;
  constexpr unsigned kExtents = 64;
  std::vector<char> buffer(sizeof(fiemap) + kExtents * sizeof(fiemap_extent));
  auto* map = reinterpret_cast<fiemap*>(buffer.data());
  std::uint64_t at = 0, unwritten = 0, extents = 0;
  for (int rounds = 0; rounds < 4096; ++rounds) {
    std::fill(buffer.begin(), buffer.end(), '\0');
    map->fm_start = at;
    map->fm_length = ~0ull - at;
    map->fm_extent_count = kExtents;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) break;  // tmpfs, NFS: unknown
    bool last = map->fm_mapped_extents == 0;
    for (unsigned i = 0; i < map->fm_mapped_extents; ++i) {
      const fiemap_extent& e = map->fm_extents[i];
      if (e.fe_flags & FIEMAP_EXTENT_UNWRITTEN) unwritten += e.fe_length;
      at = e.fe_logical + e.fe_length;
      ++extents;
      if (e.fe_flags & FIEMAP_EXTENT_LAST) last = true;
    }
    if (last) {
      layout.unwritten = unwritten;
      layout.extents = extents;
      break;
    }
  }
  ::close(fd);
  return layout;
}

std::optional<bool> MostlyUnwritten(const std::string& path) {
  const std::optional<FileLayout> layout = LayoutBefore(path);
  if (!layout || !layout->unwritten) return std::nullopt;
  return 2 * *layout->unwritten > layout->size;
}

namespace {

// What a file that was there before the trace began was: its size, and
// whether it was mostly unwritten extents (preallocated), mostly holes
// (sparse), and its extents, into `options`.
void SizeBefore(const std::string& path, StraceOptions& options) {
  const std::optional<FileLayout> layout = LayoutBefore(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  options.sizes_before[path] = static_cast<std::uint64_t>(st.st_size);
  if (!layout) return;
  if (layout->unwritten && 2 * *layout->unwritten > layout->size) {
    options.unwritten_before.insert(path);
  } else if (2 * layout->allocated < layout->size) {
    options.sparse_before.insert(path);
  }
  if (layout->extents) options.extents_before[path] = *layout->extents;
}

}  // namespace

// `pattern` (absolute) with the part before its first wildcard resolved as
// the kernel names files (symbolic links followed, "." and ".." gone), as
// strace -y prints a descriptor's path: "/tmp/link/../x/*.wal" ->
// "/tmp/x/*.wal". A part that does not exist yet stays as given, its
// nearest existing directory resolved.
std::string Resolved(const std::string& pattern) {
  const std::size_t wild = pattern.find_first_of("*?[");
  const std::size_t cut =
      wild == std::string::npos ? pattern.size() : pattern.rfind('/', wild);
  std::string fixed = pattern.substr(0, cut);
  std::string rest = pattern.substr(cut);
  while (!fixed.empty()) {
    char real[PATH_MAX];
    if (::realpath(fixed.c_str(), real) != nullptr) {
      return (std::string(real) == "/" && !rest.empty() ? "" : real) + rest;
    }
    const std::size_t slash = fixed.rfind('/');
    rest = fixed.substr(slash) + rest;
    fixed.resize(slash);
  }
  return pattern;
}

Result<std::vector<std::string>> AbsoluteGlobs(
    const std::vector<std::string>& given, StraceOptions& options) {
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) {
    return SystemError(ErrorKind::kSetup, "getcwd", "", errno);
  }
  std::vector<std::string> out;
  for (const std::string& g : given) {
    if (g.empty()) {
      Error error = PlainError(ErrorKind::kUsage, "option --file",
                               "an empty pattern matches no file");
      return error;
    }
    const std::string abs =
        Resolved(g[0] == '/' ? g : std::string(cwd) + "/" + g);
    out.push_back(abs);
    glob_t found{};
    if (::glob(abs.c_str(), 0, nullptr, &found) == 0) {
      for (std::size_t i = 0; i < found.gl_pathc; ++i) {
        SizeBefore(found.gl_pathv[i], options);
      }
    }
    ::globfree(&found);
  }
  return out;
}

namespace {

// A descriptor found open before the attach, for the search of descriptors
// that share one open file description.
struct FoundFd {
  pid_t pid;
  int fd;
  std::string path;
  std::string description;
};

// The name of the open file description process `pid`'s descriptor `fd`
// (of `path`) refers to: that of a descriptor found before that refers to
// the same one (kcmp KCMP_FILE: a child forked before the attach holds its
// parent's), else "PID FD".
std::string DescriptionOf(pid_t pid, int fd, const std::string& path,
                          std::vector<FoundFd>& found) {
  for (const FoundFd& f : found) {
    if (f.path == path && f.pid != pid &&
        ::syscall(SYS_kcmp, f.pid, pid, KCMP_FILE, f.fd, fd) == 0) {
      // A copy: the push_back below may move `found`, and `f` with it.
      const std::string description = f.description;
      found.push_back({pid, fd, path, description});
      return description;
    }
  }
  found.push_back(
      {pid, fd, path, std::to_string(pid) + " " + std::to_string(fd)});
  return found.back().description;
}

// Open flags and position from /proc/PID/fdinfo/FD.
StraceOptions::OpenBefore FdInfo(pid_t pid, const std::string& fd) {
  std::ifstream info("/proc/" + std::to_string(pid) + "/fdinfo/" + fd);
  StraceOptions::OpenBefore open;
  std::string key;
  while (info >> key) {
    if (key == "pos:") {
      info >> open.position;
    } else if (key == "flags:") {
      std::string octal;
      info >> octal;
      open.flags = FlagNames(std::strtoul(octal.c_str(), nullptr, 8));
    }
  }
  return open;
}

// Every thread of process `pid` into options.process_of.
void ThreadsOf(pid_t pid, StraceOptions& options) {
  const std::string process = std::to_string(pid);
  options.process_of[process] = process;
  DIR* dir = ::opendir(("/proc/" + process + "/task").c_str());
  if (dir == nullptr) return;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] != '.') options.process_of[entry->d_name] = process;
  }
  ::closedir(dir);
}

}  // namespace

void OpenBefore(const std::vector<pid_t>& pids, StraceOptions& options) {
  std::vector<FoundFd> found;
  for (pid_t pid : pids) {
    ThreadsOf(pid, options);
    const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
    DIR* dir = ::opendir(fds.c_str());
    if (dir == nullptr) continue;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      char target[PATH_MAX];
      const ssize_t n = ::readlink((fds + "/" + entry->d_name).c_str(), target,
                                   sizeof target - 1);
      if (n <= 0) continue;
      const std::string path(target, static_cast<std::size_t>(n));
      if (path == "anon_inode:[io_uring]") options.io_uring_before = true;
      if (path[0] != '/' || !PathSelected(path, options.globs)) continue;
      StraceOptions::OpenBefore open = FdInfo(pid, entry->d_name);
      open.description =
          DescriptionOf(pid, std::atoi(entry->d_name), path, found);
      // By process and descriptor: LMDB's data and meta descriptors of one
      // file differ in O_DSYNC; a child's descriptor of its parent's file
      // has a position of its own.
      options.open_before[std::to_string(pid)]
                         [std::string(entry->d_name) + "<" + path + ">"] = open;
      SizeBefore(path, options);
    }
    ::closedir(dir);
  }
}

}  // namespace alignbench
