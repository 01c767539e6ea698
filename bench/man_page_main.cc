// alignbench_man_page DATE DATA_DIR OUT: writes the manual page alignbench(1)
// (lib/cli/man_page.h) to OUT, dated DATE, with the cases and schema under
// DATA_DIR. Run by the build (cmake/package.cmake), not installed.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "lib/base/error.h"
#include "lib/cli/man_page.h"
#include "lib/version.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: alignbench_man_page DATE DATA_DIR OUT\n";
    return 1;
  }
  const std::string page =
      alignbench::ManPage({alignbench::kVersion, argv[1], argv[2]});
  errno = 0;
  std::ofstream out(argv[3], std::ios::binary | std::ios::trunc);
  out << page;
  out.close();
  if (!out) {
    const int error = errno;
    std::cerr << "alignbench_man_page: error: write " << argv[3] << ": "
              << std::strerror(error) << " (" << alignbench::ErrnoName(error)
              << "); check that its directory exists and is writable\n";
    return 2;
  }
  return 0;
}
