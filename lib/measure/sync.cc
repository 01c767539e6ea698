#include "lib/measure/sync.h"

#include <fcntl.h>

#include <cerrno>

namespace alignbench {

// Every switch here names every method, without `default:`: a new SyncMethod
// does not compile until each place says what it does.
int SyncOpenFlags(SyncMethod method) {
  switch (method) {
    case SyncMethod::kOSync:
      return O_SYNC;
    case SyncMethod::kODsync:
      return O_DSYNC;
    case SyncMethod::kFsync:
    case SyncMethod::kFdatasync:
    case SyncMethod::kNone:
      return 0;
  }
  return 0;
}

Status SyncAfterWrite(SyncMethod method, int fd, const std::string& path,
                      FileOps& ops) {
  int rc = 0;
  switch (method) {
    case SyncMethod::kFsync:
      rc = ops.Fsync(fd);
      break;
    case SyncMethod::kFdatasync:
      rc = ops.Fdatasync(fd);
      break;
    case SyncMethod::kOSync:
    case SyncMethod::kODsync:
    case SyncMethod::kNone:
      return Ok{};
  }
  if (rc != 0) {
    return SystemError(ErrorKind::kIo, NameOf(kSyncMethods, method).data(),
                       path, errno);
  }
  return Ok{};
}

}  // namespace alignbench
