#include "lib/io/error.h"

#include <cstring>

namespace alignbench {

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

int ExitCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return 1;
    case ErrorKind::kSetup:
      return 2;
    case ErrorKind::kIo:
      return 3;
  }
  return 2;
}

}  // namespace alignbench
