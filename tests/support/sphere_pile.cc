#include "tests/support/sphere_pile.h"

#include <string>

#include "coulomb/base/random.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::testing {

contact::ContactProblem MakeSpherePile(int side, int height, std::uint64_t seed) {
  multibody::Model model;
  const auto index = [side](int i, int j, int k) { return (k * side + j) * side + i; };
  for (int n = 0; n < side * side * height; ++n) {
    multibody::Body b;
    b.name = "sphere" + std::to_string(n);
    b.joint = multibody::JointType::kFloating;
    b.inertia.mass = 1.0;
    b.inertia.rotational = 0.1 * Eigen::Matrix3d::Identity();
    model.AddBody(b);
  }
  Eigen::VectorXd q = model.NeutralConfiguration();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv);
  SplitMix64 rng(seed);
  geometry::ContactSet contacts;
  const auto add = [&](int a, int b, const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    geometry::Contact c;
    c.body_a = a;
    c.body_b = b;
    c.point = p;
    c.normal = n;
    c.mu = 0.4;
    contacts.contacts.push_back(c);
  };
  for (int k = 0; k < height; ++k) {
    for (int j = 0; j < side; ++j) {
      for (int i = 0; i < side; ++i) {
        const int n = index(i, j, k);
        const Eigen::Vector3d centre(i, j, 0.5 + k);
        q.segment<3>(7 * n) = centre;
        v.segment<3>(6 * n) =
            Eigen::Vector3d(rng.Uniform(-0.2, 0.2), rng.Uniform(-0.2, 0.2), rng.Uniform(-1.0, 0.0));
        v.segment<3>(6 * n + 3) = Eigen::Vector3d(rng.Uniform(-1, 1), rng.Uniform(-1, 1), 0);
        add(n, k == 0 ? -1 : index(i, j, k - 1), centre - Eigen::Vector3d(0, 0, 0.5),
            Eigen::Vector3d::UnitZ());
        if (i > 0)
          add(n, index(i - 1, j, k), centre - Eigen::Vector3d(0.5, 0, 0), Eigen::Vector3d::UnitX());
        if (j > 0)
          add(n, index(i, j - 1, k), centre - Eigen::Vector3d(0, 0.5, 0), Eigen::Vector3d::UnitY());
      }
    }
  }
  multibody::Data data = multibody::MakeData(model);
  return contact::BuildContactProblem(model, data, q, v, Eigen::VectorXd::Zero(model.nv), contacts,
                                      1e-3);
}

}  // namespace coulomb::testing
