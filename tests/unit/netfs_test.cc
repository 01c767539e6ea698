// What a sync does with no block device: tmpfs, and sshfs's server asked.
#include "lib/env/netfs.h"

#include <catch2/catch.hpp>

using namespace alignbench;

TEST_CASE(
    "An sshfs command line gives the login and the ssh options sftp takes") {
  const std::vector<std::string> argv = {"sshfs",
                                         "-f",
                                         "-F",
                                         "/rig/ssh/config",
                                         "-o",
                                         "allow_other",
                                         "-o",
                                         "IdentityFile=/rig/key",
                                         "-p",
                                         "2222",
                                         "root@10.0.0.2:/srv/served",
                                         "/rig/mnt"};
  const auto login = SshfsLoginOf(argv, "/rig/mnt");
  REQUIRE(login);
  CHECK(login->login == "root@10.0.0.2");
  // allow_other is sshfs's own: sftp would refuse it.
  CHECK(login->ssh_args ==
        std::vector<std::string>{"-F", "/rig/ssh/config", "-o",
                                 "IdentityFile=/rig/key", "-P", "2222"});
  CHECK_FALSE(SshfsLoginOf(argv, "/other/mnt"));
  CHECK_FALSE(SshfsLoginOf(
      {"/usr/bin/sshfs", "-o", "ssh_command=ssh -x", "h:/p", "/rig/mnt"},
      "/rig/mnt"));
  CHECK_FALSE(SshfsLoginOf({"bash", "h:/p", "/rig/mnt"}, "/rig/mnt"));
  CHECK(SshfsLoginOf({"/usr/bin/sshfs", "h:", "/m"}, "/m")->login == "h");
}

TEST_CASE(
    "sftp's debug lines say whether the server offers fsync@openssh.com") {
  const std::string up =
      "debug2: Remote version: 3\n"
      "debug2: Server supports extension \"posix-rename@openssh.com\" revision "
      "1\n";
  CHECK(OffersFsync(up) == false);
  CHECK(OffersFsync(up +
                    "debug2: Server supports extension \"fsync@openssh.com\" "
                    "revision 1\n") == true);
  // No session: nothing to say either way.
  CHECK_FALSE(OffersFsync("ssh: connect to host 10.0.0.2 port 22: refused\n"));
}

TEST_CASE(
    "tmpfs's sync has nothing to write; a disk's is left to its counters") {
  CHECK(SyncEffect("tmpfs", "tmpfs", "/dev/shm") ==
        "tmpfs keeps files in memory: a sync has nothing to write and returns "
        "at once");
  CHECK_FALSE(SyncEffect("ext4", "/dev/vda", "/"));
}

TEST_CASE("Filesystems sort into network, local disk and memory") {
  CHECK(StorageKind("nfs4") == "network filesystem");
  CHECK(StorageKind("fuse.sshfs") == "network filesystem");
  CHECK(StorageKind("tmpfs") == "memory");
  CHECK(StorageKind("ext4") == "local disk");
  CHECK(StorageKind("") == "local disk");
}

TEST_CASE("A FUSE mount's owner is read from its filesystem's options") {
  CHECK(FuseOwner("rw,user_id=1000,group_id=1000") == 1000u);
  CHECK(FuseOwner("rw,user_id=0,group_id=0,allow_other") == 0u);
  CHECK_FALSE(FuseOwner("rw,group_id=0"));
  CHECK_FALSE(FuseOwner("rw,user_id=,group_id=0"));
  CHECK_FALSE(FuseOwner("rw,user_id=-1"));
  CHECK_FALSE(FuseOwner("rw,user_id=99999999999"));
}

TEST_CASE("A process runs as one user only when all four of its uids say so") {
  const std::string root = "Name:\tsshfs\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n";
  CHECK(RunsOnlyAs(root, 0));
  CHECK_FALSE(RunsOnlyAs(root, 1000));
  // A set-uid program started by a user keeps the user as its real uid.
  CHECK_FALSE(RunsOnlyAs("Uid:\t1000\t0\t0\t0\n", 0));
  CHECK_FALSE(RunsOnlyAs("Uid:\t0\t0\t0\t1000\n", 0));
  CHECK_FALSE(RunsOnlyAs("Uid:\t0\t0\n", 0));
  CHECK_FALSE(RunsOnlyAs("Name:\tsshfs\n", 0));
}
