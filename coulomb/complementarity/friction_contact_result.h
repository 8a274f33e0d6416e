#pragma once
// What every frictional contact (cone) solver returns. Statuses are shared with the LCP
// solvers so reports and the CLI treat both alike.

#include <Eigen/Dense>
#include <string>

#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct FrictionContactResult {
  std::string solver;  // "nsgs", "nsn", "ppa", "ipm", "portfolio/…"
  LcpStatus status = LcpStatus::kBadInput;
  Eigen::VectorXd r;   // impulses (or forces), normal first per contact
  Eigen::VectorXd u;   // W r + q
  int iterations = 0;  // sweeps / Newton iterations (summed over stages)
  double error = 0;    // FrictionContactCertificate::error of r
  FrictionContactCertificate certificate;
  double seconds = 0;
  std::string message;
  bool solved() const { return status == LcpStatus::kSolved; }
};

FrictionContactResult MakeBadFrictionContactResult(std::string solver, std::string reason);

// Certifies r on the problem and stores it; a claimed kSolved whose error exceeds `tolerance`
// becomes kInaccurate, so no cone solver can report an uncertified answer as solved.
void SetFrictionContactAnswer(const FrictionContactProblem& problem, const Eigen::VectorXd& r,
                              LcpStatus status, double tolerance, FrictionContactResult& result);

}  // namespace coulomb
