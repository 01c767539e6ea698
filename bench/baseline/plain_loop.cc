// The baseline of scripts/harness-bench: a plain C++ loop doing what
// alignbench's timed loop does under --sync none (pwrite of SIZE bytes from a
// page-aligned buffer at k*SIZE into a fresh file, each write timed with
// steady_clock into a vector reserved before the loop) and nothing else, RUNS
// times in one process as alignbench runs its two variants. Prints the mean
// and median ns per write over all runs.
//
//   alignbench_plain_loop DIR SIZE WRITES RUNS
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// One run on a fresh file; false on an I/O error.
bool TimeOneRun(const std::string& path, const char* buffer, std::size_t size,
                std::size_t writes, std::vector<std::int64_t>& times) {
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return false;
  }
  bool ok = true;
  for (std::size_t k = 0; k < writes; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const ssize_t done =
        ::pwrite(fd, buffer, size, static_cast<off_t>(k * size));
    const auto t1 = std::chrono::steady_clock::now();
    if (done != static_cast<ssize_t>(size)) {
      std::perror("pwrite");
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
  if (argc != 5) {
    std::fprintf(stderr, "usage: alignbench_plain_loop DIR SIZE WRITES RUNS\n");
    return 1;
  }
  const std::string path =
      std::string(argv[1]) + "/.alignbench-plain-" + std::to_string(::getpid());
  const std::size_t size = std::strtoull(argv[2], nullptr, 10);
  const std::size_t writes = std::strtoull(argv[3], nullptr, 10);
  const std::size_t runs = std::strtoull(argv[4], nullptr, 10);
  void* raw = nullptr;
  if (size == 0 || posix_memalign(&raw, 4096, size) != 0) return 1;
  std::memset(raw, 'a', size);
  std::vector<std::int64_t> times;
  times.reserve(writes * runs);
  for (std::size_t run = 0; run < runs; ++run) {
    if (!TimeOneRun(path, static_cast<const char*>(raw), size, writes, times)) {
      return 3;
    }
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
