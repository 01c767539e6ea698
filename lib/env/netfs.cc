#include "lib/env/netfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "lib/base/error.h"
#include "lib/env/mounts.h"
#include "lib/io/command.h"

namespace alignbench {
namespace {

// ssh_config keywords an sshfs mount may carry that change how sftp reaches
// the same server; sshfs's own options (allow_other, reconnect, ...) are not.
bool SshKeyword(std::string option) {
  static const std::set<std::string> kKeywords = {"batchmode",
                                                  "certificatefile",
                                                  "ciphers",
                                                  "compression",
                                                  "connecttimeout",
                                                  "hostkeyalias",
                                                  "hostname",
                                                  "identitiesonly",
                                                  "identityfile",
                                                  "port",
                                                  "proxycommand",
                                                  "proxyjump",
                                                  "stricthostkeychecking",
                                                  "user",
                                                  "userknownhostsfile"};
  option = option.substr(0, option.find('='));
  std::transform(option.begin(), option.end(), option.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return kKeywords.count(option) > 0;
}

// The whole of a small file under the directory `dir` (a /proc/PID of one
// process: a PID reused meanwhile fails to read rather than naming another).
std::string ReadAt(int dir, const char* name) {
  std::string text;
  const int fd = ::openat(dir, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char chunk[4096];
  for (ssize_t got; (got = ::read(fd, chunk, sizeof chunk)) > 0;) {
    text.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

std::vector<std::string> Words(const std::string& cmdline) {
  std::vector<std::string> argv;
  std::istringstream in(cmdline);
  for (std::string arg; std::getline(in, arg, '\0');) argv.push_back(arg);
  return argv;
}

// The owner of the sshfs mount at `mount_point`: the topmost mount there.
std::optional<uid_t> MountOwner(const std::string& mount_point) {
  std::ifstream in("/proc/self/mountinfo");
  std::optional<uid_t> owner;
  for (const MountEntry& e : ParseMountInfo(in)) {
    if (e.point == mount_point) owner = FuseOwner(e.super_options);
  }
  return owner;
}

// The command line of an sshfs process serving `mount_point` that runs as
// `owner` and nobody else: its real, effective, saved and filesystem uids.
std::optional<SshfsLogin> FindSshfs(const std::string& mount_point,
                                    uid_t owner) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return std::nullopt;
  std::optional<SshfsLogin> found;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const int dir = ::openat(::dirfd(proc), entry->d_name,
                             O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) continue;
    if (RunsOnlyAs(ReadAt(dir, "status"), owner)) {
      found = SshfsLoginOf(Words(ReadAt(dir, "cmdline")), mount_point);
    }
    ::close(dir);
    if (found) break;
  }
  ::closedir(proc);
  return found;
}

// Whether ssh may read the config files (-F) of `login` for this user: each
// a regular file of this user's or root's that nobody else may write, as ssh
// itself demands of ~/.ssh/config.
bool ConfigsSafe(const SshfsLogin& login) {
  for (std::size_t i = 0; i + 1 < login.ssh_args.size(); ++i) {
    if (login.ssh_args[i] != "-F") continue;
    struct stat st {};
    const std::string& file = login.ssh_args[i + 1];
    if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        (st.st_uid != ::geteuid() && st.st_uid != 0) ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
      return false;
    }
  }
  return true;
}

// Why the server of the mount was not asked, or "" where it may be: only
// with the sshfs options of a mount the user alignbench runs as made, from a
// process that runs as that user alone (another user could start a process
// called sshfs naming the mount, with options of their choosing).
std::string WhyNotAsked(const std::string& mount_point,
                        std::optional<SshfsLogin>& login) {
  const std::optional<uid_t> owner = MountOwner(mount_point);
  if (!owner) return "who made the mount could not be read";
  if (*owner != ::geteuid()) {
    return "the mount is user " + std::to_string(*owner) +
           "'s, and alignbench asks a server only for a mount made by the "
           "user it runs as (alignbench env run as that user asks it)";
  }
  login = FindSshfs(mount_point, *owner);
  if (!login) return "no sshfs process of the mount's user names it";
  if (!ConfigsSafe(*login)) {
    return "the ssh config file its sshfs was given may be written by another "
           "user";
  }
  return "";
}

std::string SshfsEffect(const std::string& source,
                        const std::string& mount_point) {
  const std::string host = EscapeControl(source.substr(0, source.rfind(':')));
  const std::string rule =
      "sshfs sends the writes to " + host +
      " over SSH and passes a sync on only where the server offers "
      "fsync@openssh.com";
  std::optional<SshfsLogin> login;
  const std::string why_not = WhyNotAsked(mount_point, login);
  if (!why_not.empty()) {
    return rule + "; whether this server does is not known: " + why_not;
  }
  std::vector<std::string> argv = {
      "sftp", "-vv",           "-b", "/dev/null",
      "-o",   "BatchMode=yes", "-o", "ConnectTimeout=5"};
  argv.insert(argv.end(), login->ssh_args.begin(), login->ssh_args.end());
  argv.push_back(login->login);
  const CommandOutput out = RunCommand(argv, OutputStream::kStderr, 15000);
  const std::optional<bool> offers = OffersFsync(out.text);
  if (!offers) return rule + "; asking it with sftp -vv failed";
  return *offers ? "sshfs sends the writes to " + host +
                       " over SSH; the server offers fsync@openssh.com, so a "
                       "sync returns once the server's fsync has"
                 : "sshfs sends the writes to " + host +
                       " over SSH; the server does not offer "
                       "fsync@openssh.com, so a sync only waits for the "
                       "writes to be sent: nothing is made durable by it";
}

}  // namespace

std::string StorageKind(const std::string& fs_type) {
  static const char* const kNetwork[] = {
      "nfs",  "nfs4",       "cifs", "smb3",      "smbfs",          "9p",
      "ceph", "fuse.sshfs", "afs",  "glusterfs", "fuse.glusterfs", "lustre"};
  for (const char* name : kNetwork) {
    if (fs_type == name) return kNetworkFs;
  }
  if (fs_type == "tmpfs" || fs_type == "ramfs") return kMemory;
  return kLocalDisk;
}

std::optional<SshfsLogin> SshfsLoginOf(const std::vector<std::string>& argv,
                                       const std::string& mount_point) {
  if (argv.empty() || argv[0].substr(argv[0].rfind('/') + 1) != "sshfs") {
    return std::nullopt;
  }
  SshfsLogin login;
  std::vector<std::string> positional;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    const bool has_value =
        (a == "-o" || a == "-F" || a == "-p") && i + 1 < argv.size();
    if (!has_value) {
      if (a.empty() || a[0] != '-') positional.push_back(a);
      continue;
    }
    const std::string value = argv[++i];
    if (a == "-o" && value.rfind("ssh_command", 0) == 0) return std::nullopt;
    if (a == "-F") login.ssh_args.insert(login.ssh_args.end(), {"-F", value});
    if (a == "-p") login.ssh_args.insert(login.ssh_args.end(), {"-P", value});
    if (a == "-o" && SshKeyword(value)) {
      login.ssh_args.insert(login.ssh_args.end(), {"-o", value});
    }
  }
  if (positional.size() != 2 || positional[1] != mount_point ||
      positional[0].find(':') == std::string::npos) {
    return std::nullopt;
  }
  login.login = positional[0].substr(0, positional[0].rfind(':'));
  return login;
}

std::optional<uid_t> FuseOwner(const std::string& super_options) {
  std::istringstream options(super_options);
  for (std::string option; std::getline(options, option, ',');) {
    if (option.rfind("user_id=", 0) != 0) continue;
    const std::string digits = option.substr(8);
    if (digits.empty() || digits.size() > 10 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
    return static_cast<uid_t>(std::stoul(digits));
  }
  return std::nullopt;
}

bool RunsOnlyAs(const std::string& status, uid_t uid) {
  std::istringstream lines(status);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Uid:", 0) != 0) continue;
    std::istringstream ids(line.substr(4));
    int count = 0;
    for (unsigned long id; ids >> id; ++count) {
      if (id != uid) return false;
    }
    return count == 4;
  }
  return false;
}

std::optional<bool> OffersFsync(const std::string& sftp_debug) {
  // OpenSSH's sftp says the server's version once the session is up, then
  // each extension the server offers.
  if (sftp_debug.find("Remote version: ") == std::string::npos) {
    return std::nullopt;
  }
  return sftp_debug.find("Server supports extension \"fsync@openssh.com\"") !=
         std::string::npos;
}

std::optional<std::string> SyncEffect(const std::string& fs_type,
                                      const std::string& source,
                                      const std::string& mount_point) {
  if (fs_type == "tmpfs" || fs_type == "ramfs") {
    return fs_type +
           " keeps files in memory: a sync has nothing to write and returns "
           "at once";
  }
  if (fs_type == "fuse.sshfs") return SshfsEffect(source, mount_point);
  return std::nullopt;
}

}  // namespace alignbench
