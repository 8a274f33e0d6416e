#pragma once
// `mpirun -np K coulomb sweep FILE`: rank 0 records every row and hands out run indices on
// request; every rank (rank 0 too) runs them on its own worker threads. Only each rank's main
// thread calls MPI (MPI_THREAD_FUNNELED). Built when CMake finds MPI (OpenMPI on Debian);
// otherwise a sweep started under mpirun says so and stops.

#include <atomic>
#include <functional>
#include <string>

#include "apps/coulomb/sweep/work_queue.h"

namespace coulomb::app {

struct MpiSession {
  bool active = false;  // launched by mpirun with more than one rank
  int rank = 0, size = 1;
  int local_size = 1;  // ranks on this machine
  std::string error;   // why MPI could not start ("" when fine)
};

// Starts MPI when the process was launched by mpirun/mpiexec (OpenMPI's or PMI's environment);
// a plain process stays a single rank without touching MPI.
MpiSession StartMpiIfLaunched();
void FinishMpi(const MpiSession& session);
// Rank 0's value to every rank (1 when inactive).
int BroadcastFromRankZero(const MpiSession& session, int value);

// Rank 0: answers the other ranks' requests from `queue` (shared with rank 0's own workers)
// and gives every row they send to `record`, until every other rank has finished.
void ServeOtherRanks(const MpiSession& session, WorkQueue& queue,
                     const std::function<void(const std::string&)>& record,
                     const std::atomic<bool>& interrupted);

// Any other rank: asks rank 0 for runs whenever one of `threads` workers is free, feeds them
// into `queue`, and sends their rows (from `finished`) back; closes `queue` at the end.
void WorkForRankZero(const MpiSession& session, int threads, WorkQueue& queue, Outbox& finished);

}  // namespace coulomb::app
