// The baseline of scripts/harness-bench: a plain C++ loop doing what
// alignbench's timed loop does under --sync none (pwrite of SIZE bytes at
// k*SIZE into a fresh file, each write timed with steady_clock into a vector
// reserved before the loop) and nothing else. Prints the mean and median ns
// per write, so alignbench's own overhead can be measured against it.
//
//   alignbench_plain_loop DIR SIZE WRITES
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: alignbench_plain_loop DIR SIZE WRITES\n");
    return 1;
  }
  const std::string path =
      std::string(argv[1]) + "/.alignbench-plain-" + std::to_string(::getpid());
  const std::size_t size = std::strtoull(argv[2], nullptr, 10);
  const std::size_t writes = std::strtoull(argv[3], nullptr, 10);
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return 2;
  }
  std::vector<char> buffer(size, 'a');
  std::vector<std::int64_t> times;
  times.reserve(writes);
  int status = 0;
  for (std::size_t k = 0; k < writes; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const ssize_t done =
        ::pwrite(fd, buffer.data(), size, static_cast<off_t>(k * size));
    const auto t1 = std::chrono::steady_clock::now();
    if (done != static_cast<ssize_t>(size)) {
      std::perror("pwrite");
      status = 3;
      break;
    }
    times.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  if (status != 0 || times.empty()) return status;
  double sum = 0;
  for (std::int64_t t : times) sum += static_cast<double>(t);
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  std::printf("%.1f %lld\n", sum / static_cast<double>(times.size()),
              static_cast<long long>(times[times.size() / 2]));
  return 0;
}
