#include "lib/io/file_io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <new>

namespace alignbench {

Status PwriteAll(int fd, const void* buffer, std::size_t length, off_t offset,
                 const std::string& path) {
  const char* p = static_cast<const char*>(buffer);
  while (length > 0) {
    ssize_t done = ::pwrite(fd, p, length, offset);
    if (done < 0) {
      if (errno == EINTR) continue;
      return SystemError(ErrorKind::kIo, "pwrite", path, errno, offset);
    }
    p += done;
    length -= static_cast<std::size_t>(done);
    offset += done;
  }
  return Ok{};
}

Status PreadAll(int fd, void* buffer, std::size_t length, off_t offset,
                const std::string& path) {
  char* p = static_cast<char*>(buffer);
  while (length > 0) {
    ssize_t done = ::pread(fd, p, length, offset);
    if (done < 0) {
      if (errno == EINTR) continue;
      return SystemError(ErrorKind::kIo, "pread", path, errno, offset);
    }
    if (done ==
        0) {  // past the end: the rest reads as zeros, as it would from a hole
      std::fill(p, p + length, '\0');
      break;
    }
    p += done;
    length -= static_cast<std::size_t>(done);
    offset += done;
  }
  return Ok{};
}

void AlignedBuffer::Free::operator()(char* p) const { std::free(p); }

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment)
    : size_(size) {
  std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* raw = nullptr;
  if (posix_memalign(&raw, alignment, rounded == 0 ? alignment : rounded) !=
      0) {
    throw std::bad_alloc();
  }
  data_.reset(static_cast<char*>(raw));
  for (std::size_t i = 0; i < rounded; ++i) {
    data_.get()[i] = static_cast<char>('a' + i % 26);
  }
}

}  // namespace alignbench
