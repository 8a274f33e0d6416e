#pragma once
// One contact's Jacobian rows (n, t, o) for ContactProblem's J (contact_problem.cc): along the
// trees of its two bodies in general, in closed form when both sides are root free bodies or the
// world. Internal to BuildContactProblem.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <utility>
#include <vector>

#include "coulomb/geometry/contact_set.h"
#include "coulomb/math/sparse_assembly.h"
#include "coulomb/math/sparse_resize.h"
#include "coulomb/multibody/model.h"

namespace coulomb::contact {

// Where contact rows go: J's compressed storage itself (in place, when every contact is between
// root free bodies or the world) or the entries J is assembled from.
struct ContactRowsTarget {
  Eigen::SparseMatrix<double, Eigen::RowMajor>& J;
  math::TripletBuffer& entries;
  std::vector<std::pair<int, Eigen::Vector3d>>& columns;  // scratch of the trees' path
  bool in_place = false;
  int written = 0;  // in place: J's entries written so far
};

// Whether every contact of `set` is between root free bodies (or the world); if so J is sized
// for their rows (3 n_c × nv) to be written in place. The caller closes J's last row.
bool BeginRowsInPlace(const multibody::Model& model, const geometry::ContactSet& set, int nv,
                      Eigen::SparseMatrix<double, Eigen::RowMajor>& J);

// Contact k's rows (n, t, o) into `target`, in storage order: in closed form for root free
// bodies (the world on either side), else along both bodies' paths to their roots with the
// columns one tree reaches from both sides summed.
void AddContactJacobianRows(const multibody::Model& model, const multibody::Data& data, int k,
                            const geometry::Contact& c, const Eigen::Matrix3d& frame,
                            ContactRowsTarget& target);

}  // namespace coulomb::contact
