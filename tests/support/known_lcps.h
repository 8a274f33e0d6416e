#pragma once
// Small LCPs whose answers are known by hand, shared by several test files.

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::testing {

// M = [[2, 1], [1, 2]], q = (−5, −6): SPD, unique solution z = (4/3, 7/3), w = 0
// (Siconos' lcp_deudeu.dat).
inline LcpProblem Deudeu() {
  LcpProblem p;
  p.M.resize(2, 2);
  p.M << 2, 1, 1, 2;
  p.q = Eigen::Vector2d(-5, -6);
  p.name = "deudeu";
  return p;
}

// M = [[1, −1], [−1, 1]] (PSD, so copositive-plus), q = (−1, −1): w1 + w2 = −2 < 0 for every z,
// so there is no solution; Lemke must end on a ray (CPS Thm 4.4.13).
inline LcpProblem InfeasiblePsd() {
  LcpProblem p;
  p.M.resize(2, 2);
  p.M << 1, -1, -1, 1;
  p.q = Eigen::Vector2d(-1, -1);
  p.name = "infeasible-psd";
  return p;
}

}  // namespace coulomb::testing
