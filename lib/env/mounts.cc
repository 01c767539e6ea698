#include "lib/env/mounts.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace alignbench {
namespace {

// mountinfo escapes spaces and other characters as \ooo.
std::string Unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      out += static_cast<char>(
          std::strtol(text.substr(i + 1, 3).c_str(), nullptr, 8));
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

bool Contains(const std::string& point, const std::string& dir) {
  return dir == point || point == "/" ||
         dir.compare(0, point.size() + 1, point + "/") == 0;
}

std::optional<MountEntry> ByPath(const std::vector<MountEntry>& entries,
                                 const std::string& real_dir) {
  std::optional<MountEntry> best;
  for (const MountEntry& e : entries) {
    if (!Contains(e.point, real_dir)) continue;
    if (!best || e.point.size() >= best->point.size()) best = e;
  }
  return best;
}

std::optional<MountEntry> ByDevice(const std::vector<MountEntry>& entries,
                                   const std::string& devno) {
  std::optional<MountEntry> found;
  for (const MountEntry& e : entries) {
    if (e.devno != devno) continue;
    if (e.root == "/") return e;
    if (!found) found = e;
  }
  return found;
}

std::vector<MountEntry> ReadMountInfo(const std::string& path) {
  std::ifstream in(path);
  return in ? ParseMountInfo(in) : std::vector<MountEntry>{};
}

}  // namespace

std::vector<MountEntry> ParseMountInfo(std::istream& in) {
  std::vector<MountEntry> entries;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, word;
    MountEntry e;
    fields >> id >> parent >> e.devno >> e.root >> e.point >> e.options;
    while (fields >> word && word != "-") {  // optional fields, then "-"
    }
    fields >> e.fs_type >> e.source >> e.super_options;
    if (e.fs_type.empty()) continue;  // not a mountinfo line
    e.root = Unescape(e.root);
    e.point = Unescape(e.point);
    e.source = Unescape(e.source);
    entries.push_back(std::move(e));
  }
  return entries;
}

std::optional<FoundMount> FindMount(const std::vector<MountEntry>& own,
                                    const std::vector<MountEntry>& machine,
                                    const std::string& real_dir,
                                    const std::string& devno) {
  if (auto e = ByPath(own, real_dir)) return FoundMount{*e, true};
  // A bind mount of a part of the same filesystem in this root (a chroot's
  // /usr) says as much as the filesystem's own mount elsewhere, but the
  // filesystem's root mount is what the administrator mounted.
  auto own_device = ByDevice(own, devno);
  if (own_device && own_device->root == "/")
    return FoundMount{*own_device, false};
  if (auto e = ByDevice(machine, devno); e && e->root == "/") {
    return FoundMount{*e, false};
  }
  if (own_device) return FoundMount{*own_device, false};
  if (auto e = ByDevice(machine, devno)) return FoundMount{*e, false};
  return std::nullopt;
}

std::optional<FoundMount> MountOf(const std::string& real_dir,
                                  const std::string& devno) {
  const std::vector<MountEntry> own = ReadMountInfo("/proc/self/mountinfo");
  if (auto found = ByPath(own, real_dir)) return FoundMount{*found, true};
  return FindMount(own, ReadMountInfo("/proc/1/mountinfo"), real_dir, devno);
}

}  // namespace alignbench
