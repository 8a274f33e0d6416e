#include "coulomb/fem/deformable_model.h"

#include <fmt/format.h>

#include <algorithm>

namespace coulomb::fem {

std::string ValidateDeformableModel(const DeformableModel& model, int num_rigid_bodies) {
  for (const FemBody& body : model.bodies) {
    if (std::string defect = ValidateFemBody(body); !defect.empty()) return defect;
  }
  const int n = static_cast<int>(model.bodies.size());
  for (const VertexAttachment& a : model.attachments) {
    if (a.deformable < 0 || a.deformable >= n) {
      return fmt::format("attachment to deformable body {} that does not exist", a.deformable);
    }
    const FemBody& body = model.bodies[a.deformable];
    if (a.vertex < 0 || a.vertex >= body.rest.num_vertices()) {
      return fmt::format("attachment of deformable body '{}': vertex {} does not exist", body.name,
                         a.vertex);
    }
    if (a.body < 0 || a.body >= num_rigid_bodies) {
      return fmt::format("attachment of deformable body '{}': rigid body {} does not exist",
                         body.name, a.body);
    }
    if (!a.p_B.allFinite()) {
      return fmt::format("attachment of deformable body '{}': the point is not finite", body.name);
    }
  }
  return "";
}

bool IsAttached(const DeformableModel& model, int d, int b) {
  return std::any_of(model.attachments.begin(), model.attachments.end(),
                     [&](const VertexAttachment& a) { return a.deformable == d && a.body == b; });
}

}  // namespace coulomb::fem
