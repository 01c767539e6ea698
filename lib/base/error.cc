#include "lib/base/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

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
    {ENOENT, ErrorKind::kSetup, false,
     "the directory does not exist, or was deleted while in use (so is a "
     "deleted working directory, the default --dir .); give an existing "
     "--dir"},
    // Memory is no fault of the disk: exit 2 in either phase.
    {ENOMEM, ErrorKind::kSetup, false,
     "out of memory: raise the limit (ulimit -v, the cgroup's memory.max) or "
     "free memory, or use smaller --sizes"},
    {EOPNOTSUPP, ErrorKind::kSetup, false,
     "this filesystem does not support it (fallocate: use --layout "
     "prewritten)"},
    // What the machine will not give a run (io_uring, threads): no fault of
    // the disk in either phase; the caller knows what was asked and says so.
    {ENOSYS, ErrorKind::kSetup, false, "this kernel lacks the call"},
    {EAGAIN, ErrorKind::kSetup, false,
     "a limit of this machine was reached; try again later"},
    {EMFILE, ErrorKind::kSetup, false,
     "too many open files (ulimit -n): raise the limit"},
    {ENFILE, ErrorKind::kSetup, false,
     "the system's table of open files is full: close files, or raise "
     "fs.file-max"},
};

}  // namespace

namespace {

// The length of the UTF-8 sequence at text[i] and its code point; 0 when the
// bytes there are not a valid sequence (a stray continuation byte, a cut one,
// an overlong form).
std::size_t DecodeUtf8(std::string_view text, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(text[i + k]);
  };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  char32_t least = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, cp = lead & 0x1f, least = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, cp = lead & 0x0f, least = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, cp = lead & 0x07, least = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3f);
  }
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return length;
}

// C1 controls (a terminal may take U+009B as CSI), the bidirectional
// controls that make text read in another order than it is stored, and the
// line and paragraph separators that split a line for some viewers.
bool IsHiddenControl(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x061c || cp == 0x2028 || cp == 0x2029;
}

}  // namespace

// Beyond C0 and DEL (error.h): C1 and bidirectional controls become "\u202e",
// and a byte that is not part of valid UTF-8 becomes "\x9b"; backslashes
// stay, so escaping twice changes nothing.
std::string EscapeControl(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      char32_t cp = 0;
      const std::size_t length = DecodeUtf8(text, i, cp);
      char hex[12];
      if (length == 0) {  // not UTF-8: a lone 0x9b is CSI to some terminals
        std::snprintf(hex, sizeof hex, "\\x%02x", byte);
        out += hex;
      } else if (IsHiddenControl(cp)) {
        std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(cp));
        out += hex;
        i += length - 1;
      } else {
        out.append(text.substr(i, length));
        i += length - 1;
      }
    } else if (byte >= 0x20 && byte != 0x7f) {
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
  for (const ExitCodeRow& row : kExitCodes) {
    if (row.kind == kind) return std::stoi(std::string(row.code));
  }
  return 2;
}

}  // namespace alignbench
