#include "lib/io/error.h"

#include <catch2/catch.hpp>
#include <cerrno>

using namespace alignbench;

TEST_CASE("An Error names operation, path, errno symbol, offset and hint") {
  Error e = SystemError(ErrorKind::kIo, "pwrite", "/d/.alignbench-12-ab",
                        ENOSPC, 5242904);
  e.hint = "free some space";
  CHECK(e.Message() ==
        "pwrite /d/.alignbench-12-ab: No space left on device (ENOSPC) at "
        "offset 5242904; "
        "free some space");
  CHECK(e.errno_value == ENOSPC);  // testable without matching text
}

TEST_CASE("ErrnoName and exit codes") {
  CHECK(ErrnoName(EINVAL) == "EINVAL");
  CHECK(ErrnoName(EROFS) == "EROFS");
  CHECK(ErrnoName(99999) == "errno 99999");
  CHECK(ExitCodeFor(ErrorKind::kUsage) == 1);
  CHECK(ExitCodeFor(ErrorKind::kSetup) == 2);
  CHECK(ExitCodeFor(ErrorKind::kIo) == 3);
}

TEST_CASE("Result holds a value or an error") {
  Result<int> good = 3;
  Result<int> bad = PlainError(ErrorKind::kUsage, "option --x", "bad");
  CHECK(good.ok());
  CHECK(good.value() == 3);
  CHECK_FALSE(bad.ok());
  CHECK(bad.error().Message() == "option --x: bad");
}
