#include "lib/env/netfs.h"

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

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

std::vector<std::string> ReadCmdline(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  for (std::string arg; std::getline(in, arg, '\0');) argv.push_back(arg);
  return argv;
}

// The command line of the sshfs process serving `mount_point`.
std::optional<SshfsLogin> FindSshfs(const std::string& mount_point) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return std::nullopt;
  std::optional<SshfsLogin> found;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    found = SshfsLoginOf(ReadCmdline(pid), mount_point);
    if (found) break;
  }
  ::closedir(proc);
  return found;
}

std::string SshfsEffect(const std::string& source,
                        const std::string& mount_point) {
  const std::string host = source.substr(0, source.rfind(':'));
  const std::string rule =
      "sshfs sends the writes to " + host +
      " over SSH and passes a sync on only where the server offers "
      "fsync@openssh.com";
  const std::optional<SshfsLogin> login = FindSshfs(mount_point);
  if (!login) return rule + "; its sshfs process could not be read to ask it";
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
