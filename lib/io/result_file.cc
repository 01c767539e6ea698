#include "lib/io/result_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <random>

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

Status WriteThrough(const std::string& path, const std::string& text,
                    Overwrite overwrite) {
  const std::string temporary = TemporaryName(path);
  const int slot = RegisterForCleanup(temporary);  // Ctrl-C leaves no half file
  UniqueFd fd(::open(temporary.c_str(),
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
  if (written) {
    const unsigned flags =
        overwrite == Overwrite::kRefuse ? RENAME_NOREPLACE : 0;
    if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(),
                    flags) != 0) {
      written = SystemError(ErrorKind::kNotSaved, "rename to " + path,
                            temporary, errno);
    }
  }
  if (!written) ::unlink(temporary.c_str());
  UnregisterCleanup(slot);
  if (written) return written;
  Error error = written.error();  // PwriteAll's errors are of another kind
  error.kind = ErrorKind::kNotSaved;
  return error;
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
                       Overwrite overwrite) {
  SaveOutcome outcome{WriteThrough(path, text, overwrite), std::nullopt};
  if (outcome.status) return outcome;
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string name =
      "alignbench-result-" + std::to_string(::getpid()) + ".json";
  for (const std::string& dir :
       {std::string("."), std::string(tmpdir && *tmpdir ? tmpdir : "/tmp")}) {
    const std::string fallback = dir + "/" + name;
    if (WriteThrough(fallback, text, Overwrite::kRefuse)) {
      outcome.fallback = fallback;
      break;
    }
  }
  Error error = outcome.status.error();
  error.hint = outcome.fallback
                   ? "the measurement is kept in " + *outcome.fallback +
                         "; move it where it was wanted"
                   : "no fallback could be written either (current directory, "
                     "TMPDIR, /tmp)";
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
                        ? out.substr(0, dot) + "." + label + out.substr(dot)
                        : out + "." + label);
  }
  return paths;
}

}  // namespace alignbench
