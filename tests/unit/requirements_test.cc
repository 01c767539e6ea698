// A case file's "requires": parsed against the known names, checked against a
// hand-made probe.
#include "lib/env/requirements.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "lib/config/case_file.h"

using namespace alignbench;

TEST_CASE("requires: known names, a single name, or none") {
  Settings s;
  REQUIRE(ApplyCaseText(R"({"requires": ["block device", "root", "O_DIRECT"]})",
                        "t", s)
              .ok());
  CHECK(s.case_requires == std::vector<Requirement>{Requirement::kBlockDevice,
                                                    Requirement::kRoot,
                                                    Requirement::kDirectIo});
  REQUIRE(ApplyCaseText(R"({"requires": "root"})", "t", s).ok());
  CHECK(s.case_requires == std::vector<Requirement>{Requirement::kRoot});
  REQUIRE(ApplyCaseText(R"({"requires": []})", "t", s).ok());
  CHECK(s.case_requires.empty());
}

TEST_CASE("requires: an unknown requirement is a case-file error") {
  Settings s;
  const Status bad = ApplyCaseText(R"({"requires": ["a fast disk"]})", "t", s);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().kind == ErrorKind::kUsage);
  CHECK_THAT(bad.error().Message(),
             Catch::Contains("unknown value 'a fast disk'") &&
                 Catch::Contains("block device, root, O_DIRECT"));
}

TEST_CASE("An unmet requirement is a setup error naming what is missing") {
  TargetInfo target;
  target.dir = "/nonexistent/alignbench-requirements-test";
  target.no_device_reason = "no block device under this directory (tmpfs)";
  CHECK(CheckRequirements({}, target).ok());

  const Status no_device =
      CheckRequirements({Requirement::kBlockDevice}, target);
  REQUIRE_FALSE(no_device.ok());
  CHECK(no_device.error().kind == ErrorKind::kSetup);
  CHECK(ExitCodeFor(no_device.error().kind) == 2);
  CHECK_THAT(no_device.error().Message(),
             Catch::Contains("'block device' is not met (no block device "
                             "under this directory (tmpfs))"));
  target.device = DeviceInfo{};
  CHECK(CheckRequirements({Requirement::kBlockDevice}, target).ok());

  // A directory where no file can be made cannot open one with O_DIRECT.
  const Status direct = CheckRequirements({Requirement::kDirectIo}, target);
  REQUIRE_FALSE(direct.ok());
  CHECK_THAT(direct.error().Message(),
             Catch::Contains("'O_DIRECT' is not met"));

  const Status root = CheckRequirements({Requirement::kRoot}, target);
  CHECK(root.ok() == (::geteuid() == 0));
  if (!root.ok()) {
    CHECK_THAT(root.error().Message(),
               Catch::Contains("'root' is not met (not running as root)"));
  }
}
