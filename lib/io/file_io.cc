#include "lib/io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>

#include "lib/io/cleanup.h"
#include "lib/io/fd.h"

namespace alignbench {

Status PwriteAll(int fd, const void* buffer, std::size_t length, off_t offset,
                 const std::string& path, FileOps& ops, int rwf) {
  const char* p = static_cast<const char*>(buffer);
  while (length > 0) {
    ssize_t done = rwf == 0 ? ops.Pwrite(fd, p, length, offset)
                            : ops.PwriteFlags(fd, p, length, offset, rwf);
    if (done < 0) {
      if (errno == EINTR) continue;
      return SystemError(ErrorKind::kIo, rwf == 0 ? "pwrite" : "pwritev2", path,
                         errno, offset);
    }
    p += done;
    length -= static_cast<std::size_t>(done);
    offset += done;
  }
  return Ok{};
}

Status PreadAll(int fd, void* buffer, std::size_t length, off_t offset,
                const std::string& path, FileOps& ops) {
  char* p = static_cast<char*>(buffer);
  while (length > 0) {
    ssize_t done = ops.Pread(fd, p, length, offset);
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

Result<std::string> ReadWholeFile(const std::string& path, ErrorKind kind,
                                  std::uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return SystemError(kind, "open", path, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return SystemError(kind, "stat", path, errno);
  }
  if (S_ISDIR(st.st_mode)) return SystemError(kind, "read", path, EISDIR);
  auto refuse = [&](const std::string& why) {
    Error error = PlainError(kind, "read", why);
    error.path = path;
    return error;
  };
  if (!S_ISREG(st.st_mode)) {
    return refuse("not a regular file (a device, FIFO or socket)");
  }
  const std::string limit =
      "; at most " + std::to_string(max_bytes) + " bytes are read";
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return refuse(std::to_string(st.st_size) + " bytes is too large" + limit);
  }
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd.get(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return SystemError(kind, "read", path, errno);
    if (got == 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
    if (text.size() > max_bytes) {  // it grew while we read
      return refuse("too large" + limit);
    }
  }
  return text;
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
  // Pseudo-random bytes from a fixed seed: incompressible, as fio's default
  // buffers are, so no compressing filesystem or drive makes writes cheaper
  // than real data, and the same bytes on every run.
  // Eight bytes per draw: a 16 MiB payload ring fills in milliseconds.
  std::mt19937_64 bytes(0x616c69676e);
  for (std::size_t i = 0; i < rounded; i += 8) {
    const std::uint64_t word = bytes();
    std::memcpy(data_.get() + i, &word, std::min<std::size_t>(8, rounded - i));
  }
}

}  // namespace alignbench
