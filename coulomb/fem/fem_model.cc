#include "coulomb/fem/fem_model.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>

#include "coulomb/fem/mean_dilatation.h"
#include "coulomb/math/backtracking.h"

namespace coulomb::fem {

// Mean dilatation keeps this share of κ on every tet's own J, so that the tets of a cell cannot
// trade volume among themselves freely (the cell's mean J is all the rest holds). The share is
// residual locking: κ_tet ≈ 15 μ for paper 2's rubber at 1 %. Measured on the crushed cylinder
// (mean force error for 3, 4, 6, 8 cells across the radius, the coupled step linearized where
// the contacts put the rubber): 5 % gives 10.0, 8.9, 5.2, 3.6 %; 1 % gives 5.9, 4.4, 1.8, 1.2 %,
// converging with the mesh; 0.5 % and 0.2 % give 1.2–3.7 % on every mesh without converging.
// (With the step linearized at the free motion, 2 % or less inverted elements under full load.)
constexpr double kTetBulkShare = 0.01;

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
  if (body.model == MaterialModel::kMooneyRivlin) {
    if (std::string defect = ValidateMooneyRivlin(body.mooney_rivlin); !defect.empty()) {
      return who + ": " + defect;
    }
  }
  if (body.mean_dilatation) {
    if (body.model != MaterialModel::kMooneyRivlin) {
      return who + ": mean_dilatation is for the mooney_rivlin material";
    }
    if (body.rest.cells.size() != static_cast<std::size_t>(body.rest.num_tets())) {
      return who + ": mean_dilatation needs hexahedral cells (box, ball or cylinder meshes)";
    }
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
  for (int dof : body.fixed_dofs) {
    if (dof < 0 || dof >= 3 * body.rest.num_vertices()) {
      return fmt::format("{}: fixed degree of freedom {} does not exist", who, dof);
    }
  }
  return "";
}

FemBody MakeFemBody(std::string name, TetMesh rest, const LinearElasticity& material,
                    double density) {
  FemBody body;
  body.name = std::move(name);
  body.tets = MakeLinearTets(rest);
  body.stiffness_layout = MakeStiffnessLayout(body.tets, rest.num_vertices());
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

namespace {

std::vector<bool> FixedDofs(const FemBody& body) {
  std::vector<bool> fixed(3 * static_cast<std::size_t>(body.rest.num_vertices()), false);
  for (int a : body.fixed_vertices) {
    for (int i = 0; i < 3; ++i) fixed[3 * a + i] = true;
  }
  for (int dof : body.fixed_dofs) fixed[dof] = true;
  return fixed;
}

// Dirichlet vertices: identity rows and columns of A, zero entries of b.
void ApplyDirichlet(const std::vector<bool>& fixed, Eigen::SparseMatrix<double>& A,
                    Eigen::VectorXd& b) {
  for (int k = 0; k < A.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it) {
      if (fixed[it.row()] || fixed[it.col()]) it.valueRef() = it.row() == it.col() ? 1.0 : 0.0;
    }
  }
  for (Eigen::Index i = 0; i < b.size(); ++i) {
    if (fixed[i]) b[i] = 0;
  }
}

Eigen::SparseMatrix<double> Diagonal(const Eigen::VectorXd& d) {
  Eigen::SparseMatrix<double> D(d.size(), d.size());
  D.setIdentity();
  return d.asDiagonal() * D;
}

Eigen::VectorXd LumpedMass3(const FemBody& body) {
  const int n = body.rest.num_vertices();
  const Eigen::VectorXd lumped = LumpedMass(body.tets, n, body.density);
  Eigen::VectorXd m3(3 * n);
  for (int a = 0; a < n; ++a) m3.segment<3>(3 * a).setConstant(lumped[a]);
  return m3;
}

// The mass matrix the body asks for: lumped (diagonal) or the exact consistent one. Gravity is
// the same for both (a consistent load of a uniform field equals the lumped one).
Eigen::SparseMatrix<double> MassMatrix(const FemBody& body, const Eigen::VectorXd& m3) {
  return body.consistent_mass ? ConsistentMass(body.tets, body.rest.num_vertices(), body.density)
                              : Diagonal(m3);
}

// Gravity on the lumped masses, 3n.
Eigen::VectorXd GravityForces(const FemBody& body, const Eigen::VectorXd& m3) {
  Eigen::VectorXd g(m3.size());
  for (Eigen::Index a = 0; a < m3.size() / 3; ++a) {
    g.segment<3>(3 * a) = m3[3 * a] * body.gravity;
  }
  return g;
}

Eigen::Map<const Eigen::VectorXd> Flat(const Eigen::Matrix3Xd& x) {
  return {x.data(), x.size()};
}

// The corotated model: m(v) = M (v − v0) − δt [f_e(x) + f_g − D v] with
// f_e(x) = f_e(x0) − K (x − x0) and x − x0 = δt ((1 − θ) v0 + θ v) is linear in v:
//   A v* = M v0 + δt (f_e(x0) + f_g) − (1 − θ) δt² K v0.
FemStepSystem LinearStep(const FemBody& body, const FemState& state, double dt) {
  const Eigen::VectorXd m3 = LumpedMass3(body);
  const ElasticResponse elastic = CalcElasticResponse(body, state, state.x);
  const Eigen::SparseMatrix<double> M = MassMatrix(body, m3);
  const Eigen::SparseMatrix<double> D = body.mass_damping * M + body.stiffness_damping * elastic.K;
  const double theta = body.position_theta;
  FemStepSystem out;
  out.A = M + dt * D + theta * dt * dt * elastic.K;
  const Eigen::VectorXd v0 = state.Velocities();
  out.rhs = M * v0 + dt * (Flat(elastic.forces) + GravityForces(body, m3)) -
            (1 - theta) * dt * dt * (elastic.K * v0);
  ApplyDirichlet(FixedDofs(body), out.A, out.rhs);
  return out;
}

// The smallest det F over the elements at positions x (negative: one is inverted).
double SmallestVolumeRatio(const FemBody& body, const Eigen::Matrix3Xd& x) {
  double smallest = INFINITY;
  for (const LinearTet& tet : body.tets) {
    smallest = std::min(smallest, DeformationGradient(tet, x).determinant());
  }
  return smallest;
}

// M + δt D + θ δt² K with the fixed DoFs' rows and columns the identity.
Eigen::SparseMatrix<double> StepTangent(const FemBody& body, const StepStart& start, double dt,
                                        const Eigen::SparseMatrix<double>& K) {
  Eigen::SparseMatrix<double> A = start.M + dt * start.D + body.position_theta * dt * dt * K;
  Eigen::VectorXd unused = Eigen::VectorXd::Zero(A.rows());
  ApplyDirichlet(start.fixed, A, unused);
  return A;
}

// The momentum balance of a nonlinear material over one step (StepStart in fem_model.h) and its
// PSD-projected tangent m'(v) = M + δt D + θ δt² K(x(v)); fixed DoFs: m = v.
class MomentumBalance {
 public:
  MomentumBalance(const FemBody& body, const FemState& state, double dt, const StepStart& start)
      : body_(body), state_(state), dt_(dt), start_(start) {}

  Eigen::Matrix3Xd Positions(const Eigen::VectorXd& v) const {
    const double theta = body_.position_theta;
    const Eigen::VectorXd x = Flat(state_.x) + dt_ * ((1 - theta) * start_.v0 + theta * v);
    return Eigen::Map<const Eigen::Matrix3Xd>(x.data(), 3, x.size() / 3);
  }
  ElasticResponse Response(const Eigen::VectorXd& v, bool with_stiffness = true) const {
    return CalcElasticResponse(body_, state_, Positions(v), with_stiffness);
  }
  Eigen::VectorXd Residual(const Eigen::VectorXd& v, const ElasticResponse& e) const {
    Eigen::VectorXd r =
        start_.M * (v - start_.v0) - dt_ * (Flat(e.forces) + start_.f_g - start_.D * v);
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = start_.fixed[i] ? v[i] : r[i];
    return r;
  }
  Eigen::SparseMatrix<double> Tangent(const ElasticResponse& e) const {
    return StepTangent(body_, start_, dt_, e.K);
  }
  // Where a linearization or Newton may start: v with its fixed components zeroed, or v = 0 (x0
  // itself, whose elements are sound) when x0 + δt v would crush an element (smallest volume
  // ratio below half the one at x0): from such a point the tangent is ill-conditioned and Newton
  // stalls. Seen on the crushed cylinder at the end of its load.
  Eigen::VectorXd SoundStart(Eigen::VectorXd v) const {
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = start_.fixed[i] ? 0.0 : v[i];
    if (SmallestVolumeRatio(body_, Positions(v)) < 0.5 * SmallestVolumeRatio(body_, state_.x)) {
      v.setZero();
    }
    return v;
  }
  const StepStart& start() const { return start_; }

 private:
  const FemBody& body_;
  const FemState& state_;
  double dt_;
  const StepStart& start_;
};

// Nonlinear materials: Newton on m(v) = 0 with the tangent, backtracking on ‖m‖. The step's
// linear model is then A = m'(v*), rhs = A v*.
FemStepSystem NewtonStep(const FemBody& body, const FemState& state, double dt) {
  const StepStart start = CalcStepStart(body, state, dt);
  const MomentumBalance balance(body, state, dt, start);
  FemStepSystem out;
  // Newton starts from the last velocity, x0 + δt v0, unless that crushes an element.
  Eigen::VectorXd v = balance.SoundStart(start.v0);
  ElasticResponse e = balance.Response(v);
  Eigen::VectorXd r = balance.Residual(v, e);
  const double tolerance = start.tolerance;
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt;
  for (out.newton_iterations = 0;; ++out.newton_iterations) {
    out.A = balance.Tangent(e);
    if (e.finite && r.norm() <= tolerance) break;
    if (out.newton_iterations == 30 || !e.finite) {
      out.converged = false;
      out.message = fmt::format(
          "deformable body '{}': Newton on the free motion stopped after {} iterations with "
          "residual {:.3g} N s ({}); reduce the time step",
          body.name, out.newton_iterations, r.norm(),
          e.finite ? "not converged" : "an element inverted or the stress is not finite");
      break;
    }
    llt.compute(out.A);
    const Eigen::VectorXd dv = -llt.solve(r);
    // Backtracking on ‖m‖, whose slope along the Newton step is −‖m‖. When no step decreases
    // it, v stays and the iteration limit reports the failure.
    ElasticResponse e_trial;
    Eigen::VectorXd r_trial;
    const auto merit = [&](double alpha) {
      e_trial = balance.Response(v + alpha * dv);
      r_trial = balance.Residual(v + alpha * dv, e_trial);
      return e_trial.finite ? r_trial.norm() : INFINITY;
    };
    math::BacktrackingSettings search;
    search.alpha_min = 1e-6;
    const math::BacktrackingResult step = math::BacktrackArmijo(merit, r.norm(), -r.norm(), search);
    if (step.accepted) {
      v += step.alpha * dv;
      e = std::move(e_trial);
      r = std::move(r_trial);
    }
  }
  out.rhs = out.A * v;
  return out;
}

}  // namespace

ElasticResponse CalcElasticResponse(const FemBody& body, const FemState& state,
                                    const Eigen::Matrix3Xd& x, bool with_stiffness) {
  ElasticResponse out;
  const int n = body.rest.num_vertices();
  if (body.model == MaterialModel::kCorotatedLinear) {
    out.forces = ElasticForces(body.tets, x, state.R0, body.material);
    if (with_stiffness) {
      out.K = StiffnessMatrix(body.tets, n, state.R0, body.material, &body.stiffness_layout);
    }
    out.energy = ElasticEnergy(body.tets, x, state.R0, body.material);
    return out;
  }
  // Mean dilatation: every tet keeps the isochoric part, the cells carry the volumetric one.
  const bool per_cell = body.model == MaterialModel::kMooneyRivlin && body.mean_dilatation;
  MooneyRivlin mooney_rivlin = body.mooney_rivlin;
  if (per_cell) mooney_rivlin.bulk_modulus *= kTetBulkShare;
  std::vector<MaterialPoint> points(body.tets.size());
  for (std::size_t e = 0; e < body.tets.size(); ++e) {
    const Eigen::Matrix3d F = DeformationGradient(body.tets[e], x);
    points[e] = body.model == MaterialModel::kStableNeoHookean
                    ? EvaluateStableNeoHookean(F, body.material.Mu(), body.material.Lambda())
                    : EvaluateMooneyRivlin(F, mooney_rivlin);
    out.energy += body.tets[e].volume * points[e].energy;
  }
  out.forces = AssembleForces(body.tets, n, [&](int e) { return points[e].P; });
  if (with_stiffness) {
    out.K = AssembleStiffness(
        body.tets, n, [&](int e) { return ProjectToPsd(points[e].dPdF); }, &body.stiffness_layout);
  }
  if (per_cell) {
    const VolumetricResponse volumetric = CellVolumetricResponse(
        body.rest, x, (1 - kTetBulkShare) * body.mooney_rivlin.bulk_modulus, with_stiffness);
    out.energy += volumetric.energy;
    out.forces += volumetric.forces;
    if (with_stiffness) out.K += volumetric.K;
  }
  out.finite = std::isfinite(out.energy) && out.forces.allFinite();
  return out;
}

FemStepSystem AssembleFemStep(const FemBody& body, const FemState& state, double dt) {
  return body.model == MaterialModel::kCorotatedLinear ? LinearStep(body, state, dt)
                                                       : NewtonStep(body, state, dt);
}

StepStart CalcStepStart(const FemBody& body, const FemState& state, double dt) {
  StepStart start;
  const Eigen::VectorXd m3 = LumpedMass3(body);
  const ElasticResponse at_x0 = CalcElasticResponse(body, state, state.x);
  start.M = MassMatrix(body, m3);
  start.D = body.mass_damping * start.M + body.stiffness_damping * at_x0.K;
  start.v0 = state.Velocities();
  start.f_g = GravityForces(body, m3);
  start.fixed = FixedDofs(body);
  start.start_forces = Flat(at_x0.forces);
  // ‖m‖ counts as zero below 1e-8 of the step's momentum scale, or below what a velocity error
  // of 1e-12 m/s costs through the stiffest row of the tangent (round-off of stiff materials).
  const double scale =
      (start.M * start.v0).norm() + dt * start.f_g.norm() + dt * start.start_forces.norm();
  start.tolerance = std::max(
      1e-8 * scale, 1e-12 * StepTangent(body, start, dt, at_x0.K).diagonal().cwiseAbs().maxCoeff());
  return start;
}

FemStepSystem AssembleFemStepAt(const FemBody& body, const FemState& state, double dt,
                                const StepStart& start, const Eigen::VectorXd& v_lin) {
  if (body.model == MaterialModel::kCorotatedLinear) return LinearStep(body, state, dt);
  const MomentumBalance balance(body, state, dt, start);
  // As Newton's start (NewtonStep): a point that crushes an element gives way to x0 itself.
  const Eigen::VectorXd v = balance.SoundStart(v_lin);
  const ElasticResponse e = balance.Response(v);
  FemStepSystem out;
  out.A = balance.Tangent(e);
  // m(v') ≈ m(v) + A (v' − v) = A v' − rhs.
  out.rhs = out.A * v - balance.Residual(v, e);
  out.converged = e.finite && out.rhs.allFinite();
  if (!out.converged) {
    out.message = fmt::format(
        "deformable body '{}': an element is inverted or its stress is not finite at the "
        "linearization point; reduce the time step",
        body.name);
  }
  return out;
}

double LinearModelError(const FemBody& body, const FemState& state, double dt,
                        const StepStart& start, const FemStepSystem& system,
                        const Eigen::VectorXd& v) {
  if (body.model == MaterialModel::kCorotatedLinear) return 0;
  const MomentumBalance balance(body, state, dt, start);
  const ElasticResponse e = balance.Response(v, /*with_stiffness=*/false);
  if (!e.finite) return INFINITY;
  // A v − rhs is what the contacts and attachments put on the body (Jᵀγ): its size joins the
  // scale, or a light body under a heavy load would be judged against its own weight alone.
  const Eigen::VectorXd model = system.A * v - system.rhs;
  return (balance.Residual(v, e) - model).norm() / (start.tolerance + 1e-8 * model.norm());
}

double CalcEnergy(const FemBody& body, const FemState& state) {
  const Eigen::VectorXd m3 = LumpedMass3(body);
  const Eigen::VectorXd v = state.Velocities();
  double energy =
      CalcElasticResponse(body, state, state.x).energy + 0.5 * v.dot(MassMatrix(body, m3) * v);
  for (int a = 0; a < body.rest.num_vertices(); ++a) {
    energy -= m3[3 * a] * body.gravity.dot(state.x.col(a));
  }
  return energy;
}

FemFreeMotion CalcFemFreeMotion(const FemBody& body, const FemState& state, double dt) {
  FemFreeMotion out;
  FemStepSystem system = AssembleFemStep(body, state, dt);
  const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(system.A);
  out.ok = system.converged && llt.info() == Eigen::Success;
  out.v_star = out.ok ? Eigen::VectorXd(llt.solve(system.rhs)) : state.Velocities();
  out.A.swap(system.A);
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
