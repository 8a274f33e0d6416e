#include "coulomb/formulations/sap/deformable_step.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/fem/schur_complement.h"

namespace coulomb {
namespace {

struct VertexContact {
  int vertex = 0;
  double phi = 0;
};

std::vector<VertexContact> FindVertexContacts(const fem::FemBody& body, const fem::FemState& state,
                                              const HalfSpace& ground, double margin) {
  std::vector<int> boundary;
  for (const Eigen::Vector3i& f : fem::BoundaryFaces(body.rest)) {
    boundary.insert(boundary.end(), f.data(), f.data() + 3);
  }
  std::sort(boundary.begin(), boundary.end());
  boundary.erase(std::unique(boundary.begin(), boundary.end()), boundary.end());
  std::vector<VertexContact> contacts;
  for (int a : boundary) {
    if (std::find(body.fixed_vertices.begin(), body.fixed_vertices.end(), a) !=
        body.fixed_vertices.end()) {
      continue;  // a Dirichlet vertex does not move: it cannot take part (spec §2.4)
    }
    const double phi = ground.normal.dot(state.x.col(a)) - ground.offset;
    if (phi <= margin) contacts.push_back({a, phi});
  }
  return contacts;
}

}  // namespace

DeformableStepReport StepDeformableOnHalfSpace(const fem::FemBody& body, fem::FemState& state,
                                               const HalfSpace& ground, double dt, double margin,
                                               const SapParams& params) {
  DeformableStepReport report;
  const fem::FemFreeMotion free = fem::CalcFemFreeMotion(body, state, dt);
  if (!free.ok) {
    report.status = convex::SapStatus::kNotPositiveDefinite;
    report.message = "deformable body '" + body.name +
                     "': the matrix M + dt D + dt^2/2 K is not "
                     "positive definite; check density and material";
    return report;
  }
  const std::vector<VertexContact> contacts = FindVertexContacts(body, state, ground, margin);
  report.contacts = static_cast<int>(contacts.size());
  if (contacts.empty()) {
    fem::AdvanceFem(body, state, free.v_star, dt);
    return report;
  }
  // Participating DoFs: the contact vertices', in increasing order.
  std::vector<int> vertices;
  vertices.reserve(contacts.size());
  for (const VertexContact& c : contacts) vertices.push_back(c.vertex);
  std::sort(vertices.begin(), vertices.end());
  std::vector<int> dofs;
  for (int a : vertices) {
    for (int i = 0; i < 3; ++i) dofs.push_back(3 * a + i);
  }
  report.participating_dofs = static_cast<int>(dofs.size());
  const fem::SchurComplement schur(free.A, dofs);
  convex::SapProblem sap;
  sap.time_step = dt;
  sap.cliques.push_back({0, schur.reduced()});
  sap.v_star.resize(static_cast<Eigen::Index>(dofs.size()));
  for (std::size_t i = 0; i < dofs.size(); ++i) sap.v_star[i] = free.v_star[dofs[i]];
  Eigen::Matrix3d frame;
  frame.col(0) = ground.normal;
  frame.col(1) = contact::ContactTangent(ground.normal);
  frame.col(2) = ground.normal.cross(frame.col(1));
  for (const VertexContact& c : contacts) {
    report.max_penetration = std::max(report.max_penetration, -c.phi);
    convex::SapJacobian jac;
    jac.name = fmt::format("vertex {} of '{}' on the ground", c.vertex, body.name);
    jac.clique_a = 0;
    jac.J_a = Eigen::MatrixXd::Zero(3, static_cast<Eigen::Index>(dofs.size()));
    const auto at = std::lower_bound(vertices.begin(), vertices.end(), c.vertex) - vertices.begin();
    jac.J_a.middleCols<3>(3 * at) = frame.transpose();  // (n, t, o) velocity of the vertex
    convex::ContactParameters contact;
    contact.phi0 = c.phi;
    contact.mu = ground.friction;
    contact.dissipation_time_scale = params.dissipation_time_scale.value_or(dt);
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    sap.constraints.push_back(
        convex::MakeContactConstraint(std::move(jac), contact, W, dt, params.regularization));
  }
  const convex::SapResult r = convex::SolveSap(sap, params.solver, sap.v_star);
  report.status = r.status;
  report.message = r.message;
  report.iterations = r.iterations;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    report.total_impulse += frame * r.gamma.segment<3>(3 * static_cast<Eigen::Index>(i));
  }
  const Eigen::VectorXd v = free.v_star + schur.Extend(r.v - sap.v_star);
  fem::AdvanceFem(body, state, v, dt);
  return report;
}

}  // namespace coulomb
