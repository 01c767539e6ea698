// lib/io/fd.h: UniqueFd closes its descriptor on destruction and on Reset, is
// move-only, and a move leaves the source empty.
#include "lib/io/fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <type_traits>

using namespace alignbench;

namespace {

bool IsOpen(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

int OpenDevNull() {
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  return fd;
}

}  // namespace

static_assert(!std::is_copy_constructible_v<UniqueFd>);
static_assert(!std::is_copy_assignable_v<UniqueFd>);
static_assert(std::is_nothrow_move_constructible_v<UniqueFd>);
static_assert(std::is_nothrow_move_assignable_v<UniqueFd>);

TEST_CASE("fd: an empty UniqueFd is invalid") {
  UniqueFd fd;
  CHECK_FALSE(fd.valid());
  CHECK(fd.get() == -1);
  fd.Reset();  // nothing to close
  CHECK_FALSE(fd.valid());
}

TEST_CASE("fd: the descriptor is closed on destruction") {
  const int raw = OpenDevNull();
  {
    UniqueFd fd(raw);
    CHECK(fd.valid());
    CHECK(fd.get() == raw);
    CHECK(IsOpen(raw));
  }
  CHECK_FALSE(IsOpen(raw));
}

TEST_CASE("fd: Reset closes and empties") {
  const int raw = OpenDevNull();
  UniqueFd fd(raw);
  fd.Reset();
  CHECK_FALSE(fd.valid());
  CHECK_FALSE(IsOpen(raw));
}

TEST_CASE("fd: a move hands the descriptor over without closing it") {
  const int raw = OpenDevNull();
  UniqueFd a(raw);
  UniqueFd b(std::move(a));
  CHECK_FALSE(
      a.valid());  // NOLINT(bugprone-use-after-move): checked on purpose
  CHECK(b.get() == raw);
  CHECK(IsOpen(raw));

  // Move assignment closes what the target held.
  const int other = OpenDevNull();
  UniqueFd c(other);
  c = std::move(b);
  CHECK_FALSE(IsOpen(other));
  CHECK(c.get() == raw);
  CHECK_FALSE(b.valid());  // NOLINT(bugprone-use-after-move)
  CHECK(IsOpen(raw));

  // Self-move keeps the descriptor open.
  UniqueFd& alias = c;
  c = std::move(alias);
  CHECK(c.get() == raw);
  CHECK(IsOpen(raw));
  c.Reset();
  CHECK_FALSE(IsOpen(raw));
}
