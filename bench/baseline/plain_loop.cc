// The baseline of scripts/harness-bench and scripts/fio-crosscheck: a plain
// C++ loop doing what alignbench's timed loop does (pwrite of SIZE bytes from a
// page-aligned buffer at OFFSET + k*SIZE into a fresh file, then the sync,
// each write+sync timed with steady_clock into a vector reserved before the
// loop) and nothing else, RUNS times in one process. With "prealloc" the file
// is fallocated, synced and dropped from the cache first, as alignbench's
// --layout prealloc --cache cold. Prints mean and median ns per write+sync.
//
//   alignbench_plain_loop DIR SIZE WRITES RUNS [none|fsync|fdatasync]
//                         [extend|prealloc] [OFFSET]
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
  std::size_t size = 0;
  std::size_t writes = 0;
  std::size_t runs = 0;
  std::size_t offset = 0;
  std::string sync = "none";
  bool prealloc = false;
};

// One run on a fresh file, appending each write+sync time; false on an error.
bool TimeOneRun(const std::string& path, const char* buffer, const Options& o,
                std::vector<std::int64_t>& times) {
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return false;
  }
  bool ok = true;
  if (o.prealloc) {
    const off_t span = static_cast<off_t>(o.offset + o.writes * o.size);
    ok = ::posix_fallocate(fd, 0, span) == 0 && ::fsync(fd) == 0 &&
         ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  }
  for (std::size_t k = 0; ok && k < o.writes; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const ssize_t done =
        ::pwrite(fd, buffer, o.size, static_cast<off_t>(o.offset + k * o.size));
    const int synced = o.sync == "fsync"       ? ::fsync(fd)
                       : o.sync == "fdatasync" ? ::fdatasync(fd)
                                               : 0;
    const auto t1 = std::chrono::steady_clock::now();
    if (done != static_cast<ssize_t>(o.size) || synced != 0) {
      std::perror("pwrite or sync");
      ok = false;
      break;
    }
    times.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || argc > 8) {
    std::fprintf(stderr,
                 "usage: alignbench_plain_loop DIR SIZE WRITES RUNS "
                 "[none|fsync|fdatasync] [extend|prealloc] [OFFSET]\n");
    return 1;
  }
  const std::string path =
      std::string(argv[1]) + "/.alignbench-plain-" + std::to_string(::getpid());
  Options o;
  o.size = std::strtoull(argv[2], nullptr, 10);
  o.writes = std::strtoull(argv[3], nullptr, 10);
  o.runs = std::strtoull(argv[4], nullptr, 10);
  if (argc > 5) o.sync = argv[5];
  if (argc > 6) o.prealloc = std::string(argv[6]) == "prealloc";
  if (argc > 7) o.offset = std::strtoull(argv[7], nullptr, 10);
  void* raw = nullptr;
  if (o.size == 0 || posix_memalign(&raw, 4096, o.size) != 0) return 1;
  std::mt19937_64 bytes(0x616c69676e);  // incompressible, as alignbench's
  for (std::size_t i = 0; i < o.size; ++i) {
    static_cast<char*>(raw)[i] = static_cast<char>(bytes() & 0xff);
  }
  std::vector<std::int64_t> times;
  times.reserve(o.writes * o.runs);
  for (std::size_t run = 0; run < o.runs; ++run) {
    if (!TimeOneRun(path, static_cast<const char*>(raw), o, times)) return 3;
  }
  std::free(raw);
  if (times.empty()) return 1;
  double sum = 0;
  for (std::int64_t t : times) sum += static_cast<double>(t);
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  std::printf("%.1f %lld\n", sum / static_cast<double>(times.size()),
              static_cast<long long>(times[times.size() / 2]));
  return 0;
}
