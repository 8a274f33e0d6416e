#include "apps/coulomb/sweep/sweep_mpi.h"

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#ifdef COULOMB_HAVE_MPI
#include <mpi.h>
#endif

namespace coulomb::app {
namespace {

bool LaunchedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

}  // namespace

#ifdef COULOMB_HAVE_MPI
namespace {

constexpr int kTagRequest = 1, kTagReply = 2;

// A request: "want done\n" then one CSV row per line. A reply: "end i1 i2 …".
void SendText(const std::string& text, int to, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Polled, not MPI_Probe: OpenMPI's blocking probe spins a core, which on a machine with as many
// ranks as cores is the core rank 0's own runs need (2 ranks on 2 cores did 1.03× one rank's work
// with the blocking probe).
std::string ReceiveText(int from, int tag, int* source) {
  MPI_Status status;
  for (int pending = 0;;) {
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &pending, &status);
    if (pending != 0) break;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<std::size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (source != nullptr) *source = status.MPI_SOURCE;
  return text;
}

}  // namespace

MpiSession StartMpiIfLaunched() {
  MpiSession s;
  if (!LaunchedByMpirun()) return s;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    s.error = "MPI_Init_thread failed";
    return s;
  }
  if (provided < MPI_THREAD_FUNNELED) {
    s.error = "the MPI library does not support threads (MPI_THREAD_FUNNELED)";
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  s.local_size = EnvInt("OMPI_COMM_WORLD_LOCAL_SIZE", s.size);
  s.active = true;
  return s;
}

void FinishMpi(const MpiSession& session) {
  if (session.active) MPI_Finalize();
}

int BroadcastFromRankZero(const MpiSession& session, int value) {
  if (!session.active) return value;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

void ServeOtherRanks(const MpiSession& session, WorkQueue& queue,
                     const std::function<void(const std::string&)>& record,
                     const std::atomic<bool>& interrupted) {
  int finished_ranks = 0;
  while (finished_ranks < session.size - 1) {
    int pending = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
    if (pending == 0) {  // poll gently: this thread shares the cores with the workers
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      continue;
    }
    int source = 0;
    std::istringstream request(ReceiveText(MPI_ANY_SOURCE, kTagRequest, &source));
    int want = 0, done = 0;
    request >> want >> done;
    std::string line;
    std::getline(request, line);  // the rest of the first line
    while (std::getline(request, line)) {
      if (!line.empty()) record(line);
    }
    if (done != 0) {
      ++finished_ranks;
      continue;
    }
    if (interrupted.load()) queue.Clear();
    std::string reply;
    int given = 0;
    for (; given < want; ++given) {
      const std::optional<int> index = queue.TryPop();
      if (!index) break;
      reply.append(" ").append(std::to_string(*index));
    }
    // Nothing more to give once the queue is empty: rank 0's queue is filled once, up front.
    const bool end = given < want || queue.Empty();
    SendText((end ? "1" : "0") + reply, source, kTagReply);
  }
}

void WorkForRankZero(const MpiSession& /*session*/, int threads, WorkQueue& queue,
                     Outbox& finished) {
  // Runs held at once: four times the threads, so a thread that finishes finds the next run queued
  // instead of waiting a round trip to rank 0 (short runs of ~1 ms are as long as that trip).
  // Which rank runs which index never changes a run's result, only the schedule.
  const int depth = 4 * threads;
  int outstanding = 0;
  bool no_more = false;
  std::vector<std::string> unsent;
  while (true) {
    for (std::optional<std::string>& row : finished.Take(std::chrono::milliseconds(
             outstanding > 0 && (no_more || outstanding >= depth) ? 50 : 0))) {
      --outstanding;
      if (row) unsent.push_back(std::move(*row));
    }
    const bool last = no_more && outstanding == 0;
    const int want = no_more ? 0 : depth - outstanding;
    if (!last && want == 0 && unsent.empty()) continue;
    std::string request = std::to_string(want) + " " + (last ? "1" : "0") + "\n";
    for (const std::string& row : unsent) request += row + "\n";
    unsent.clear();
    SendText(request, 0, kTagRequest);
    if (last) break;
    std::istringstream reply(ReceiveText(0, kTagReply, nullptr));
    int end = 0;
    reply >> end;
    std::vector<int> indices;
    for (int i = 0; reply >> i;) indices.push_back(i);
    outstanding += static_cast<int>(indices.size());
    queue.Push(indices);
    no_more = no_more || end != 0;
  }
  queue.Close();
}

#else

MpiSession StartMpiIfLaunched() {
  MpiSession s;
  if (LaunchedByMpirun() && EnvInt("OMPI_COMM_WORLD_SIZE", EnvInt("PMI_SIZE", 1)) > 1) {
    s.error = "this coulomb was built without MPI (install libopenmpi-dev and rebuild)";
  }
  return s;
}
void FinishMpi(const MpiSession&) {}
int BroadcastFromRankZero(const MpiSession&, int value) {
  return value;
}
void ServeOtherRanks(const MpiSession&, WorkQueue&, const std::function<void(const std::string&)>&,
                     const std::atomic<bool>&) {}
void WorkForRankZero(const MpiSession&, int, WorkQueue& queue, Outbox&) {
  queue.Close();
}

#endif

}  // namespace coulomb::app
