#include "lib/result/ioping_post.h"

#include <cmath>
#include <set>

#include "lib/base/json_parse.h"
#include "lib/io/file_io.h"
#include "lib/result/escape.h"

namespace alignbench {
namespace {

using nlohmann::json;

// A reference of a few directories is a few KiB.
constexpr std::uint64_t kMaxPostBytes = 1u << 20;

Error Wrong(const std::string& path, const std::string& key,
            const std::string& what) {
  Error error = PlainError(ErrorKind::kUsage, "read " + path,
                           "ioping_reference" + key + ": " + what);
  error.hint = "compare takes the post as it is shipped in results/reference/";
  return error;
}

// Every key of `object` is one of `keys`, and each is there.
std::optional<std::string> KeysProblem(const json& object,
                                       const std::set<std::string>& keys) {
  if (!object.is_object()) return std::string("expected an object");
  for (const auto& [key, value] : object.items()) {
    if (keys.count(key) == 0) return "unknown key '" + key + "'";
  }
  for (const std::string& key : keys) {
    if (!object.contains(key)) return "missing '" + key + "'";
  }
  return std::nullopt;
}

bool Text(const json& j, const char* key, std::string& out) {
  if (!j.at(key).is_string() || j.at(key).get<std::string>().empty()) {
    return false;
  }
  out = j.at(key).get<std::string>();
  return true;
}

bool Number(const json& j, const char* key, double& out) {
  if (!j.at(key).is_number()) return false;
  out = j.at(key).get<double>();
  return std::isfinite(out) && out >= 0;
}

// The first key of a directory's line that is wrong, or nothing.
std::optional<std::string> ReadLine(const json& j, IopingLine& line) {
  if (auto problem = KeysProblem(
          j, {"dir", "fs_type", "source", "requests", "completed_in_ms", "iops",
              "mib_per_s", "min_ms", "avg_ms", "max_ms", "mdev_ms"})) {
    return problem;
  }
  for (const auto& [key, field] :
       {std::pair{"dir", &line.dir}, std::pair{"fs_type", &line.fs_type},
        std::pair{"source", &line.source}}) {
    if (!Text(j, key, *field)) return std::string(key) + ": expected text";
  }
  const auto requests = WholeNumber(j.at("requests"));
  if (!requests || *requests == 0)
    return std::string("requests: expected 1 or more");
  line.requests = *requests;
  for (const auto& [key, field] :
       {std::pair{"completed_in_ms", &line.completed_in_ms},
        std::pair{"iops", &line.iops}, std::pair{"mib_per_s", &line.mib_per_s},
        std::pair{"min_ms", &line.min_ms}, std::pair{"avg_ms", &line.avg_ms},
        std::pair{"max_ms", &line.max_ms},
        std::pair{"mdev_ms", &line.mdev_ms}}) {
    if (!Number(j, key, *field)) {
      return std::string(key) + ": expected a number of 0 or more";
    }
  }
  if (!(line.avg_ms > 0)) return std::string("avg_ms: expected more than 0");
  return std::nullopt;
}

Result<IopingPost> ReadPost(const json& j, const std::string& path) {
  IopingPost post;
  if (auto problem = KeysProblem(
          j, {"title", "published", "source", "tool", "command", "measured",
              "request_bytes", "notes", "directories"})) {
    return Wrong(path, "", *problem);
  }
  for (const auto& [key, field] :
       {std::pair{"title", &post.title},
        std::pair{"published", &post.published},
        std::pair{"source", &post.source}, std::pair{"tool", &post.tool},
        std::pair{"command", &post.command},
        std::pair{"measured", &post.measured},
        std::pair{"notes", &post.notes}}) {
    if (!Text(j, key, *field))
      return Wrong(path, std::string(".") + key, "expected text");
  }
  const auto bytes = WholeNumber(j.at("request_bytes"));
  if (!bytes || *bytes == 0)
    return Wrong(path, ".request_bytes", "expected 1 or more");
  post.request_bytes = *bytes;
  const json& dirs = j.at("directories");
  if (!dirs.is_array() || dirs.empty() || dirs.size() > 64) {
    return Wrong(path, ".directories", "expected a list of 1 to 64");
  }
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    IopingLine line;
    if (auto problem = ReadLine(dirs[i], line)) {
      return Wrong(path, ".directories[" + std::to_string(i) + "]", *problem);
    }
    post.directories.push_back(std::move(line));
  }
  return post;
}

}  // namespace

Result<std::optional<IopingPost>> LoadIopingPost(const std::string& path) {
  // A file that cannot be read as a post's (too large, no JSON) is no post:
  // the caller's error as a result file says what is wrong with it.
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kUsage, kMaxPostBytes);
  if (!text) return std::optional<IopingPost>();
  Result<json> parsed = ParseJsonStrict(text.value());
  if (!parsed) return std::optional<IopingPost>();
  json doc = std::move(parsed).value();
  if (!doc.is_object() || !doc.contains("ioping_reference")) {
    return std::optional<IopingPost>();
  }
  EscapeControlStrings(doc);  // its text is printed
  if (doc.size() != 1) return Wrong(path, "", "expected it alone in the file");
  Result<IopingPost> post = ReadPost(doc.at("ioping_reference"), path);
  if (!post) return post.error();
  return std::optional<IopingPost>(std::move(post).value());
}

}  // namespace alignbench
