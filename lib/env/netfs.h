// What a sync does on a filesystem with no block device under it: tmpfs has
// nothing to write, and sshfs passes a sync on to its server only where the
// server offers the SFTP extension fsync@openssh.com (OpenSSH's does since
// 6.5). For sshfs the server is asked, as `sftp -vv` would, with the options
// the mount's own sshfs process was started with, but only where the mount
// proves that process is its maker's and that maker is the user alignbench
// runs as: nothing another user started or wrote is run or passed on, and the
// answer is then said to be unknown, with why. A sync that does nothing is
// said, not hidden.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace alignbench {

// Where a filesystem keeps what is written: kNetworkFs (nfs, cifs,
// fuse.sshfs, 9p, ...), kMemory (tmpfs, ramfs) or kLocalDisk (the rest).
inline constexpr const char* kNetworkFs = "network filesystem";
inline constexpr const char* kLocalDisk = "local disk";
inline constexpr const char* kMemory = "memory";
std::string StorageKind(const std::string& fs_type);

// How to reach the server of an sshfs mount: "user@host" and the ssh options
// of its sshfs process that sftp takes too (-F, -p, -o Keyword=value).
struct SshfsLogin {
  std::string login;
  std::vector<std::string> ssh_args;
};

// From the sshfs command line that made the mount at `mount_point` (argv[0]
// "sshfs"); nothing for another command line, or one that names its own ssh
// command (-o ssh_command), which sftp cannot be told.
std::optional<SshfsLogin> SshfsLoginOf(const std::vector<std::string>& argv,
                                       const std::string& mount_point);

// The user a FUSE mount was made by, from its filesystem's options in
// mountinfo ("rw,user_id=1000,group_id=1000"); nothing where none is said.
std::optional<uid_t> FuseOwner(const std::string& super_options);

// Whether a process's /proc/PID/status text says it runs as `uid` alone:
// real, effective, saved and filesystem uid.
bool RunsOnlyAs(const std::string& status, uid_t uid);

// Whether sftp's debug lines (stderr of `sftp -vv`) say the server offers
// fsync@openssh.com; nothing where they show no session ("Remote version").
std::optional<bool> OffersFsync(const std::string& sftp_debug);

// The sentence for a target's sync_effect: what a sync does on `fs_type`
// mounted from `source` at `mount_point`; nothing where a block device takes
// the writes and the device counters say what a sync did.
std::optional<std::string> SyncEffect(const std::string& fs_type,
                                      const std::string& source,
                                      const std::string& mount_point);

}  // namespace alignbench
