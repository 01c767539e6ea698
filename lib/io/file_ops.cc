#include "lib/io/file_ops.h"

#include <fcntl.h>
#include <liburing.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace alignbench {
namespace {

class SystemOps final : public FileOps {
 public:
  int Create(const char* path, int flags, mode_t mode) override {
    return ::open(path, flags, mode);
  }
  ssize_t Pwrite(int fd, const void* buffer, std::size_t length,
                 off_t offset) override {
    return ::pwrite(fd, buffer, length, offset);
  }
  ssize_t PwriteFlags(int fd, const void* buffer, std::size_t length,
                      off_t offset, int flags) override {
    iovec one{const_cast<void*>(buffer), length};
    return ::pwritev2(fd, &one, 1, offset, flags);
  }
  ssize_t Pread(int fd, void* buffer, std::size_t length,
                off_t offset) override {
    return ::pread(fd, buffer, length, offset);
  }
  int Fsync(int fd) override { return ::fsync(fd); }
  int Fdatasync(int fd) override { return ::fdatasync(fd); }
  int Fallocate(int fd, int mode, off_t offset, off_t length) override {
    return ::fallocate(fd, mode, offset, length);
  }
  int Ftruncate(int fd, off_t length) override {
    return ::ftruncate(fd, length);
  }
  int DropCache(int fd) override {
    return ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  }
  int UnlinkAt(int dir_fd, const char* name) override {
    return ::unlinkat(dir_fd, name, 0);
  }
  int Open(const char* path, int flags) override { return ::open(path, flags); }
  int Fstat(int fd, struct stat* st) override { return ::fstat(fd, st); }
  int Fiemap(int fd, fiemap* map) override {
    return ::ioctl(fd, FS_IOC_FIEMAP, map);
  }
  int ResidentPages(int fd, std::uint64_t span, std::uint64_t* pages) override;
  int RingInit(unsigned entries, io_uring* ring) override {
    return io_uring_queue_init(entries, ring, 0);
  }
  int RingSubmitAndWait(io_uring* ring, unsigned wait) override {
    return io_uring_submit_and_wait(ring, wait);
  }
  void RingExit(io_uring* ring) override { io_uring_queue_exit(ring); }
};

int SystemOps::ResidentPages(int fd, std::uint64_t span, std::uint64_t* pages) {
  if (span == 0) {
    *pages = 0;
    return 0;
  }
  void* map = ::mmap(nullptr, span, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  const long page = ::sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> vec((span + page - 1) / page);
  const int rc = ::mincore(map, span, vec.data());
  const int saved = errno;
  if (rc == 0) {
    *pages = static_cast<std::uint64_t>(std::count_if(
        vec.begin(), vec.end(), [](unsigned char v) { return v & 1; }));
  }
  ::munmap(map, span);
  errno = saved;
  return rc;
}

}  // namespace

FileOps& SystemFileOps() {
  static SystemOps ops;
  return ops;
}

}  // namespace alignbench
