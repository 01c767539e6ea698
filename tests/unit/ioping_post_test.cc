// The 2013 post as data, and a run set beside it.
#include "lib/result/ioping_post.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "lib/render/beside_post.h"
#include "tests/unit/report_fixture.h"
#include "tests/unit/temp_dir.h"

using namespace alignbench;

namespace {

const char* kPost = ALIGNBENCH_SOURCE_DIR
    "/results/reference/ioping-2013-know-your-disk-latency.json";

IopingPost ShippedPost() {
  Result<std::optional<IopingPost>> post = LoadIopingPost(kPost);
  REQUIRE(post);
  REQUIRE(post.value());
  return *post.value();
}

// The shipped post with `from` replaced by `to` in its text.
Result<std::optional<IopingPost>> Edited(const TempDir& dir,
                                         const std::string& from,
                                         const std::string& to) {
  std::ifstream in(kPost);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
  const std::string path = dir.path() + "/post.json";
  std::ofstream(path) << s;
  return LoadIopingPost(path);
}

}  // namespace

TEST_CASE("The post's three summaries, as printed") {
  const IopingPost post = ShippedPost();
  CHECK(post.measured == "reads");
  CHECK(post.request_bytes == 1048576);
  REQUIRE(post.directories.size() == 3);
  CHECK(post.directories[0].fs_type == "nfs");
  CHECK(post.directories[0].avg_ms == 9.8);
  CHECK(post.directories[1].iops == 201);
  CHECK(post.directories[2].source == "none");
}

TEST_CASE("A broken post is refused with the key that is wrong") {
  TempDir dir;
  auto unknown = Edited(dir, "\"tool\"", "\"tools\"");
  REQUIRE_FALSE(unknown);
  CHECK_THAT(unknown.error().Message(), Catch::Contains("unknown key 'tools'"));
  auto negative = Edited(dir, "\"avg_ms\": 5.0", "\"avg_ms\": -5.0");
  REQUIRE_FALSE(negative);
  CHECK_THAT(negative.error().Message(),
             Catch::Contains("ioping_reference.directories[1]: avg_ms"));
  auto fraction = Edited(dir, "\"requests\": 10", "\"requests\": 10.5");
  REQUIRE_FALSE(fraction);
  CHECK_THAT(fraction.error().Message(), Catch::Contains("requests"));
  // A result file, or no JSON at all, is no post: nothing, no error.
  auto result = LoadIopingPost(ALIGNBENCH_SOURCE_DIR
                               "/results/vm-loop/cold-rmw-ext4-4k.json");
  REQUIRE(result);
  CHECK_FALSE(result.value());
}

TEST_CASE("A run beside the post: labelled, and the post's question answered") {
  const Report run = testing::FixedReport();  // ext4, 64K and 4K: no 1M pair
  std::ostringstream out;
  RenderBesidePost(out, ShippedPost(), {run});
  const std::string text = out.str();
  CHECK_THAT(text, Catch::Contains("the post measured reads and the run "
                                   "synced writes"));
  CHECK_THAT(text, Catch::Contains(
                       "  post  --- /home/kilo (nfs fs1.kilo.com:/vol/home/"
                       "kilo) ioping statistics ---\n        10 requests "
                       "completed in 9101.5 ms, 102 iops, 102.1 MiB/s\n"));
  CHECK_THAT(text, Catch::Contains("   run  no 1M pair in this run: its "
                                   "largest, 64K, aligned, then shifted:"));
  CHECK_THAT(text, Catch::Contains("network filesystem  post 1.96 x (9.8 / "
                                   "5 ms)   run n/a"));
  // The local disk's lines come before memory's.
  CHECK(text.find("64K fdatasync") < text.find("\nmemory:"));
}
