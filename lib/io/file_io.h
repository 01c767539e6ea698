// Whole-buffer positional I/O: EINTR is retried and short transfers are
// continued, so a caller sees either every byte done or an Error with the
// offset that failed.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "lib/base/error.h"
#include "lib/io/file_ops.h"

namespace alignbench {

// Through `ops`, so that a test can break any one call. `rwf`: pwritev2's
// flags (RWF_DSYNC), 0 for a plain pwrite.
Status PwriteAll(int fd, const void* buffer, std::size_t length, off_t offset,
                 const std::string& path, FileOps& ops = SystemFileOps(),
                 int rwf = 0);
Status PreadAll(int fd, void* buffer, std::size_t length, off_t offset,
                const std::string& path, FileOps& ops = SystemFileOps());

// The whole content of a regular file of at most max_bytes. Anything else (a
// directory, a device such as /dev/zero, a FIFO) and a larger file are refused
// before a byte is read, so untrusted input cannot make the tool read forever.
Result<std::string> ReadWholeFile(const std::string& path, ErrorKind kind,
                                  std::uint64_t max_bytes);

// A heap buffer whose address is a multiple of `alignment` (a power of two), as
// O_DIRECT requires. Filled with fixed pseudo-random bytes so no layer can skip
// zero blocks.
class AlignedBuffer final {
 public:
  AlignedBuffer(std::size_t size, std::size_t alignment);
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(char* p) const;
  };
  std::unique_ptr<char, Free> data_;
  std::size_t size_;
};

}  // namespace alignbench
