// A plain main for the fuzzer's target (fuzz_parsers.cc): every file named on
// the command line, or found directly in a directory named there, is handed to
// LLVMFuzzerTestOneInput once, as libFuzzer replays a corpus. Built by CMake as
// fuzz_replay in every build, so that the seed corpus and the regressions run
// under the sanitizers without clang. Exits 1 when nothing was replayed or a
// path cannot be read; an input that breaks an invariant aborts, as it does
// under libFuzzer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size);

namespace {

namespace fs = std::filesystem;

// The files of PATH: itself, or a directory's regular files in name order.
bool Inputs(const fs::path& path, std::vector<fs::path>& out) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    out.push_back(path);
    return true;
  }
  std::vector<fs::path> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
    if (entry.is_regular_file()) found.push_back(entry.path());
  }
  if (error) {
    std::fprintf(stderr, "fuzz_replay: cannot list %s: %s\n", path.c_str(),
                 error.message().c_str());
    return false;
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!Inputs(argv[i], inputs)) return 1;
  }
  for (const fs::path& input : inputs) {
    std::ifstream in(input, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s\n", input.c_str());
      return 1;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                           bytes.size());
  }
  std::printf("fuzz_replay: %zu inputs replayed\n", inputs.size());
  return inputs.empty() ? 1 : 0;
}
