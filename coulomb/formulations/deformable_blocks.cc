#include "coulomb/formulations/deformable_blocks.h"

#include <fmt/format.h>

#include <algorithm>

namespace coulomb {
namespace {

// The participating vertices of every body: contact vertices on both sides (triangle vertices
// with a nonzero weight) and attached vertices. Fixed vertices never participate.
std::vector<std::vector<int>> ParticipatingVertices(const CoupledStepInput& in) {
  std::vector<std::vector<int>> out(in.deformables->bodies.size());
  for (const contact::DeformableContact& c : *in.contacts) {
    for (const auto& [a, weight] : SideAVertices(c)) out[c.deformable].push_back(a);
    for (const auto& [a, weight] : SideBVertices(c)) out[c.other].push_back(a);
  }
  for (const fem::VertexAttachment& a : in.deformables->attachments) {
    out[a.deformable].push_back(a.vertex);
  }
  for (std::size_t d = 0; d < out.size(); ++d) {
    const std::vector<int>& fixed = in.deformables->bodies[d].fixed_vertices;
    std::vector<int>& v = out[d];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    v.erase(std::remove_if(
                v.begin(), v.end(),
                [&](int a) { return std::find(fixed.begin(), fixed.end(), a) != fixed.end(); }),
            v.end());
  }
  return out;
}

// Body d's step constants, from the input's per-step cache (filled here on first use) or, without
// one, computed into `local`.
const fem::StepStart& StepStartOf(const CoupledStepInput& in, std::size_t d,
                                  std::optional<fem::StepStart>& local) {
  std::optional<fem::StepStart>& slot =
      in.step_starts != nullptr && d < in.step_starts->size() ? (*in.step_starts)[d] : local;
  if (!slot) {
    slot = fem::CalcStepStart(in.deformables->bodies[d], (*in.states)[d], in.rigid->time_step);
  }
  return *slot;
}

}  // namespace

Eigen::VectorXd DeformableBlock::Participating(const Eigen::VectorXd& full) const {
  Eigen::VectorXd out(3 * static_cast<Eigen::Index>(vertices.size()));
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    out.segment<3>(3 * static_cast<Eigen::Index>(k)) = full.segment<3>(3 * vertices[k]);
  }
  return out;
}

std::vector<std::pair<int, double>> SideAVertices(const contact::DeformableContact& c) {
  std::vector<std::pair<int, double>> out;
  for (int k = 0; k < 3; ++k) {
    if (c.vertex_weights[k] > 0) out.emplace_back(c.vertices[k], c.vertex_weights[k]);
  }
  return out;
}

std::vector<std::pair<int, double>> SideBVertices(const contact::DeformableContact& c) {
  std::vector<std::pair<int, double>> out;
  if (c.other < 0) return out;
  for (int k = 0; k < 3; ++k) {
    if (c.weights[k] > 0) out.emplace_back(c.face[k], c.weights[k]);
  }
  return out;
}

// A free motion whose Newton did not converge but stayed finite is still the best linear model
// of the step: the contacts are solved with it (so a plate pressing on the body is held), and
// `unconverged` says why the step cannot be certified. Dropping the step instead let the rigid
// bodies take their free motion through the body.
std::string FactorDeformableBodies(const CoupledStepInput& in, std::vector<DeformableBlock>& bodies,
                                   std::string& unconverged,
                                   std::vector<math::CholeskyFactor>* factors) {
  bodies.clear();
  bodies.resize(in.deformables->bodies.size());
  if (factors != nullptr) factors->resize(bodies.size());
  const std::vector<std::vector<int>> participating = ParticipatingVertices(in);
  const double dt = in.rigid->time_step;
  for (std::size_t d = 0; d < participating.size(); ++d) {
    const fem::FemBody& body = in.deformables->bodies[d];
    DeformableBlock& b = bodies[d];
    // A corotated body's step is linear: its model is exact wherever it is taken.
    if (in.linearize_at != nullptr && !participating[d].empty() &&
        body.model != fem::MaterialModel::kCorotatedLinear) {
      std::optional<fem::StepStart> local;
      b.system = fem::AssembleFemStepAt(body, (*in.states)[d], dt, StepStartOf(in, d, local),
                                        (*in.linearize_at)[d]);
    } else {
      b.system = fem::AssembleFemStep(body, (*in.states)[d], dt);
    }
    if (!b.system.converged) {
      const bool finite =
          b.system.rhs.allFinite() &&
          Eigen::Map<const Eigen::VectorXd>(b.system.A.valuePtr(), b.system.A.nonZeros())
              .allFinite();
      if (!finite) return b.system.message;
      if (unconverged.empty()) unconverged = b.system.message;
    }
    b.vertices = participating[d];
    if (b.vertices.empty()) {
      const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(b.system.A);
      if (llt.info() != Eigen::Success) break;
      b.v_star = llt.solve(b.system.rhs);
      continue;
    }
    std::vector<int> dofs;
    for (const int a : b.vertices) {
      for (int i = 0; i < 3; ++i) dofs.push_back(3 * a + i);
    }
    b.schur = std::make_unique<fem::SchurComplement>(b.system.A, std::move(dofs),
                                                     factors != nullptr ? &(*factors)[d] : nullptr);
    if (!b.schur->ok()) break;
    b.v_star = b.schur->Solve(b.system.rhs);
    for (const int dof : body.fixed_dofs) {
      const auto at = std::lower_bound(b.vertices.begin(), b.vertices.end(), dof / 3);
      if (at != b.vertices.end() && *at == dof / 3)
        b.fixed_columns.push_back(b.ColumnOf(*at) + dof % 3);
    }
  }
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    if (bodies[d].v_star.size() == 0) {
      return fmt::format(
          "deformable body '{}': its step matrix M + dt D + dt^2/2 K is not positive definite; "
          "check density, material and time step",
          in.deformables->bodies[d].name);
    }
  }
  return "";
}

double WorstLinearModelError(const CoupledStepInput& in, const std::vector<DeformableBlock>& bodies,
                             const std::vector<Eigen::VectorXd>& v) {
  double worst = 0;
  for (std::size_t d = 0; d < bodies.size() && d < v.size(); ++d) {
    const fem::FemBody& body = in.deformables->bodies[d];
    if (!bodies[d].schur) continue;  // no contacts: its free motion is its exact step
    if (body.model == fem::MaterialModel::kCorotatedLinear) continue;  // linear: exact
    std::optional<fem::StepStart> local;
    worst =
        std::max(worst, fem::LinearModelError(body, (*in.states)[d], in.rigid->time_step,
                                              StepStartOf(in, d, local), bodies[d].system, v[d]));
  }
  return worst;
}

CoupledSolution UnsolvedCoupledStep(const CoupledStepInput& in, std::string why) {
  CoupledSolution out;
  out.rigid.status = LcpStatus::kNotApplicable;
  out.rigid.message = std::move(why);
  out.rigid.v_next = in.rigid->v_star;
  out.rigid.impulses = Eigen::VectorXd::Zero(3 * in.rigid->num_contacts());
  for (const fem::FemState& state : *in.states) out.v.push_back(state.Velocities());
  out.impulses = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(in.contacts->size()));
  out.contact_velocities = out.impulses;
  return out;
}

}  // namespace coulomb
