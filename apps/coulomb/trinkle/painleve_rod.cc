#include "apps/coulomb/trinkle/painleve_rod.h"

#include <cmath>

#include "apps/coulomb/trinkle/trinkle_scenes.h"
#include "apps/coulomb/trinkle/trinkle_solver.h"
#include "coulomb/complementarity/enumeration.h"

namespace coulomb::trinkle {

TrinkleProblem MakePainleveRod(const RodState& rod) {
  // The rod lies in the x–z plane, rising towards +x from its contact end E at the origin.
  const Eigen::Vector3d axis(std::cos(rod.angle), 0, std::sin(rod.angle));
  const Eigen::Vector3d com = rod.half_length * axis;
  TrinkleObject o = MakeRod(rod.mass, rod.half_length, com, axis, {0, 0, -rod.gravity});
  o.velocity_product_wrench = Vector6d::Zero();  // planar motion: no gyroscopic moment
  // Angular velocity about y; choose the COM velocity so that E has v_n = 0 (eq. 7) and slides
  // along −x (away from the upper end) at slip_speed.
  o.angular_velocity = Eigen::Vector3d(0, rod.angular_speed, 0);
  const Eigen::Vector3d r_end = -com;  // E − COM
  const Eigen::Vector3d spin = o.angular_velocity.cross(r_end);
  o.linear_velocity = Eigen::Vector3d(-rod.slip_speed, 0, 0) - spin;
  TrinkleProblem p;
  p.objects.push_back(o);
  TrinkleContact c;
  c.a = BodyRef::Object(0);
  c.b = BodyRef::Ground();
  c.point = Eigen::Vector3d::Zero();
  c.normal = Eigen::Vector3d::UnitZ();
  c.tangent = Eigen::Vector3d::UnitX();
  c.mu = rod.mu;
  p.contacts.push_back(c);
  return p;
}

RodSolutionCount CountRodSolutions(const RodState& rod) {
  const ContactLcp lcp = BuildTrinkleLcp(MakePainleveRod(rod));
  RodSolutionCount out;
  out.lcp_matrix = lcp.lcp.M(0, 0);
  out.lcp_vector = lcp.lcp.q[0];
  const LcpEnumeration all = EnumerateLcpSolutions(lcp.lcp);
  out.solutions = static_cast<int>(all.solutions.size());
  out.exhaustive = all.exhaustive;
  return out;
}

}  // namespace coulomb::trinkle
