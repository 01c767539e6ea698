// The private file a run writes: created with O_CREAT|O_EXCL in the target
// directory under a name nobody mistakes (.alignbench-<pid>-<random>),
// registered for signal cleanup, and unlinked when the TestFile is destroyed.
// It is the only file the tool ever writes to.
#pragma once

#include <string>

#include "lib/io/error.h"
#include "lib/io/fd.h"

namespace alignbench {

class TestFile final {
 public:
  // Fails with a setup error if dir is not a writable directory or the name
  // exists.
  static Result<TestFile> Create(const std::string& dir);

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
  TestFile(UniqueFd fd, std::string path, int slot);
  UniqueFd fd_;
  std::string path_;
  int slot_ = -1;
};

}  // namespace alignbench
