// alignbench: what does it cost when synchronous writes are not aligned?
#include "bench/app.h"

int main(int argc, char** argv) {
  return alignbench::AlignbenchMain(argc, argv, alignbench::SystemFileOps());
}
