#include "lib/io/result_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <random>
#include <utility>

#include "lib/io/cleanup.h"
#include "lib/io/fd.h"
#include "lib/io/file_io.h"

namespace alignbench {
namespace {

// Beside the result, so that rename(2) stays within one filesystem; random, so
// that a leftover of an earlier process with the same pid (PID 1 in a
// container) is never in the way.
std::string TemporaryName(const std::string& path) {
  static const std::uint64_t salt = std::random_device{}();
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".tmp-%d-%08llx",
                static_cast<int>(::getpid()),
                static_cast<unsigned long long>(salt & 0xffffffff));
  return path + suffix;
}

Error OutError(const std::string& path, int err, std::string hint) {
  Error error = SystemError(ErrorKind::kSetup, "--out", path, err);
  error.hint = std::move(hint);
  return error;
}

// What --out may not be, at the start and at the end alike: only a regular
// file is ever replaced. Empty when `st` is acceptable.
std::string RefusedKind(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  return "";
}

Error ReplacedMeanwhile(const std::string& path, const std::string& kind) {
  Error error = PlainError(ErrorKind::kNotSaved, "rename to " + path,
                           "became " + kind + " while measuring; not replaced");
  error.hint = "--force replaces only a regular file";
  return error;
}

// `path` split into its directory and last name, for the *at calls: the
// check and the rename then act on the same directory even if a parent is
// renamed meanwhile.
std::pair<std::string, std::string> SplitPath(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// After RENAME_EXCHANGE put the result at `path`: what was there, now at the
// temporary name, is removed if it was a result file, else swapped back.
Status AfterExchange(int d, const std::string& temporary,
                     const std::string& path) {
  const std::string name = SplitPath(path).second;
  const std::string temp_name = SplitPath(temporary).second;
  struct stat old {};
  if (::fstatat(d, temp_name.c_str(), &old, AT_SYMLINK_NOFOLLOW) != 0) {
    return Ok{};  // the old entry is already gone
  }
  const std::string kind = RefusedKind(old);
  if (kind.empty()) {
    ::unlinkat(d, temp_name.c_str(), 0);  // the replaced result
    return Ok{};
  }
  // Back as it was: the FIFO (device, link) at `path`, ours at the temporary
  // name, which the caller removes.
  if (::renameat2(d, temp_name.c_str(), d, name.c_str(), RENAME_EXCHANGE) !=
      0) {
    Error error = SystemError(ErrorKind::kNotSaved, "rename to " + path,
                              temporary, errno);
    error.hint = path + " was " + kind + "; it is now kept at " + temporary +
                 " and the result at " + path;
    return error;
  }
  return ReplacedMeanwhile(path, kind);
}

// Moves the finished temporary file onto `path`. With kReplace the old entry
// is swapped out atomically (RENAME_EXCHANGE) and only then looked at, so
// nothing can take its place between the look and the rename; what may not be
// replaced is swapped back. A filesystem without RENAME_EXCHANGE gets an
// fstatat then a rename, and between the two a FIFO, device or link could
// still be put in its place.
Status PlaceResult(int d, const std::string& temporary, const std::string& path,
                   Overwrite overwrite) {
  const std::string name = SplitPath(path).second;
  const std::string temp_name = SplitPath(temporary).second;
  auto rename_error = [&](int err) {
    return SystemError(ErrorKind::kNotSaved, "rename to " + path, temporary,
                       err);
  };
  if (overwrite == Overwrite::kRefuse) {
    if (::renameat2(d, temp_name.c_str(), d, name.c_str(), RENAME_NOREPLACE) !=
        0) {
      return rename_error(errno);
    }
    return Ok{};
  }
  // Nothing there: take the name, but never over something that appeared
  // since; then the exchange again, a few times at most.
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (::renameat2(d, temp_name.c_str(), d, name.c_str(), RENAME_EXCHANGE) ==
        0) {
      return AfterExchange(d, temporary, path);
    }
    if (errno == ENOENT) {
      if (::renameat2(d, temp_name.c_str(), d, name.c_str(),
                      RENAME_NOREPLACE) == 0) {
        return Ok{};
      }
      if (errno == EEXIST) continue;
      return rename_error(errno);
    }
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) {
      return rename_error(errno);
    }
    // No RENAME_EXCHANGE here: check, then rename (the window said above).
    struct stat old {};
    if (::fstatat(d, name.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0) {
      if (const std::string kind = RefusedKind(old); !kind.empty()) {
        return ReplacedMeanwhile(path, kind);
      }
    }
    if (::renameat(d, temp_name.c_str(), d, name.c_str()) != 0) {
      return rename_error(errno);
    }
    return Ok{};
  }
  return rename_error(EEXIST);
}

}  // namespace

Status WriteResultFile(const std::string& path, const std::string& text,
                       Overwrite overwrite) {
  const std::string temporary = TemporaryName(path);
  // One descriptor of the directory for the temporary file, the check and the
  // rename: a parent renamed or replaced meanwhile cannot split them.
  UniqueFd dirfd(
      ::open(SplitPath(path).first.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dirfd.valid()) {
    return SystemError(ErrorKind::kNotSaved, "open the directory of", path,
                       errno);
  }
  const std::string temp_name = SplitPath(temporary).second;
  const int slot = RegisterForCleanup(temporary);  // Ctrl-C leaves no half file
  UniqueFd fd(::openat(dirfd.get(), temp_name.c_str(),
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0644));
  if (!fd.valid()) {
    const int saved = errno;
    UnregisterCleanup(slot);
    return SystemError(ErrorKind::kNotSaved, "create", temporary, saved);
  }
  Status written = PwriteAll(fd.get(), text.data(), text.size(), 0, temporary);
  if (written && ::fsync(fd.get()) != 0) {
    written = SystemError(ErrorKind::kNotSaved, "fsync", temporary, errno);
  }
  fd.Reset();
  if (written) written = PlaceResult(dirfd.get(), temporary, path, overwrite);
  if (!written) ::unlinkat(dirfd.get(), temp_name.c_str(), 0);
  UnregisterCleanup(slot);
  if (written) return written;
  Error error = written.error();  // PwriteAll's errors are of another kind
  error.kind = ErrorKind::kNotSaved;
  return error;
}

namespace {

// Every place the fallback may go, each by absolute path: the current
// directory, then $TMPDIR, then /tmp (all of them; a TMPDIR that cannot be
// written must not cost the measurement).
std::vector<std::string> FallbackDirs() {
  std::vector<std::string> dirs;
  char cwd[PATH_MAX];
  const bool have_cwd = ::getcwd(cwd, sizeof cwd) != nullptr;
  if (have_cwd) dirs.push_back(cwd);
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir != nullptr && *tmpdir != '\0') {
    std::string dir = tmpdir;
    if (dir[0] != '/' && have_cwd) dir = std::string(cwd) + "/" + dir;
    if (dir[0] == '/') dirs.push_back(dir);
  }
  dirs.push_back("/tmp");
  std::vector<std::string> unique;
  for (const std::string& dir : dirs) {
    if (std::find(unique.begin(), unique.end(), dir) == unique.end()) {
      unique.push_back(dir);
    }
  }
  return unique;
}

// A fallback's name: the kind, the pid and 64 random bits, so that nobody
// sharing the directory can put something there first (a planted file would
// only make RENAME_NOREPLACE refuse it, and the measurement be lost).
std::string FallbackName(const std::string& what) {
  std::random_device random;
  const std::uint64_t bits =
      (static_cast<std::uint64_t>(random()) << 32) | random();
  char name[96];
  std::snprintf(name, sizeof name, "alignbench-%s-%d-%016llx.json",
                what.c_str(), static_cast<int>(::getpid()),
                static_cast<unsigned long long>(bits));
  return name;
}

}  // namespace

Status CheckResultPath(const std::string& path, Overwrite overwrite,
                       const std::vector<std::string>& inputs) {
  if (path.empty()) {
    return PlainError(ErrorKind::kUsage, "option --out", "needs a file name");
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      return OutError(path, ELOOP,
                      "is a symbolic link; give the file's real path");
    }
    if (!S_ISREG(st.st_mode)) {
      return OutError(path, S_ISDIR(st.st_mode) ? EISDIR : EEXIST,
                      "is not a regular file; alignbench writes results only "
                      "to a new file or, with --force, over a regular one");
    }
    for (const std::string& input : inputs) {
      struct stat in {};
      if (::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev &&
          in.st_ino == st.st_ino) {
        return OutError(path, EEXIST,
                        "is the case file being run; choose another name");
      }
    }
    if (overwrite == Overwrite::kRefuse) {
      return OutError(
          path, EEXIST,
          "exists; choose a new name, or add --force to replace it");
    }
  } else if (errno != ENOENT) {
    return OutError(path, errno, "");
  }
  // The real temporary file, created and removed: whatever would refuse it
  // at the end refuses it now, before anything is measured.
  const std::string temporary = TemporaryName(path);
  UniqueFd fd(::open(temporary.c_str(),
                     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     0644));
  if (!fd.valid()) {
    return OutError(path, errno,
                    "the result is written through " + temporary +
                        " first; its directory must exist and be writable");
  }
  fd.Reset();
  ::unlink(temporary.c_str());
  return Ok{};
}

SaveOutcome SaveResult(const std::string& path, const std::string& text,
                       Overwrite overwrite, const std::string& what,
                       const std::string& keeps) {
  SaveOutcome outcome{WriteResultFile(path, text, overwrite), std::nullopt};
  if (outcome.status) return outcome;
  std::string tried;
  for (const std::string& dir : FallbackDirs()) {
    const std::string fallback =
        (dir == "/" ? "" : dir) + "/" + FallbackName(what);
    if (WriteResultFile(fallback, text, Overwrite::kRefuse)) {
      outcome.fallback = fallback;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + fallback;
  }
  Error error = outcome.status.error();
  error.hint =
      outcome.fallback
          ? keeps + " is kept in " + *outcome.fallback +
                "; move it where it was wanted"
          : "no fallback could be written either (tried " + tried + ")";
  outcome.status = error;
  return outcome;
}

namespace {

// The last name of `dir`, with anything but letters, digits, '.', '-' and '_'
// made '_'; empty for "/" or "".
std::string DirLabel(const std::string& dir) {
  std::string name = dir;
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  name = name.substr(name.find_last_of('/') + 1);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' &&
        c != '_') {
      c = '_';
    }
  }
  return name == "." || name == ".." ? "" : name;
}

}  // namespace

std::vector<std::string> ResultPaths(const std::string& out,
                                     const std::vector<std::string>& dirs) {
  if (dirs.size() <= 1) return {out};
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    std::string label = DirLabel(dirs[i]);
    if (label.empty() ||
        std::find(labels.begin(), labels.end(), label) != labels.end()) {
      label =
          "dir" + std::to_string(i + 1) + (label.empty() ? "" : "-" + label);
    }
    labels.push_back(label);
  }
  const std::size_t slash = out.find_last_of('/');
  const std::size_t dot = out.find_last_of('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  std::vector<std::string> paths;
  for (const std::string& label : labels) {
    paths.push_back(has_extension
                        ? out.substr(0, dot) + "-in-" + label + out.substr(dot)
                        : out + "-in-" + label);
  }
  return paths;
}

}  // namespace alignbench
