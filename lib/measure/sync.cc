#include "lib/measure/sync.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace alignbench {

int SyncOpenFlags(SyncMethod method) {
  switch (method) {
    case SyncMethod::kOSync:
      return O_SYNC;
    case SyncMethod::kODsync:
      return O_DSYNC;
    default:
      return 0;
  }
}

bool HasSyncCall(SyncMethod method) {
  return method == SyncMethod::kFsync || method == SyncMethod::kFdatasync;
}

Status SyncAfterWrite(SyncMethod method, int fd, const std::string& path) {
  int rc = 0;
  switch (method) {
    case SyncMethod::kFsync:
      rc = ::fsync(fd);
      break;
    case SyncMethod::kFdatasync:
      rc = ::fdatasync(fd);
      break;
    default:
      return Ok{};
  }
  if (rc != 0) {
    return SystemError(ErrorKind::kIo, NameOf(kSyncMethods, method).data(),
                       path, errno);
  }
  return Ok{};
}

}  // namespace alignbench
