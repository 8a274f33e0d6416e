// Deformable-body dynamics and the Schur complement against independent truths: the dense
// Schur formula, a free fall, and Euler–Bernoulli beam theory for a cantilever under gravity.
#include "coulomb/fem/fem_model.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>

#include "coulomb/fem/schur_complement.h"

namespace coulomb::fem {
namespace {

FemBody Box(const Eigen::Vector3d& half, const Eigen::Vector3i& cells, double E) {
  return MakeFemBody("box", MakeBoxMesh(half, cells), LinearElasticity{E, 0.3}, 1000);
}

TEST(SchurComplement, EqualsTheDenseFormulaAndSolvesLikeTheFullSystem) {
  FemBody body = Box(Eigen::Vector3d(0.2, 0.1, 0.1), {3, 2, 2}, 1e5);
  const FemState state = MakeRestState(body);
  const FemFreeMotion free = CalcFemFreeMotion(body, state, 0.01);
  ASSERT_TRUE(free.ok);
  // The bottom vertices participate (as contact would make them).
  std::vector<int> participating;
  for (int a = 0; a < body.rest.num_vertices(); ++a) {
    if (body.rest.vertices(2, a) < -0.09) {
      for (int i = 0; i < 3; ++i) participating.push_back(3 * a + i);
    }
  }
  const SchurComplement schur(free.A, participating);
  ASSERT_TRUE(schur.ok());
  const Eigen::MatrixXd A = Eigen::MatrixXd(free.A);
  std::vector<int> eliminated;
  for (int i = 0; i < A.rows(); ++i) {
    if (!std::binary_search(participating.begin(), participating.end(), i)) eliminated.push_back(i);
  }
  const auto pick = [&](const std::vector<int>& r, const std::vector<int>& c) {
    Eigen::MatrixXd S(r.size(), c.size());
    for (std::size_t i = 0; i < r.size(); ++i)
      for (std::size_t j = 0; j < c.size(); ++j) S(i, j) = A(r[i], c[j]);
    return S;
  };
  const Eigen::MatrixXd dense =
      pick(participating, participating) -
      pick(participating, eliminated) *
          pick(eliminated, eliminated).llt().solve(pick(eliminated, participating));
  EXPECT_LT((schur.reduced() - dense).norm(), 1e-9 * dense.norm());
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1, 2);
  EXPECT_LT((schur.Solve(b) - A.llt().solve(b)).norm(), 1e-9 * A.llt().solve(b).norm());
  // Extend: the eliminated rows of A Δv vanish (Δv_n = −A_nn⁻¹ A_np Δv_p).
  const Eigen::VectorXd dv = schur.Extend(Eigen::VectorXd::Ones(participating.size()));
  const Eigen::VectorXd r = A * dv;
  for (int i : eliminated) EXPECT_NEAR(r[i], 0.0, 1e-9 * A.norm());
}

// A factor kept by the caller: the second Schur complement over the same DoFs reuses the
// analysis and is the first one bit for bit; other DoFs make it analyse again, and its answer is
// a fresh factor's.
TEST(SchurComplement, AKeptFactorIsReusedAndChangesNoBit) {
  FemBody body = Box(Eigen::Vector3d(0.2, 0.1, 0.1), {3, 2, 2}, 1e5);
  const FemFreeMotion free = CalcFemFreeMotion(body, MakeRestState(body), 0.01);
  ASSERT_TRUE(free.ok);
  const auto dofs_below = [&](double z) {
    std::vector<int> out;
    for (int a = 0; a < body.rest.num_vertices(); ++a) {
      if (body.rest.vertices(2, a) < z) {
        for (int i = 0; i < 3; ++i) out.push_back(3 * a + i);
      }
    }
    return out;
  };
  math::CholeskyFactor kept;
  const SchurComplement fresh(free.A, dofs_below(-0.09));
  const SchurComplement first(free.A, dofs_below(-0.09), &kept);
  const SchurComplement second(free.A, dofs_below(-0.09), &kept);
  EXPECT_EQ(kept.symbolic_analyses(), 1);
  EXPECT_EQ(kept.factorizations(), 2);
  EXPECT_EQ(second.reduced(), fresh.reduced());
  const SchurComplement other(free.A, dofs_below(0.05), &kept);
  EXPECT_EQ(kept.symbolic_analyses(), 2);
  EXPECT_EQ(other.reduced(), SchurComplement(free.A, dofs_below(0.05)).reduced());
}

TEST(FemModel, UndeformedBodyFallsFreely) {
  for (const double theta : {0.5, 1.0, 0.75}) {
    FemBody body = Box(Eigen::Vector3d(0.1, 0.1, 0.1), {2, 2, 2}, 1e5);
    body.position_theta = theta == 0.75 ? 1.0 : theta;
    body.consistent_mass = theta == 0.75;  // the third run: θ = 1 with the consistent mass
    FemState state = MakeRestState(body);
    state.v.colwise() = Eigen::Vector3d(0.5, 0, 0);
    const double dt = 0.01;
    const int n = 10;
    for (int k = 0; k < n; ++k) {
      const FemFreeMotion free = CalcFemFreeMotion(body, state, dt);
      ASSERT_TRUE(free.ok);
      AdvanceFem(body, state, free.v_star, dt);
    }
    // Uniform velocity (0.5, 0, −g t); positions from the trapezoidal rule (θ = ½, exact here)
    // or from x += δt v (θ = 1: −g δt² n (n + 1)/2, as rigid bodies fall).
    const double t = n * dt;
    const double drop =
        body.position_theta == 0.5 ? 0.5 * 9.81 * t * t : 0.5 * 9.81 * dt * dt * n * (n + 1);
    for (int a = 0; a < body.rest.num_vertices(); ++a) {
      EXPECT_LT((state.v.col(a) - Eigen::Vector3d(0.5, 0, -9.81 * t)).norm(), 1e-9);
      const Eigen::Vector3d expected =
          body.rest.vertices.col(a) + Eigen::Vector3d(0.5 * t, 0, -drop);
      EXPECT_LT((state.x.col(a) - expected).norm(), 1e-9) << "theta " << theta;
    }
  }
}

// Static deflection of a cantilever (clamped at x = 0) under its weight, K u = f_g at R0 = I,
// against Euler–Bernoulli's tip deflection w = q L⁴ / (8 E I), q = ρ g b h, I = b h³ / 12.
double CantileverTipError(const Eigen::Vector3i& cells) {
  const double L = 1.0, b = 0.1, h = 0.1, E = 1e8;
  FemBody body = MakeFemBody("beam", MakeBoxMesh(Eigen::Vector3d(L / 2, b / 2, h / 2), cells),
                             LinearElasticity{E, 0.0}, 1000);
  const int n = body.rest.num_vertices();
  const std::vector<Eigen::Matrix3d> R0(body.tets.size(), Eigen::Matrix3d::Identity());
  Eigen::SparseMatrix<double> K = StiffnessMatrix(body.tets, n, R0, body.material);
  const Eigen::VectorXd mass = LumpedMass(body.tets, n, body.density);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * n);
  std::vector<bool> clamped(3 * n, false);
  for (int a = 0; a < n; ++a) {
    f[3 * a + 2] = -9.81 * mass[a];
    if (body.rest.vertices(0, a) < -L / 2 + 1e-9)
      clamped[3 * a] = clamped[3 * a + 1] = clamped[3 * a + 2] = true;
  }
  for (int k = 0; k < K.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(K, k); it; ++it) {
      if (clamped[it.row()] || clamped[it.col()]) it.valueRef() = it.row() == it.col() ? 1.0 : 0.0;
    }
  }
  for (int i = 0; i < 3 * n; ++i) {
    if (clamped[i]) f[i] = 0;
  }
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K);
  const Eigen::VectorXd u = solver.solve(f);
  double tip = 0;
  int count = 0;
  for (int a = 0; a < n; ++a) {
    if (body.rest.vertices(0, a) > L / 2 - 1e-9) {
      tip += u[3 * a + 2];
      ++count;
    }
  }
  tip /= count;
  const double q = 1000 * 9.81 * b * h, I = b * h * h * h / 12;
  const double beam = -q * L * L * L * L / (8 * E * I);
  return tip / beam - 1;
}

TEST(FemModel, CantileverConvergesToBeamTheory) {
  const double coarse = CantileverTipError({10, 1, 1});
  const double medium = CantileverTipError({20, 2, 2});
  const double fine = CantileverTipError({40, 4, 4});
  const double finest = CantileverTipError({80, 8, 8});
  RecordProperty("errors", std::to_string(coarse) + " " + std::to_string(medium) + " " +
                               std::to_string(fine) + " " + std::to_string(finest));
  // Linear tetrahedra lock in bending (too stiff), so the error is negative and shrinks with h.
  std::printf("cantilever tip error vs beam theory: %.4f %.4f %.4f %.4f\n", coarse, medium, fine,
              finest);
  EXPECT_LT(std::abs(medium), std::abs(coarse));
  EXPECT_LT(std::abs(fine), std::abs(medium));
  EXPECT_LT(std::abs(finest), std::abs(fine));
  EXPECT_LT(std::abs(finest), 0.1);
}

// A corner thrown through its own cell: Newton's usual start x0 + δt v0 inverts elements, where
// the nonlinear material has no finite stress. The step must still solve the backward-Euler
// momentum balance, checked here with a lumped mass computed from the tets' volumes.
TEST(FemModel, NewtonSolvesAStepWhoseLastVelocityWouldInvertAnElement) {
  FemBody body = Box(Eigen::Vector3d(0.05, 0.05, 0.05), {1, 1, 1}, 1e5);
  body.model = MaterialModel::kMooneyRivlin;
  body.mooney_rivlin = {1e5, 0, 1e7};
  body.gravity.setZero();
  FemState state = MakeRestState(body);
  int corner = 0;  // the (+, +, +) corner
  state.x.colwise().sum().maxCoeff(&corner);
  const double dt = 0.01;
  state.v.col(corner) = Eigen::Vector3d(-20, -20, -20);  // 0.35 m in one step, through the cell
  const FemStepSystem step = AssembleFemStep(body, state, dt);
  ASSERT_TRUE(step.converged) << step.message;
  const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(step.A);
  const Eigen::VectorXd v = llt.solve(step.rhs);
  const Eigen::Map<const Eigen::Matrix3Xd> v_next(v.data(), 3, state.x.cols());
  const Eigen::Matrix3Xd x = state.x + dt * v_next;  // θ = 1
  Eigen::VectorXd mass = Eigen::VectorXd::Zero(state.x.cols());
  for (const LinearTet& tet : body.tets) {
    for (int k = 0; k < 4; ++k) mass[tet.vertices[k]] += body.density * tet.volume / 4;
  }
  const ElasticResponse elastic = CalcElasticResponse(body, state, x);
  ASSERT_TRUE(elastic.finite);
  double worst = 0;
  for (Eigen::Index a = 0; a < x.cols(); ++a) {
    const Eigen::Vector3d r =
        mass[a] * (v_next.col(a) - state.v.col(a)) - dt * elastic.forces.col(a);
    worst = std::max(worst, r.norm());
  }
  // Against the corner's momentum, 0.125 kg × 35 m/s.
  EXPECT_LT(worst, 1e-6 * mass[corner] * state.v.col(corner).norm());
  for (const LinearTet& tet : body.tets) EXPECT_GT(DeformationGradient(tet, x).determinant(), 0);
}

}  // namespace
}  // namespace coulomb::fem
