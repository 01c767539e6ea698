#include "lib/base/error.h"

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
  CHECK(ExitCodeFor(ErrorKind::kNotSaved) == 4);
  CHECK(ExitCodeFor(ErrorKind::kRegression) == 5);
  // Every kind has its own row.
  for (ErrorKind kind : {ErrorKind::kUsage, ErrorKind::kSetup, ErrorKind::kIo,
                         ErrorKind::kNotSaved, ErrorKind::kRegression}) {
    int rows = 0;
    for (const ExitCodeRow& row : kExitCodes) rows += row.kind == kind;
    CHECK(rows == 1);
  }
}

TEST_CASE("Result holds a value or an error") {
  Result<int> good = 3;
  Result<int> bad = PlainError(ErrorKind::kUsage, "option --x", "bad");
  CHECK(good.ok());
  CHECK(good.value() == 3);
  CHECK_FALSE(bad.ok());
  CHECK(bad.error().Message() == "option --x: bad");
}

TEST_CASE("One errno, one answer: the table decides hint and exit code") {
  // A full disk while measuring: the same kind and hint from every call.
  const Error from_fallocate =
      Answer(SystemError(ErrorKind::kSetup, "fallocate", "/d/f", ENOSPC),
             Phase::kMeasurement, 4096);
  const Error from_pwrite =
      Answer(SystemError(ErrorKind::kIo, "pwrite", "/d/f", ENOSPC, 0),
             Phase::kMeasurement, 4096);
  CHECK(from_fallocate.kind == ErrorKind::kIo);
  CHECK(from_pwrite.kind == ErrorKind::kIo);
  CHECK(from_fallocate.hint == from_pwrite.hint);
  CHECK(from_pwrite.hint.find("a run needs up to 4096 bytes") !=
        std::string::npos);
  // Before measuring, every failure is a setup failure.
  CHECK(Answer(SystemError(ErrorKind::kIo, "pwrite", "/d/f", ENOSPC),
               Phase::kSetup)
            .kind == ErrorKind::kSetup);
  // The filesystem refusing the layout is setup, even while measuring.
  CHECK(Answer(SystemError(ErrorKind::kSetup, "fallocate", "/d/f", EOPNOTSUPP),
               Phase::kMeasurement)
            .kind == ErrorKind::kSetup);
  // What the machine will not give a run (a kernel without io_uring, a limit
  // on threads or open files) is setup, never an I/O error of the disk.
  for (int err : {ENOSYS, EAGAIN, ENOMEM, EMFILE, ENFILE, EPERM}) {
    CAPTURE(ErrnoName(err));
    CHECK(Answer(SystemError(ErrorKind::kSetup, "io_uring_setup", "", err),
                 Phase::kMeasurement)
              .kind == ErrorKind::kSetup);
  }
  // A caller that knows more keeps its hint; usage errors are left alone.
  Error known = SystemError(ErrorKind::kIo, "pwrite", "/d/f", EINVAL);
  known.hint = "align it";
  CHECK(Answer(known, Phase::kMeasurement).hint == "align it");
  CHECK(Answer(PlainError(ErrorKind::kUsage, "option --x", "bad"),
               Phase::kMeasurement)
            .kind == ErrorKind::kUsage);
}

TEST_CASE("EscapeControl writes C0 and DEL as escapes") {
  CHECK(EscapeControl("plain /d\\x") == "plain /d\\x");
  CHECK(EscapeControl("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(EscapeControl("\x1b[2J\x7f\x01") == "\\x1b[2J\\x7f\\x01");
  // UTF-8 is kept: only single-byte controls are escaped.
  CHECK(EscapeControl("gr\xc3\xbc\xc3\x9f") == "gr\xc3\xbc\xc3\x9f");
  CHECK(EscapeControl(std::string("a\0b", 3)) == "a\\x00b");
}

TEST_CASE("EscapeControl writes C1 and bidirectional controls as escapes") {
  CHECK(EscapeControl("a\xc2\x9b"
                      "2J") == "a\\u009b2J");  // CSI
  CHECK(EscapeControl("\xe2\x80\xae"
                      "cod.exe") == "\\u202ecod.exe");
  for (const char* bidi :
       {"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad",
        "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9"}) {
    CHECK(EscapeControl(bidi).rfind("\\u20", 0) == 0);
  }
  // Not UTF-8: a lone C1 byte, a cut sequence.
  CHECK(EscapeControl("\x9b"
                      "2J") == "\\x9b2J");
  CHECK(EscapeControl("a\xe2\x80") == "a\\xe2\\x80");
  // Escaping twice changes nothing.
  const std::string once = EscapeControl("x\xe2\x80\xae\n\x9b");
  CHECK(EscapeControl(once) == once);
  CHECK(EscapeControl("\xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\xe2\x82\xac \xf0\x9f\x98\x80");
}
