// How each sync method is carried out: the open flags it needs and the call
// made after every write. The one place that maps SyncMethod to system calls.
#pragma once

#include "lib/base/error.h"
#include "lib/config/axes.h"
#include "lib/io/file_ops.h"

namespace alignbench {

// Whether a call follows each write is HasSyncCall (lib/config/axes.h).

// Extra open(2) flags for the measurement descriptor (O_SYNC, O_DSYNC or 0).
int SyncOpenFlags(SyncMethod method);

// The call made after each write; a no-op for o_sync, o_dsync and none.
Status SyncAfterWrite(SyncMethod method, int fd, const std::string& path,
                      FileOps& ops);

}  // namespace alignbench
