#pragma once
// The solver half of `coulomb bench peers`: every 3D frictional contact problem of the shared
// data (Siconos FC3D .dat, FCLib local and global HDF5) through our cone solvers and Siconos',
// at one tolerance on one error measure (our ABH error), with a performance profile.

#include <string>
#include <vector>

namespace coulomb::peers {

struct ProblemRun {
  std::string problem, solver;
  int contacts = 0;
  bool solved = false;  // our ABH error ≤ the tolerance
  double seconds = 0, error = 0;
  int iterations = 0;
};

// The frictional contact problem files under `data_dir` (siconos/FrictionContact, faf, fclib),
// sorted by name.
std::vector<std::string> FrictionProblemFiles(const std::string& data_dir);

// Reads each file (unreadable ones — 2D, Siconos global .dat — go to `skipped` with the reason)
// and solves it with every solver.
std::vector<ProblemRun> RunFrictionProblems(const std::vector<std::string>& files, double tolerance,
                                            std::vector<std::string>& skipped);

// Per solver: problems solved, and the median and total time over the problems every solver
// solved; then one row per problem and solver.
std::string FormatProblemTables(const std::vector<ProblemRun>& runs, double tolerance);

// Dolan–Moré performance profile: per solver, the fraction of problems it solved within a factor
// τ of the fastest solver's time, for τ from 1 to 2^10, as a self-contained SVG.
std::string PerformanceProfileSvg(const std::vector<ProblemRun>& runs);

}  // namespace coulomb::peers
