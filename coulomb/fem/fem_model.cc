#include "coulomb/fem/fem_model.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>

namespace coulomb::fem {

std::string ValidateFemBody(const FemBody& body) {
  const std::string who = "deformable body '" + body.name + "'";
  if (std::string defect = ValidateTetMesh(body.rest); !defect.empty()) {
    return who + ": " + defect;
  }
  if (std::string defect = ValidateElasticity(body.material); !defect.empty()) {
    return who + ": " + defect;
  }
  if (!(body.density > 0) || !std::isfinite(body.density)) {
    return fmt::format("{}: density {} kg/m³ must be positive", who, body.density);
  }
  if (!(body.friction >= 0) || !std::isfinite(body.friction)) {
    return fmt::format("{}: friction {} must be finite and >= 0", who, body.friction);
  }
  if (!(body.position_theta >= 0.5 && body.position_theta <= 1)) {
    return fmt::format("{}: position_theta {} must be within [0.5, 1]", who, body.position_theta);
  }
  if (!(body.mass_damping >= 0) || !(body.stiffness_damping >= 0)) {
    return who + ": Rayleigh damping coefficients must be >= 0";
  }
  for (int v : body.fixed_vertices) {
    if (v < 0 || v >= body.rest.num_vertices()) {
      return fmt::format("{}: fixed vertex {} does not exist", who, v);
    }
  }
  return "";
}

FemBody MakeFemBody(std::string name, TetMesh rest, const LinearElasticity& material,
                    double density) {
  FemBody body;
  body.name = std::move(name);
  body.tets = MakeLinearTets(rest);
  body.surface = BoundaryFaces(rest);
  for (const Eigen::Vector3i& f : body.surface) {
    body.surface_vertices.insert(body.surface_vertices.end(), f.data(), f.data() + 3);
  }
  std::sort(body.surface_vertices.begin(), body.surface_vertices.end());
  body.surface_vertices.erase(
      std::unique(body.surface_vertices.begin(), body.surface_vertices.end()),
      body.surface_vertices.end());
  body.rest = std::move(rest);
  body.material = material;
  body.density = density;
  return body;
}

FemState MakeRestState(const FemBody& body) {
  FemState s;
  s.x = body.rest.vertices;
  s.v = Eigen::Matrix3Xd::Zero(3, body.rest.num_vertices());
  s.R0.assign(body.tets.size(), Eigen::Matrix3d::Identity());
  return s;
}

FemStepSystem AssembleFemStep(const FemBody& body, const FemState& state, double dt) {
  // m(v) = M (v − v0) − δt [f_e(x) + f_g − D v] with f_e(x) = f_e(x0) − K (x − x0) and
  // x − x0 = δt ((1 − θ) v0 + θ v): A v* = M v0 + δt (f_e(x0) + f_g) − (1 − θ) δt² K v0.
  const int n = body.rest.num_vertices();
  const Eigen::VectorXd lumped = LumpedMass(body.tets, n, body.density);
  Eigen::VectorXd m3(3 * n);
  for (int a = 0; a < n; ++a) m3.segment<3>(3 * a).setConstant(lumped[a]);
  const Eigen::SparseMatrix<double> K = StiffnessMatrix(body.tets, n, state.R0, body.material);
  Eigen::SparseMatrix<double> M(3 * n, 3 * n);
  M.setIdentity();
  M = m3.asDiagonal() * M;
  const Eigen::SparseMatrix<double> D = body.mass_damping * M + body.stiffness_damping * K;
  FemStepSystem out;
  const double theta = body.position_theta;
  out.A = M + dt * D + theta * dt * dt * K;
  const Eigen::VectorXd v0 = state.Velocities();
  const Eigen::Matrix3Xd fe = ElasticForces(body.tets, state.x, state.R0, body.material);
  Eigen::VectorXd force = Eigen::Map<const Eigen::VectorXd>(fe.data(), fe.size());
  for (int a = 0; a < n; ++a) force.segment<3>(3 * a) += lumped[a] * body.gravity;
  Eigen::VectorXd& rhs = out.rhs;
  rhs = M * v0 + dt * force - (1 - theta) * dt * dt * (K * v0);
  // Dirichlet vertices: identity rows and columns, zero velocity.
  std::vector<bool> fixed(3 * n, false);
  for (int a : body.fixed_vertices) {
    for (int i = 0; i < 3; ++i) fixed[3 * a + i] = true;
  }
  for (int k = 0; k < out.A.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(out.A, k); it; ++it) {
      if (fixed[it.row()] || fixed[it.col()]) it.valueRef() = it.row() == it.col() ? 1.0 : 0.0;
    }
  }
  for (int i = 0; i < 3 * n; ++i) {
    if (fixed[i]) rhs[i] = 0;
  }
  return out;
}

double CalcEnergy(const FemBody& body, const FemState& state) {
  const Eigen::VectorXd m = LumpedMass(body.tets, body.rest.num_vertices(), body.density);
  double energy = ElasticEnergy(body.tets, state.x, state.R0, body.material);
  for (int a = 0; a < body.rest.num_vertices(); ++a) {
    energy += m[a] * (0.5 * state.v.col(a).squaredNorm() - body.gravity.dot(state.x.col(a)));
  }
  return energy;
}

FemFreeMotion CalcFemFreeMotion(const FemBody& body, const FemState& state, double dt) {
  FemFreeMotion out;
  FemStepSystem system = AssembleFemStep(body, state, dt);
  const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(system.A);
  out.ok = llt.info() == Eigen::Success;
  out.v_star = out.ok ? Eigen::VectorXd(llt.solve(system.rhs)) : state.Velocities();
  out.A = std::move(system.A);
  return out;
}

void AdvanceFem(const FemBody& body, FemState& state, const Eigen::VectorXd& v, double dt) {
  const Eigen::Map<const Eigen::Matrix3Xd> v_next(v.data(), 3, state.x.cols());
  state.x += dt * ((1 - body.position_theta) * state.v + body.position_theta * v_next);
  state.v = v_next;
  for (std::size_t e = 0; e < body.tets.size(); ++e) {
    state.R0[e] = PolarRotation(DeformationGradient(body.tets[e], state.x));
  }
}

}  // namespace coulomb::fem
