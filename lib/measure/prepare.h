// A run's files, made ready before the clock starts (fio's file setup): the
// log created in the run's directory, laid out (extend, prealloc, prewritten),
// its header written and all of it on disk, then reopened with the run's sync
// and direct flags; a replay's other files laid out as its trace found them,
// and their directory for a sync_dir; the pages dropped for --cache cold. Then
// the files as a replay's ops name them: created again, unlinked. Every call
// goes through the spec's FileOps. Destroying it removes every file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/io/fd.h"
#include "lib/io/file_ops.h"
#include "lib/io/test_file.h"
#include "lib/measure/run_spec.h"

namespace alignbench {

class RunFiles final {
 public:
  // The log, on disk and reopened: the run's measurement descriptor.
  static Result<std::unique_ptr<RunFiles>> Prepare(const RunSpec& spec);
  // A replay's other files and their directory, on disk.
  Status PrepareOthers(const RunSpec& spec);
  // --cache cold: every file's pages dropped (each synced first), and how
  // many pages of the log's first `span` bytes stayed (nullopt: not known).
  Result<std::optional<std::uint64_t>> DropCache(std::uint64_t span);

  // The log's measurement descriptor (sync and direct flags applied); -1
  // once Close()d.
  int fd() const { return fd_.get(); }
  const std::string& LogPath() const { return log_.path(); }
  // A replay's file `file` (0: the log), or an error if the trace unlinked it.
  Result<int> FdOf(std::uint64_t file) const;
  // Its path; the directory's where it is unlinked.
  std::string PathOf(std::uint64_t file) const;
  int DirFd() const { return dir_.get(); }
  const std::string& Dir() const { return dir_path_; }
  // A replay's create: other file `file` made again, empty, under a new
  // private name; its unlink.
  Status Create(std::uint64_t file);
  void Unlink(std::uint64_t file);
  // The other files that exist now.
  std::vector<int> OtherFds() const;
  // The measurement descriptor closed (the files stay until destruction).
  void Close() { fd_.Reset(); }

 private:
  RunFiles(TestFile log, UniqueFd fd, std::string dir, FileOps& ops);

  TestFile log_;
  UniqueFd fd_;
  // A replay's other files (op file k + 1), each private like the log's;
  // none between an unlink and the create that makes it again.
  std::vector<std::optional<TestFile>> others_;
  // Their directory, for a replay's sync_dir.
  UniqueFd dir_;
  std::string dir_path_;
  FileOps* ops_;
};

}  // namespace alignbench
