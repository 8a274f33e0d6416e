#pragma once
// The contact sweeps' answer checked against the assembled problem they never form: ABH's error
// from the assembled W and q (friction_cone.h), and v⁺ from the assembled M⁻¹ Jᵀ.

#include <gtest/gtest.h>

#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"

namespace coulomb {

struct AssembledCheck {
  FrictionContactProblem fc;  // FC(W, q, μ) assembled
  FrictionContactCertificate certificate;
};

// Expects the answer to pass the assembled certificate at `tolerance`, to report that same error
// (to `error_slack`), and its v to be v* + M⁻¹ Jᵀ r to `velocity_tolerance` relative.
inline AssembledCheck ExpectAssembledCertificate(const contact::ContactProblem& problem,
                                                 const ContactSweepResult& result, double tolerance,
                                                 double error_slack, double velocity_tolerance) {
  const LocalContactProblem local = MakeLocalContactProblem(problem, PositionCorrection{});
  AssembledCheck check;
  check.fc.W = local.W;
  check.fc.q = local.q;
  check.fc.mu = problem.mu;
  check.certificate = CertifyFrictionContact(check.fc, result.r);
  EXPECT_LE(check.certificate.error, tolerance);
  EXPECT_NEAR(check.certificate.error, result.error, error_slack);
  const Eigen::VectorXd v = problem.v_star + local.MinvJt * result.r;
  EXPECT_LT((v - result.v).norm(), velocity_tolerance * (1 + v.norm()));
  return check;
}

// The pyramid law's per-contact unknowns (p_n, β_1..d, λ) of `result` laid out as the full
// Stewart–Trinkle LCP of the assembled W orders them (stewart_trinkle_lcp.h): all p_n, then each
// contact's β, then all λ.
inline Eigen::VectorXd StewartTrinkleUnknowns(const ContactSweepResult& result, int nc, int d) {
  Eigen::VectorXd z(nc * (d + 2));
  for (int k = 0; k < nc; ++k) {
    const double* zk = result.pyramid.data() + (d + 2) * k;
    z[k] = zk[0];
    for (int j = 0; j < d; ++j) z[nc + k * d + j] = zk[1 + j];
    z[nc * (1 + d) + k] = zk[d + 1];
  }
  return z;
}

}  // namespace coulomb
