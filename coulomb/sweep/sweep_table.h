#pragma once
// A sweep's results on disk, in its output folder:
//   sweep.json   what the results belong to (sweep and scene file hashes, runs, columns)
//   sweep.yaml   a copy of the sweep file
//   runs.csv     the journal: one row per finished run, appended and flushed as each finishes
//                (in the order runs finished); what --resume reads
//   results.csv  the same rows sorted by run index (rewritten from the journal at the end)
//   results.h5   the same table as HDF5: group /runs, one dataset per column
// The journal is the one record: every other file is derived from it, so a killed sweep loses
// at most the runs in progress, and no finished run is ever done twice.

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/base/error.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/sweep/sweep_run.h"

namespace coulomb::sweep {

// One CSV line (RFC 4180 quoting, no line break) of a row, in SweepColumns order.
std::string FormatCsvRow(const SweepRow& row);
std::string FormatCsvLine(const std::vector<std::string>& fields);
// The fields of one CSV line; nullopt when the quoting is broken.
std::optional<std::vector<std::string>> ParseCsvLine(const std::string& line);

enum class JournalMode { kNew, kResume, kReplace };

class SweepJournal {
 public:
  // kNew refuses a folder that already holds a sweep's results; kReplace deletes them first
  // (--force); kResume continues them, refusing results of a different sweep or scene file.
  std::optional<InputError> Open(const SweepDefinition& sweep, const std::string& directory,
                                 JournalMode mode);
  ~SweepJournal();

  // Indices of the runs already in the journal when it was opened.
  const std::vector<bool>& done() const { return done_; }
  int done_count() const { return done_count_; }

  // Appends one row and flushes it to the kernel (and to the disk at most every 0.5 s);
  // thread-safe. Returns "" or why the row could not be written.
  std::string Append(const std::string& csv_line);
  // Flushes and syncs; then the derived files can be written.
  void Close();

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
  std::FILE* file_ = nullptr;
  std::mutex mutex_;
  std::vector<bool> done_;
  int done_count_ = 0;
  Stopwatch clock_;
  double last_sync_ = 0;
};

// The journal's rows (fields as text) sorted by run index, and what was wrong with it.
struct JournalRows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::string error;
};
JournalRows ReadJournal(const std::string& directory);

// results.csv and results.h5 from the sorted rows.
std::optional<InputError> WriteResultTables(const std::string& directory, const JournalRows& table);

}  // namespace coulomb::sweep
