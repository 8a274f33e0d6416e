// The Schur complement over participating DoFs (paper 2 §V; docs/notes/sap-and-deformables.md §2.3)
// against solving the full system, on soft blocks of about 1k, 10k and 50k tetrahedra pressed
// onto the ground (every bottom vertex in contact; δt = 10 ms).
//
// reduced: factor A once with the non-participating DoFs eliminated (sparse Cholesky, AMD),
//          which gives v* and Â; SAP's Newton on the participating DoFs (dense Â + Jᵀ G J);
//          recover the eliminated velocities.
// full:    Newton on all 3n DoFs, refactoring the sparse H = A + Jᵀ G J every iteration (the
//          same CHOLMOD supernodal Cholesky, symbolic analysis once), backtracking line search.
// Both must give the same velocities: the largest difference is printed as a certificate.
//
//   ./build/bin/schur_bench [--json]
#include <fmt/format.h>

#include <Eigen/CholmodSupport>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "coulomb/base/guarded_main.h"
#include "coulomb/base/numerics_threads.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/convex/sap_constraint_builders.h"
#include "coulomb/convex/sap_problem.h"
#include "coulomb/convex/sap_solver.h"
#include "coulomb/fem/fem_model.h"
#include "coulomb/fem/schur_complement.h"
#include "coulomb/math/contact_frame.h"

namespace coulomb {
namespace {

struct Row {
  std::string contact;
  int tets = 0, dofs = 0, participating = 0;
  double reduced_ms = 0, schur_ms = 0, sap_ms = 0;
  int reduced_iterations = 0;
  double full_ms = 0;
  int full_iterations = 0;
  double difference = 0;  // max |v_reduced − v_full|, m/s
};

struct Block {
  fem::FemBody body;
  fem::FemState state;
  std::vector<int> contact_vertices;  // the bottom face, sorted
};

// Contact on the whole bottom face (patch = ∞), or on the bottom vertices within `patch` (m) of
// the centre — a block resting on a bump, the case paper 2 targets (few participating DoFs).
Block MakeBlock(const Eigen::Vector3i& cells, double patch) {
  Block b;
  b.body = fem::MakeFemBody("block", fem::MakeBoxMesh(Eigen::Vector3d(0.2, 0.2, 0.05), cells),
                            {1e5, 0.3}, 1000);
  b.body.stiffness_damping = 0.01;
  b.state = fem::MakeRestState(b.body);
  b.state.x.row(2).array() += 0.05 - 1e-4;  // bottom face 0.1 mm into the ground
  b.state.v.row(2).setConstant(-0.1);       // landing at 0.1 m/s
  for (int a = 0; a < b.body.rest.num_vertices(); ++a) {
    const Eigen::Vector3d x = b.body.rest.vertices.col(a);
    if (x.z() < -0.05 + 1e-12 && x.head<2>().norm() <= patch) b.contact_vertices.push_back(a);
  }
  return b;
}

// The contact constraints of the bottom vertices on the participating clique (3 per vertex,
// normal +z), with R and v̂ from the reduced problem's Delassus estimate.
void AddContacts(const Block& b, convex::SapProblem& sap) {
  const Eigen::Index m = sap.cliques[0].size();
  for (std::size_t k = 0; k < b.contact_vertices.size(); ++k) {
    convex::SapJacobian jac;
    jac.name = fmt::format("vertex {}", b.contact_vertices[k]);
    jac.clique_a = 0;
    jac.J_a = Eigen::MatrixXd::Zero(3, m);
    jac.J_a.middleCols<3>(3 * static_cast<Eigen::Index>(k)) =
        math::ContactFrame(Eigen::Vector3d::UnitZ()).transpose();
    convex::ContactParameters contact;
    contact.phi0 = b.state.x(2, b.contact_vertices[k]);
    contact.mu = 0.5;
    contact.dissipation_time_scale = sap.time_step;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    sap.constraints.push_back(
        convex::MakeContactConstraint(std::move(jac), contact, W, sap.time_step, {}));
  }
}

// Newton on all DoFs with the constraints of `reduced` (whose Jacobian blocks are the
// participating vertices' rows). Returns the velocities and counts iterations.
Eigen::VectorXd SolveFull(const Block& b, const fem::FemStepSystem& system,
                          const convex::SapProblem& reduced, int& iterations) {
  using Sparse = Eigen::SparseMatrix<double>;
  // H has A's pattern (a vertex contact touches its own 3 × 3 block): one symbolic analysis,
  // then a numeric factorization per Newton iteration; v* from the first.
  Eigen::CholmodSupernodalLLT<Sparse, Eigen::Lower> llt;
  llt.compute(system.A);
  const Eigen::VectorXd v_star = llt.solve(system.rhs);
  Eigen::VectorXd v = b.state.Velocities();
  const auto vertex_rows = [&](std::size_t k) { return 3 * b.contact_vertices[k]; };
  const auto cost = [&](const Eigen::VectorXd& x, Eigen::VectorXd* gradient, Sparse* H) {
    const Eigen::VectorXd dv = x - v_star;
    const Eigen::VectorXd Adv = system.A * dv;
    double ell = 0.5 * dv.dot(Adv);
    if (gradient != nullptr) *gradient = Adv;
    if (H != nullptr) *H = system.A;
    for (std::size_t k = 0; k < reduced.constraints.size(); ++k) {
      const convex::SapConstraint& c = reduced.constraints[k];
      const Eigen::Matrix3d Rt = c.jacobian.J_a.middleCols<3>(3 * static_cast<Eigen::Index>(k));
      const Eigen::Vector3d vc = Rt * x.segment<3>(vertex_rows(k));
      const convex::ConstraintEvaluation e = convex::EvaluateConstraint(c, vc);
      ell += e.cost;
      if (gradient != nullptr) gradient->segment<3>(vertex_rows(k)) -= Rt.transpose() * e.gamma;
      if (H != nullptr) {
        const Eigen::Matrix3d block = Rt.transpose() * e.G * Rt;
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j)
            H->coeffRef(vertex_rows(k) + i, vertex_rows(k) + j) += block(i, j);
        }
      }
    }
    return ell;
  };
  const double scale = (system.A.diagonal().cwiseSqrt().asDiagonal() * v_star).norm() + 1e-300;
  for (iterations = 0; iterations < 100; ++iterations) {
    Eigen::VectorXd g;
    Sparse H;
    const double ell = cost(v, &g, &H);
    if ((system.A.diagonal().cwiseSqrt().cwiseInverse().asDiagonal() * g).norm() <= 1e-6 * scale)
      break;
    llt.factorize(H);
    const Eigen::VectorXd dv = -llt.solve(g);
    double alpha = 1;  // backtracking (Armijo)
    while (alpha > 1e-8 &&
           cost(v + alpha * dv, nullptr, nullptr) > ell + 1e-4 * alpha * g.dot(dv)) {
      alpha *= 0.5;
    }
    v += alpha * dv;
  }
  return v;
}

Row Measure(const Eigen::Vector3i& cells, double patch) {
  const Block b = MakeBlock(cells, patch);
  Row row;
  row.contact = std::isfinite(patch) ? fmt::format("patch r={:g}", patch) : "face";
  row.tets = b.body.rest.num_tets();
  row.dofs = 3 * b.body.rest.num_vertices();
  const double dt = 0.01;
  // Reduced.
  Stopwatch clock;
  const fem::FemStepSystem system = fem::AssembleFemStep(b.body, b.state, dt);
  const double assembly = clock.Lap();
  std::vector<int> dofs;
  for (const int a : b.contact_vertices) {
    for (int i = 0; i < 3; ++i) dofs.push_back(3 * a + i);
  }
  row.participating = static_cast<int>(dofs.size());
  const fem::SchurComplement schur(system.A, dofs);
  const Eigen::VectorXd v_star = schur.Solve(system.rhs);
  row.schur_ms = 1e3 * clock.Lap();
  convex::SapProblem sap;
  sap.time_step = dt;
  sap.cliques.push_back({0, schur.reduced(), {}});
  sap.v_star.resize(row.participating);
  Eigen::VectorXd guess(row.participating);
  for (int i = 0; i < row.participating; ++i) {
    sap.v_star[i] = v_star[dofs[i]];
    guess[i] = b.state.Velocities()[dofs[i]];
  }
  AddContacts(b, sap);
  const convex::SapResult r = convex::SolveSap(sap, {}, guess);
  const Eigen::VectorXd v_reduced = v_star + schur.Extend(r.v - sap.v_star);
  row.sap_ms = 1e3 * clock.Lap();
  row.reduced_iterations = r.iterations;
  row.reduced_ms = 1e3 * assembly + row.schur_ms + row.sap_ms;
  // Full.
  clock.Lap();
  const fem::FemStepSystem again = fem::AssembleFemStep(b.body, b.state, dt);
  const Eigen::VectorXd v_full = SolveFull(b, again, sap, row.full_iterations);
  row.full_ms = 1e3 * clock.Lap();
  row.difference = (v_full - v_reduced).cwiseAbs().maxCoeff();
  return row;
}

}  // namespace
}  // namespace coulomb

namespace {

int Run(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();
  bool json = false;
  int max_tets = 1 << 30;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) json = true;
    if (std::strcmp(argv[i], "--max-tets") == 0 && i + 1 < argc) max_tets = std::atoi(argv[++i]);
  }
  const Eigen::Vector3i sizes[] = {{8, 8, 3}, {18, 18, 6}, {30, 30, 10}};
  if (!json) {
    fmt::print("{:>12} {:>6} {:>6} {:>5} | {:>9} {:>9} {:>8} {:>3} | {:>9} {:>3} | {:>8}\n",
               "contact", "tets", "dofs", "part", "reduced", "schur", "sap", "it", "full", "it",
               "max|dv|");
  }
  for (const double patch : {0.06, double(INFINITY)}) {
    for (const Eigen::Vector3i& cells : sizes) {
      if (6 * cells.prod() > max_tets) break;
      const coulomb::Row r = coulomb::Measure(cells, patch);
      if (json) {
        fmt::print(
            "{{\"contact\": \"{}\", \"tets\": {}, \"dofs\": {}, \"participating\": {}, "
            "\"reduced_ms\": {:.2f}, "
            "\"schur_ms\": {:.2f}, \"sap_ms\": {:.2f}, \"reduced_iterations\": {}, \"full_ms\": "
            "{:.2f}, \"full_iterations\": {}, \"max_velocity_difference\": {:.3g}}}\n",
            r.contact, r.tets, r.dofs, r.participating, r.reduced_ms, r.schur_ms, r.sap_ms,
            r.reduced_iterations, r.full_ms, r.full_iterations, r.difference);
      } else {
        fmt::print(
            "{:>12} {:>6} {:>6} {:>5} | {:>7.1f}ms {:>7.1f}ms {:>6.1f}ms {:>3} | {:>7.1f}ms {:>3} "
            "| {:>8.2g}\n",
            r.contact, r.tets, r.dofs, r.participating, r.reduced_ms, r.schur_ms, r.sap_ms,
            r.reduced_iterations, r.full_ms, r.full_iterations, r.difference);
      }
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return coulomb::GuardedMain([&] { return Run(argc, argv); });
}
