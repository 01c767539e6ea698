// The mount of a directory: by path, and inside a chroot by device number.
#include "lib/env/mounts.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace alignbench;

namespace {

std::vector<MountEntry> Parse(const std::string& text) {
  std::istringstream in(text);
  return ParseMountInfo(in);
}

// The machine as PID 1 sees it: "/" on /dev/vda, a loop rig, /proc.
const char* kMachine =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
    "60 27 7:0 / /mnt/rig\\040one rw,noatime - xfs /dev/loop0 rw\n";

// A chroot under /var/tmp/root with /usr bound in and /proc mounted: its own
// "/" is not listed.
const char* kChroot =
    "45 27 254:0 /usr /usr ro,relatime - ext4 /dev/vda rw,discard\n"
    "46 27 0:40 / /proc rw,relatime - proc proc rw\n";

}  // namespace

TEST_CASE("mountinfo lines are parsed and their escapes undone") {
  const auto entries = Parse(kMachine);
  REQUIRE(entries.size() == 3);
  CHECK(entries[1].devno == "254:0");
  CHECK(entries[1].root == "/");
  CHECK(entries[1].point == "/");
  CHECK(entries[1].fs_type == "ext4");  // after the optional "shared:1"
  CHECK(entries[1].source == "/dev/vda");
  CHECK(entries[1].options == "rw,relatime");
  CHECK(entries[1].super_options == "rw,discard");
  CHECK(entries[2].point == "/mnt/rig one");
  CHECK(Parse("not a mountinfo line\n").empty());
}

TEST_CASE("The mount is the longest mount point that contains the directory") {
  const auto machine = Parse(kMachine);
  const auto found = FindMount(machine, machine, "/mnt/rig one/x", "7:0");
  REQUIRE(found);
  CHECK(found->by_path);
  CHECK(found->entry.fs_type == "xfs");
  CHECK(FindMount(machine, machine, "/mnt/rig onex", "254:0")->entry.point ==
        "/");
}

TEST_CASE("In a chroot the filesystem's own mount is found by device number") {
  const auto own = Parse(kChroot);
  const auto machine = Parse(kMachine);
  // /var/tmp inside the chroot: no mount of its own table contains it.
  const auto found = FindMount(own, machine, "/var/tmp", "254:0");
  REQUIRE(found);
  CHECK_FALSE(found->by_path);  // "/" is PID 1's path, not the chroot's
  CHECK(found->entry.fs_type == "ext4");
  CHECK(found->entry.root == "/");  // the root mount, not the /usr bind mount
  CHECK(found->entry.options == "rw,relatime");
  // Without PID 1's table (hidepid), the bind mount of the same filesystem.
  const auto bound = FindMount(own, {}, "/var/tmp", "254:0");
  REQUIRE(bound);
  CHECK(bound->entry.fs_type == "ext4");
  CHECK(bound->entry.root == "/usr");
  CHECK_FALSE(FindMount(own, machine, "/var/tmp", "8:1"));
}
