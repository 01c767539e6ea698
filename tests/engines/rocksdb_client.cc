// The engine test's RocksDB client: N single-key Puts with WriteOptions.sync
// (fdatasync at each), the WAL in its own directory, and a copy of a device's
// stat file taken just before the first commit and just after the last, so
// that the test counts the commits' device I/O alone. A test tool, built only
// where librocksdb-dev is installed.
//
//   rocksdb_client DB_DIR WAL_DIR new|recycled COMMITS STAT_FILE OUT_PREFIX
//
// new: the commits go to the log a fresh database opens (RocksDB's default).
// recycled: recycle_log_file_num=1 with wal_recovery_mode
// kSkipAnyCorruptedRecords (RocksDB 7.8 resets recycle_log_file_num to 0 for
// every other recovery mode, and says so in its LOG); COMMITS Puts fill a
// first log, two memtable flushes make it obsolete and reuse it, and the
// measured commits go into that reused file.
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

namespace {

int Fail(const std::string& what, const rocksdb::Status& status) {
  std::cerr << "rocksdb_client: " << what << ": " << status.ToString() << "\n";
  return 2;
}

bool CopyFile(const std::string& from, const std::string& to) {
  std::ifstream in(from);
  std::ofstream out(to);
  out << in.rdbuf();
  return in.good() && out.good();
}

rocksdb::Status Commits(rocksdb::DB* db, int first, int count) {
  rocksdb::WriteOptions sync;
  sync.sync = true;
  // One row: a short key and a value of 100 bytes, as a single-row INSERT.
  const std::string value(100, 'v');
  for (int i = first; i < first + count; ++i) {
    char key[32];
    std::snprintf(key, sizeof key, "row%08d", i);
    rocksdb::Status status = db->Put(sync, key, value);
    if (!status.ok()) return status;
  }
  return rocksdb::Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::cerr << "usage: rocksdb_client DB_DIR WAL_DIR new|recycled COMMITS "
                 "STAT_FILE OUT_PREFIX\n";
    return 1;
  }
  const std::string db_dir = argv[1], wal_dir = argv[2], mode = argv[3];
  const int commits = std::atoi(argv[4]);
  const std::string stat = argv[5], out = argv[6];
  if ((mode != "new" && mode != "recycled") || commits < 1 ||
      commits > 1000000) {
    std::cerr << "rocksdb_client: mode must be new or recycled, COMMITS 1 to "
                 "1000000\n";
    return 1;
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  options.wal_dir = wal_dir;
  if (mode == "recycled") {
    options.recycle_log_file_num = 1;
    options.wal_recovery_mode =
        rocksdb::WALRecoveryMode::kSkipAnyCorruptedRecords;
  }
  rocksdb::DB* raw = nullptr;
  rocksdb::Status status = rocksdb::DB::Open(options, db_dir, &raw);
  if (!status.ok()) return Fail("open " + db_dir, status);
  std::unique_ptr<rocksdb::DB> db(raw);
  int next = 0;
  if (mode == "recycled") {
    // The first log, as long as the measured commits will make its successor;
    // a flush makes it obsolete (kept for recycling), and a second flush, of a
    // memtable that holds a row (an empty one is not switched), reuses it.
    for (int flush = 0; flush < 2; ++flush) {
      const int rows = flush == 0 ? commits : 1;
      status = Commits(db.get(), next, rows);
      if (!status.ok()) return Fail("put", status);
      next += rows;
      status = db->Flush(rocksdb::FlushOptions());
      if (!status.ok()) return Fail("flush", status);
    }
  }
  if (!CopyFile(stat, out + ".before")) {
    std::cerr << "rocksdb_client: cannot copy " << stat << "\n";
    return 2;
  }
  status = Commits(db.get(), next, commits);
  if (!status.ok()) return Fail("put", status);
  if (!CopyFile(stat, out + ".after")) {
    std::cerr << "rocksdb_client: cannot copy " << stat << "\n";
    return 2;
  }
  status = db->Close();
  if (!status.ok()) return Fail("close", status);
  return 0;
}
