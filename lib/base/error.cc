#include "lib/base/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace alignbench {
namespace {

// errno -> what it means for the user and how the run ends once measuring has
// begun. Before measuring (Phase::kSetup) every failure exits 2. An errno not
// listed exits 3 while measuring, with no hint.
struct ErrnoAnswer {
  int errno_value;
  ErrorKind while_measuring;
  bool says_run_bytes;
  const char* hint;
};
constexpr ErrnoAnswer kErrnoAnswers[] = {
    {ENOSPC, ErrorKind::kIo, true,
     "the filesystem is full, or the storage under it is (a loop device's "
     "backing file, a thin pool, even when df shows space); free space, or "
     "use fewer --writes or smaller --sizes"},
    {EDQUOT, ErrorKind::kIo, true,
     "your disk quota is used up; free space, or use fewer --writes or "
     "smaller --sizes"},
    {EFBIG, ErrorKind::kIo, false,
     "the file would exceed the filesystem's largest file; use fewer --writes "
     "or smaller --sizes"},
    {EIO, ErrorKind::kIo, false, "the device reported an I/O error: see dmesg"},
    {EROFS, ErrorKind::kIo, false,
     "the filesystem is mounted read-only (after an error, see dmesg); choose "
     "another --dir"},
    {EACCES, ErrorKind::kSetup, false,
     "choose a directory you may write with --dir"},
    {EPERM, ErrorKind::kSetup, false,
     "choose a directory you may write with --dir"},
    // The filesystem refuses the request itself (O_DIRECT, an unaligned direct
    // write when staged): the caller knows which and gives the hint.
    {EINVAL, ErrorKind::kSetup, false, ""},
    {EOPNOTSUPP, ErrorKind::kSetup, false,
     "this filesystem does not support it (fallocate: use --layout "
     "prewritten)"},
};

}  // namespace

std::string EscapeControl(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    }
  }
  return out;
}

std::string ErrnoName(int errno_value) {
  // strerrorname_np (glibc 2.32) is the C library's own table: no hand-kept
  // copy.
  const char* name = strerrorname_np(errno_value);
  return name != nullptr ? name : "errno " + std::to_string(errno_value);
}

std::string Error::Message() const {
  std::string text = operation;
  if (!path.empty()) text += " " + path;
  text += ": ";
  if (errno_value != 0) {
    text += std::strerror(errno_value);
    text += " (" + ErrnoName(errno_value) + ")";
  } else {
    text += detail;
  }
  if (offset) text += " at offset " + std::to_string(*offset);
  if (!hint.empty()) text += "; " + hint;
  return text;
}

Error SystemError(ErrorKind kind, std::string operation, std::string path,
                  int errno_value, std::optional<std::int64_t> offset) {
  Error error;
  error.kind = kind;
  error.operation = std::move(operation);
  error.path = std::move(path);
  error.offset = offset;
  error.errno_value = errno_value;
  return error;
}

Error PlainError(ErrorKind kind, std::string operation, std::string detail) {
  Error error;
  error.kind = kind;
  error.operation = std::move(operation);
  error.detail = std::move(detail);
  return error;
}

Error Answer(Error error, Phase phase, std::uint64_t run_bytes) {
  if (error.kind == ErrorKind::kUsage) return error;
  error.kind = phase == Phase::kSetup ? ErrorKind::kSetup : ErrorKind::kIo;
  if (error.errno_value == 0) return error;
  for (const ErrnoAnswer& answer : kErrnoAnswers) {
    if (answer.errno_value != error.errno_value) continue;
    if (phase == Phase::kMeasurement) error.kind = answer.while_measuring;
    if (error.hint.empty()) {
      error.hint = answer.hint;
      if (answer.says_run_bytes && run_bytes > 0) {
        error.hint += " (a run needs up to " + std::to_string(run_bytes) +
                      " bytes, one run at a time)";
      }
    }
    break;
  }
  return error;
}

int ExitCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return 1;
    case ErrorKind::kSetup:
      return 2;
    case ErrorKind::kIo:
      return 3;
    case ErrorKind::kNotSaved:
      return 4;
  }
  return 2;
}

}  // namespace alignbench
