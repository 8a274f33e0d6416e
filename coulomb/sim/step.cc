#include "coulomb/sim/step.h"

#include <algorithm>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::sim {

StepReport StepVelocityLcp(const multibody::Model& model, multibody::Data& data,
                           const geometry::CollisionWorld& world, Eigen::VectorXd& q,
                           Eigen::VectorXd& v, const Eigen::VectorXd& tau, double h,
                           const VelocityLcpParams& params) {
  StepReport report;
  // 1. Contacts at the current poses.
  multibody::CalcForwardKinematics(model, data, q, v);
  const geometry::ContactDetection detection = geometry::FindContacts(world, data.X_world);
  report.contacts = static_cast<int>(detection.contacts.contacts.size());
  report.unsupported_pairs = detection.unsupported_pairs;
  for (const geometry::Contact& c : detection.contacts.contacts) {
    report.max_penetration = std::max(report.max_penetration, -c.phi);
  }
  // 2. The contact problem of this step.
  const contact::ContactProblem problem =
      contact::BuildContactProblem(model, data, q, v, tau, detection.contacts, h);
  // 3. The formulation.
  const ContactSolution solution = SolveVelocityLcp(problem, params);
  report.status = solution.status;
  report.iterations = solution.iterations;
  report.residual = solution.residual;
  // 4. Advance (the solver's best answer even when uncertified; the report says so).
  v = solution.v_next;
  q = multibody::IntegrateConfiguration(model, q, v, h);
  return report;
}

}  // namespace coulomb::sim
