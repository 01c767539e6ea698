// The system calls a run makes on its own test files, behind one interface, so
// that a test can make any one of them fail (or wait) at a chosen moment
// without root and without a hook in production code: the seam through which
// faults are injected. Production uses SystemFileOps(), a stateless object
// that calls the kernel. Each method returns as its system call does (-1 with
// errno set; fadvise returns the error number), so callers keep their own
// error handling: EINTR retries, short transfers, the errno table.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

struct stat;
struct fiemap;
struct io_uring;

namespace alignbench {

class FileOps {
 public:
  virtual ~FileOps() = default;
  // open(2) of a file that must not exist yet (O_CREAT|O_EXCL is in flags).
  virtual int Create(const char* path, int flags, mode_t mode) = 0;
  virtual ssize_t Pwrite(int fd, const void* buffer, std::size_t length,
                         off_t offset) = 0;
  // pwritev2(2) of one buffer with `flags` (RWF_DSYNC, RWF_SYNC): a replay's
  // write that the program made synchronous by its descriptor's O_DSYNC.
  virtual ssize_t PwriteFlags(int fd, const void* buffer, std::size_t length,
                              off_t offset, int flags) = 0;
  virtual ssize_t Pread(int fd, void* buffer, std::size_t length,
                        off_t offset) = 0;
  virtual int Fsync(int fd) = 0;
  virtual int Fdatasync(int fd) = 0;
  // fallocate(2): mode 0 or FALLOC_FL_KEEP_SIZE, over [offset, offset +
  // length)
  virtual int Fallocate(int fd, int mode, off_t offset, off_t length) = 0;
  virtual int Ftruncate(int fd, off_t length) = 0;
  // posix_fadvise(2) POSIX_FADV_DONTNEED over the whole file
  virtual int DropCache(int fd) = 0;
  // unlinkat(2) of `name` in the directory open as `dir_fd`: the file goes
  // even when the directory was renamed meanwhile.
  virtual int UnlinkAt(int dir_fd, const char* name) = 0;
  // open(2) of something that exists: the test file again through
  // /proc/self/fd (other status flags), or its directory.
  virtual int Open(const char* path, int flags) = 0;
  virtual int Fstat(int fd, struct stat* st) = 0;
  // ioctl(2) FS_IOC_FIEMAP: where the file's extents lie.
  virtual int Fiemap(int fd, fiemap* map) = 0;
  // How many of the pages of the file's first `span` bytes are in the page
  // cache: mmap(2) read-only, mincore(2), munmap(2); -1 with errno if not
  // known.
  virtual int ResidentPages(int fd, std::uint64_t span,
                            std::uint64_t* pages) = 0;
  // io_uring's three calls, as liburing returns them (a negative errno):
  // io_uring_queue_init (io_uring_setup(2)), io_uring_submit_and_wait
  // (io_uring_enter(2)) and io_uring_queue_exit. A write in the ring reaches
  // the file by the kernel, not by a call: a test fails it by its fd.
  virtual int RingInit(unsigned entries, io_uring* ring) = 0;
  virtual int RingSubmitAndWait(io_uring* ring, unsigned wait) = 0;
  virtual void RingExit(io_uring* ring) = 0;
};

// The kernel's calls. It holds no state: one object serves every run.
FileOps& SystemFileOps();

// Passes every call on to another FileOps; a test overrides the calls it
// wants to break (leveldb's EnvWrapper is the model).
class FileOpsWrapper : public FileOps {
 public:
  explicit FileOpsWrapper(FileOps& target) : target_(target) {}
  int Create(const char* path, int flags, mode_t mode) override {
    return target_.Create(path, flags, mode);
  }
  ssize_t Pwrite(int fd, const void* buffer, std::size_t length,
                 off_t offset) override {
    return target_.Pwrite(fd, buffer, length, offset);
  }
  ssize_t PwriteFlags(int fd, const void* buffer, std::size_t length,
                      off_t offset, int flags) override {
    return target_.PwriteFlags(fd, buffer, length, offset, flags);
  }
  ssize_t Pread(int fd, void* buffer, std::size_t length,
                off_t offset) override {
    return target_.Pread(fd, buffer, length, offset);
  }
  int Fsync(int fd) override { return target_.Fsync(fd); }
  int Fdatasync(int fd) override { return target_.Fdatasync(fd); }
  int Fallocate(int fd, int mode, off_t offset, off_t length) override {
    return target_.Fallocate(fd, mode, offset, length);
  }
  int Ftruncate(int fd, off_t length) override {
    return target_.Ftruncate(fd, length);
  }
  int DropCache(int fd) override { return target_.DropCache(fd); }
  int UnlinkAt(int dir_fd, const char* name) override {
    return target_.UnlinkAt(dir_fd, name);
  }
  int Open(const char* path, int flags) override {
    return target_.Open(path, flags);
  }
  int Fstat(int fd, struct stat* st) override { return target_.Fstat(fd, st); }
  int Fiemap(int fd, fiemap* map) override { return target_.Fiemap(fd, map); }
  int ResidentPages(int fd, std::uint64_t span, std::uint64_t* pages) override {
    return target_.ResidentPages(fd, span, pages);
  }
  int RingInit(unsigned entries, io_uring* ring) override {
    return target_.RingInit(entries, ring);
  }
  int RingSubmitAndWait(io_uring* ring, unsigned wait) override {
    return target_.RingSubmitAndWait(ring, wait);
  }
  void RingExit(io_uring* ring) override { target_.RingExit(ring); }

 private:
  FileOps& target_;
};

}  // namespace alignbench
