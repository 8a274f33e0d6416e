#pragma once
// One volumetric deformable body (paper 2; docs/notes/sap-and-deformables.md §0 and §2.2): a tet
// mesh with the corotated linear material (or a nonlinear one), lumped or consistent mass, Rayleigh
// damping D = α M + β K, gravity, and Dirichlet (fixed) vertices, integrated by paper 2's θ-method
// with forces at the end of the step (θ = 1) and positions x = x0 + δt ((1 − θ_vq) v0 + θ_vq v).
// The momentum residual is linear in v within a step (R0 frozen), so the free motion v* is one
// linear solve with
//   A = M + δt D + θ_vq δt² K.
// θ_vq = 1 (backward Euler, our default) moves vertices like rigid bodies move (q = q0 + δt v)
// and like SAP's constraints assume (g = g0 + δt J v), so an attachment between a vertex and a
// rigid body holds exactly in free flight; θ_vq = ½ is Drake's velocity Newmark scheme
// (x = x0 + δt (v0 + v)/2): second-order and less damped, but it drifts against rigid bodies
// by δt² a / 2 per step, which the constraints then correct.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <string>
#include <vector>

#include "coulomb/fem/corotated_linear.h"
#include "coulomb/fem/hyperelastic.h"
#include "coulomb/fem/tet_mesh.h"

namespace coulomb::fem {

struct FemBody {
  std::string name;
  TetMesh rest;
  std::vector<LinearTet> tets;  // MakeLinearTets(rest)
  // MakeStiffnessLayout(tets): made by MakeFemBody (a body given other elements must be made
  // again); one that does not fit the elements is ignored.
  StiffnessLayout stiffness_layout;
  LinearElasticity material;
  double density = 1000;            // kg/m³
  bool consistent_mass = false;     // the exact consistent mass instead of the lumped one
  double mass_damping = 0;          // α, 1/s
  double stiffness_damping = 0;     // β, s
  std::vector<int> fixed_vertices;  // Dirichlet: all three components still
  std::vector<int> fixed_dofs;      // single components 3a + i (plane strain fixes every z)
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);
  double position_theta = 1.0;  // θ_vq in [½, 1]
  // The material law: corotated linear (paper 2's default, uses `material`), stable
  // Neo-Hookean (Lamé parameters from `material`) or Mooney–Rivlin (`mooney_rivlin`).
  MaterialModel model = MaterialModel::kCorotatedLinear;
  MooneyRivlin mooney_rivlin;
  // Mooney–Rivlin only: the volumetric energy κ/2 (J̄ − 1)² on each hexahedral cell's mean J̄
  // (mean dilatation, one pressure per cell as in the Q1/P0 element) instead of every tet's own J.
  // Near incompressibility (κ/μ ≈ 1500 for paper 2's rubber) a volume constraint per linear tet
  // locks the mesh: it comes out too stiff. Needs rest.cells (the structured meshers).
  bool mean_dilatation = false;
  double friction = 0.5;  // Coulomb coefficient of the surface, combined like rigid materials
  // The outward boundary (BoundaryFaces(rest)) and its vertices, sorted: the contact surface.
  std::vector<Eigen::Vector3i> surface;
  std::vector<int> surface_vertices;
};
// "" or the first problem (mesh, material, density, damping, fixed vertex), named.
std::string ValidateFemBody(const FemBody& body);
// A body with its elements and surface computed from `rest`.
FemBody MakeFemBody(std::string name, TetMesh rest, const LinearElasticity& material,
                    double density);

struct FemState {
  Eigen::Matrix3Xd x, v;            // m, m/s
  std::vector<Eigen::Matrix3d> R0;  // per element: polar rotation of the last step's F
  Eigen::VectorXd Velocities() const {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), v.size());
  }
};
FemState MakeRestState(const FemBody& body);

// The linearized momentum balance of one step, A v = rhs + Jᵀ γ over the 3n velocities, with
// fixed vertices' rows and columns replaced by the identity (their velocity is 0). Its solution
// without contact is the free motion v*.
// Nonlinear materials find v* by Newton first and linearize there (A = tangent at v*,
// rhs = A v*), so SAP sees the same linear model either way (docs/notes/sap-and-deformables.md §0);
// a body with contacts is linearized where the contacts put it instead (AssembleFemStepAt).
struct FemStepSystem {
  Eigen::SparseMatrix<double> A;
  Eigen::VectorXd rhs;
  bool converged = true;  // false: Newton failed; `message` says why and what to change
  int newton_iterations = 0;
  std::string message;
};
FemStepSystem AssembleFemStep(const FemBody& body, const FemState& state, double dt);

// What stays fixed over one step of a body's momentum balance (fem_model.cc):
//   m(v) = M (v − v0) − δt [f_e(x(v)) + f_g − D v],   x(v) = x0 + δt ((1 − θ) v0 + θ v),
// with Rayleigh D from the stiffness at x0. The elastic response at x0 behind D and the tolerance
// costs as much as one at v, so the linearizations of one step share it (sim::Step keeps it).
struct StepStart {
  Eigen::SparseMatrix<double> M, D;
  Eigen::VectorXd v0, f_g;       // 3n: the last velocity, m/s; gravity on the lumped masses, N
  std::vector<bool> fixed;       // per DoF: a fixed vertex or component (m = v there)
  Eigen::VectorXd start_forces;  // f_e(x0), N
  double tolerance = 0;  // ‖m‖ that counts as zero, N s (Newton's, and LinearModelError's unit)
};
StepStart CalcStepStart(const FemBody& body, const FemState& state, double dt);

// The same linear model taken at v_lin instead of at the free motion: A = m'(v_lin),
// rhs = A v_lin − m(v_lin), so A v − rhs is m(v) to first order about v_lin. Under a load that
// holds the body far from its free motion (the crushed cylinder: v* springs back ~0.1 m in one
// 4 s step), the model at v* is wrong by O(|v − v*|²) where the contacts put v: the rubber lost
// 5 % of its volume over the load. Taken at the last contact-coupled v and repeated until
// LinearModelError is at most 1, the coupled step solves the nonlinear balance. The corotated
// model is linear within a step: its model is exact at any v_lin (which it ignores).
// `start` is CalcStepStart(body, state, dt) (unused by the corotated model).
FemStepSystem AssembleFemStepAt(const FemBody& body, const FemState& state, double dt,
                                const StepStart& start, const Eigen::VectorXd& v_lin);
// ‖m(v) − (A v − rhs)‖ over the tolerance Newton uses for ‖m‖ (1e-8 of the step's momentum
// scale) plus 1e-8 ‖A v − rhs‖ (the contact and attachment impulses on the body): at most 1 when
// the linear model `system` is exact at v to that tolerance.
// It needs the elastic forces at v only, not the stiffness.
double LinearModelError(const FemBody& body, const FemState& state, double dt,
                        const StepStart& start, const FemStepSystem& system,
                        const Eigen::VectorXd& v);

// A and v* from one sparse Cholesky of A (bodies without contact; with contact, the Schur
// complement's factorization gives v* instead, so A is factored once per step).
struct FemFreeMotion {
  Eigen::SparseMatrix<double> A;
  Eigen::VectorXd v_star;
  bool ok = true;
};
FemFreeMotion CalcFemFreeMotion(const FemBody& body, const FemState& state, double dt);

// The material's elastic forces (3 × n, N), stiffness (3n × 3n, PSD; for nonlinear materials
// the tangent projected per element) and energy (J) at positions x. Without `with_stiffness`, K
// is left empty: the forces of a nonlinear material cost a fraction of its projected tangent.
struct ElasticResponse {
  Eigen::Matrix3Xd forces;
  Eigen::SparseMatrix<double> K;
  double energy = 0;
  bool finite = true;
};
ElasticResponse CalcElasticResponse(const FemBody& body, const FemState& state,
                                    const Eigen::Matrix3Xd& x, bool with_stiffness = true);

// Kinetic (lumped mass) + gravitational + elastic energy, J.
double CalcEnergy(const FemBody& body, const FemState& state);

// Ends the step with velocities v (3n): x ← x + δt (v0 + v)/2, v ← v, R0 ← polar(F(x)).
void AdvanceFem(const FemBody& body, FemState& state, const Eigen::VectorXd& v, double dt);

}  // namespace coulomb::fem
