#include "apps/coulomb/sweep/sweep_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "apps/coulomb/sweep/sweep_mpi.h"
#include "apps/coulomb/sweep/work_queue.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/sweep/sweep_report.h"
#include "coulomb/sweep/sweep_run.h"
#include "coulomb/sweep/sweep_table.h"

namespace coulomb::app {
namespace {

using sweep::SweepDefinition;

// Set by SIGINT/SIGTERM; read by the workers between steps and by the scheduler. A signal
// handler can only reach a flag of static storage.
std::atomic<bool> g_stop{false};
extern "C" void OnStopSignal(int /*signal*/) {
  g_stop.store(true);
}

// Done / total, failures and the time left, on a terminal as a bar, else a line every 10 %.
class SweepProgress {
 public:
  SweepProgress(int total, int done_before, bool quiet)
      : total_(total),
        done_(done_before),
        before_(done_before),
        quiet_(quiet),
        terminal_(isatty(fileno(stderr)) != 0) {}

  void Finished(bool ok) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    if (!ok) ++failed_;
    if (quiet_) return;
    const int percent = total_ > 0 ? 100 * done_ / total_ : 100;
    const double rate = (done_ - before_) / std::max(clock_.Seconds(), 1e-9);
    const double eta = rate > 0 ? (total_ - done_) / rate : 0;
    const std::string text =
        fmt::format("{:3d}% ({}/{} runs, {} not ok) ETA {}:{:02d}", percent, done_, total_, failed_,
                    static_cast<int>(eta) / 60, static_cast<int>(eta) % 60);
    if (terminal_) {
      const int width = 30, filled = width * percent / 100;
      fmt::print(stderr, "\r[{}{}] {}", std::string(filled, '#'), std::string(width - filled, '.'),
                 text);
      if (done_ == total_) fmt::print(stderr, "\n");
    } else if (percent / 10 != last_ / 10 || done_ == total_) {
      fmt::print(stderr, "progress: {}\n", text);
    }
    last_ = percent;
  }

 private:
  std::mutex mutex_;
  int total_, done_, before_, failed_ = 0, last_ = -1;
  bool quiet_, terminal_;
  Stopwatch clock_;
};

int DefaultThreads(const MpiSession& mpi) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, mpi.local_size));
}

// `--list`: the runs and their values, as the table's first columns.
void PrintRuns(const SweepDefinition& sweep) {
  std::vector<std::string> header = {"index", "point", "repeat"};
  for (const sweep::SweepParameter& p : sweep.parameters) header.push_back(p.key);
  fmt::print("{}\n", sweep::FormatCsvLine(header));
  for (int i = 0; i < sweep.NumRuns(); ++i) {
    const sweep::SweepRunSpec run = sweep::MakeRunSpec(sweep, i);
    std::vector<std::string> fields = {std::to_string(i), std::to_string(run.point),
                                       std::to_string(run.repeat)};
    for (const std::string& v : run.values) fields.push_back(v);
    fmt::print("{}\n", sweep::FormatCsvLine(fields));
  }
}

// Worker threads: each takes run indices from `queue` until it is closed and empty.
std::vector<std::thread> StartWorkers(
    const SweepDefinition& sweep, int threads, WorkQueue& queue,
    const std::function<void(std::optional<sweep::SweepRow>)>& done) {
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&sweep, &queue, done] {
      while (const std::optional<int> index = queue.Pop()) {
        done(sweep::RunSweepRun(sweep, *index, &g_stop));
      }
    });
  }
  return workers;
}

// The derived files from the journal; returns the number of recorded runs that are not ok, or
// -1 when a file could not be written (said on stderr).
int WriteSummaries(const SweepDefinition& sweep, const std::string& directory) {
  const sweep::JournalRows table = sweep::ReadJournal(directory);
  if (!table.error.empty()) {
    fmt::print(stderr, "error: {}\n", table.error);
    return -1;
  }
  if (auto e = sweep::WriteResultTables(directory, table)) {
    fmt::print(stderr, "error: {}\n", e->ToString());
    return -1;
  }
  const sweep::SweepReport report = sweep::MakeSweepReport(sweep, table);
  const std::filesystem::path dir(directory);
  std::error_code ec;
  std::filesystem::create_directories(dir / "plots", ec);
  std::ofstream(dir / "sweep.md") << report.markdown;
  for (const auto& [file, svg] : report.plots) std::ofstream(dir / file) << svg;
  return report.failures;
}

struct RunCounts {
  int recorded_now = 0, not_ok_now = 0;
  std::string write_error;
};

// Rank 0 (or the only process): records rows as they come, from its workers and other ranks.
RunCounts RunAsRecorder(const SweepDefinition& sweep, const MpiSession& mpi, int threads,
                        sweep::SweepJournal& journal, const std::vector<int>& pending, bool quiet) {
  RunCounts counts;
  std::mutex mutex;
  SweepProgress progress(sweep.NumRuns(), journal.done_count(), quiet);
  const auto record = [&](const std::string& line) {
    const std::string error = journal.Append(line);
    const std::optional<std::vector<std::string>> fields = sweep::ParseCsvLine(line);
    const std::size_t status_column = 3 + sweep.parameters.size();
    const bool ok = fields && fields->size() > status_column && (*fields)[status_column] == "ok";
    {
      const std::lock_guard<std::mutex> lock(mutex);
      ++counts.recorded_now;
      if (!ok) ++counts.not_ok_now;
      if (!error.empty() && counts.write_error.empty()) counts.write_error = error;
    }
    if (!error.empty()) g_stop.store(true);  // a row that cannot be kept stops the sweep
    progress.Finished(ok);
  };
  WorkQueue queue;
  queue.Push(pending);
  queue.Close();
  std::vector<std::thread> workers =
      StartWorkers(sweep, threads, queue, [&](std::optional<sweep::SweepRow> row) {
        if (row) record(sweep::FormatCsvRow(*row));
        if (g_stop.load()) queue.Clear();
      });
  ServeOtherRanks(mpi, queue, record, g_stop);
  for (std::thread& w : workers) w.join();
  return counts;
}

int Fail(const MpiSession& mpi, const std::string& message) {
  if (mpi.rank == 0) fmt::print(stderr, "error: {}\n", message);
  FinishMpi(mpi);
  return 2;
}

}  // namespace

int RunSweep(const SweepOptions& options) {
  const MpiSession mpi = StartMpiIfLaunched();
  if (!mpi.error.empty()) return Fail(mpi, mpi.error);
  Expected<SweepDefinition> read = sweep::ReadSweepFile(options.file);
  if (!read.ok()) return Fail(mpi, read.error().ToString());
  const SweepDefinition& sweep = read.value();
  if (options.threads && !(*options.threads >= 1 && *options.threads <= 1024)) {
    return Fail(mpi, fmt::format("--threads: {} is not in [1, 1024]", *options.threads));
  }
  if (options.resume && options.force) return Fail(mpi, "--resume and --force: choose one");
  const int threads = options.threads.value_or(DefaultThreads(mpi));
  if (options.list) {
    if (mpi.rank == 0) PrintRuns(sweep);
    FinishMpi(mpi);
    return 0;
  }
  const std::string directory = options.out.empty() ? sweep.output : options.out;
  const auto previous_int = std::signal(SIGINT, OnStopSignal);
  const auto previous_term = std::signal(SIGTERM, OnStopSignal);
  const Stopwatch clock;
  int status = 0;
  if (mpi.rank == 0) {
    sweep::SweepJournal journal;
    const sweep::JournalMode mode = options.resume  ? sweep::JournalMode::kResume
                                    : options.force ? sweep::JournalMode::kReplace
                                                    : sweep::JournalMode::kNew;
    const std::optional<InputError> opened = journal.Open(sweep, directory, mode);
    BroadcastFromRankZero(mpi, opened ? 0 : 1);
    if (opened) return Fail(mpi, opened->ToString());
    std::vector<int> pending;
    for (int i = 0; i < sweep.NumRuns(); ++i) {
      if (!journal.done()[i]) pending.push_back(i);
    }
    const int before = journal.done_count();
    const RunCounts counts = RunAsRecorder(sweep, mpi, threads, journal, pending, options.quiet);
    journal.Close();
    const int not_ok = WriteSummaries(sweep, directory);
    fmt::print(
        "sweep {}: {} of {} runs recorded ({} now, {} before) in {:.2f} s on {} rank(s) "
        "x {} thread(s); {} not ok\n  results: {}/results.csv, results.h5, sweep.md\n",
        sweep.name, before + counts.recorded_now, sweep.NumRuns(), counts.recorded_now, before,
        clock.Seconds(), mpi.size, threads, std::max(not_ok, 0), directory);
    if (!counts.write_error.empty()) {
      fmt::print(stderr, "error: {}\n", counts.write_error);
      status = 2;
    } else if (g_stop.load() && before + counts.recorded_now < sweep.NumRuns()) {
      fmt::print(stderr, "interrupted: {} runs left; `coulomb sweep {} --resume` runs them\n",
                 sweep.NumRuns() - before - counts.recorded_now, options.file);
      status = 130;
    } else if (not_ok != 0) {
      if (not_ok > 0) {
        fmt::print(stderr, "{} run(s) did not end ok; {}/sweep.md lists them with the reason\n",
                   not_ok, directory);
      }
      status = not_ok > 0 ? 1 : 2;
    }
  } else {
    if (BroadcastFromRankZero(mpi, 0) == 0) {  // rank 0 could not open its results
      FinishMpi(mpi);
      return 2;
    }
    WorkQueue queue;
    Outbox finished;
    std::vector<std::thread> workers =
        StartWorkers(sweep, threads, queue, [&](std::optional<sweep::SweepRow> row) {
          finished.Put(row ? std::optional<std::string>(sweep::FormatCsvRow(*row)) : std::nullopt);
        });
    WorkForRankZero(mpi, threads, queue, finished);
    for (std::thread& w : workers) w.join();
  }
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  FinishMpi(mpi);
  return status;
}

}  // namespace coulomb::app
