// The private file a run writes: created with O_CREAT|O_EXCL in the target
// directory under a name nobody mistakes (.alignbench-<pid>-<random>),
// registered for signal cleanup, and unlinked when the TestFile is destroyed.
// It is the only file the tool ever writes to. While it exists its creator
// holds an flock on it, so another run can tell it is in use even from another
// PID namespace. A failed removal is said on stderr.
#pragma once

#include <ostream>
#include <string>

#include "lib/base/error.h"
#include "lib/io/fd.h"
#include "lib/io/file_ops.h"

namespace alignbench {

// Test files of earlier runs that were killed (kill -9, a power cut) in `dir`:
// each .alignbench-<pid>-<random> that is a regular file of this user, whose
// process is gone and that nobody holds locked, is removed, one line each on
// `log`; those of live processes or others are named and left.
void SweepStaleTestFiles(const std::string& dir, std::ostream& log);

class TestFile final {
 public:
  // Fails with a setup error if dir is not a writable directory or the name
  // exists. The file is created and removed through `ops`, which must
  // outlive it.
  static Result<TestFile> Create(const std::string& dir,
                                 FileOps& ops = SystemFileOps());

  TestFile(TestFile&& other) noexcept;
  TestFile& operator=(TestFile&&) = delete;
  TestFile(const TestFile&) = delete;
  TestFile& operator=(const TestFile&) = delete;
  ~TestFile();

  // The read-write descriptor the file was created with (for preparation).
  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }

  // A second descriptor on the same file with other status flags (O_DIRECT,
  // O_DSYNC, ...), opened through /proc/self/fd so it can never create or open
  // another file.
  Result<UniqueFd> Reopen(int flags) const;

 private:
  TestFile(UniqueFd fd, UniqueFd dir_fd, std::string path, int slot,
           FileOps& ops);
  UniqueFd fd_;
  // The directory it was made in, held open so that the file is removed
  // there even if the directory is renamed during the run.
  UniqueFd dir_fd_;
  std::string path_;
  int slot_ = -1;
  FileOps* ops_;
};

}  // namespace alignbench
