#pragma once
// One contact's Jacobian rows (n, t, o) for ContactProblem's J (contact_problem.cc): along the
// trees of its two bodies in general, in closed form when both sides are root free bodies or the
// world. Internal to BuildContactProblem.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <array>
#include <utility>
#include <vector>

#include "coulomb/geometry/contact_set.h"
#include "coulomb/math/sparse_assembly.h"
#include "coulomb/multibody/model.h"

namespace coulomb::contact {

// Contact k's rows on any two trees: the frame Jacobian's columns on each body's path to its
// root (duplicates, in one tree, summed), added to `entries` in storage order. `columns` is
// scratch.
void AddTreeContactRows(const multibody::Model& model, const multibody::Data& data, int k,
                        const geometry::Contact& c, const Eigen::Matrix3d& frame,
                        std::vector<std::pair<int, Eigen::Vector3d>>& columns,
                        math::TripletBuffer& entries);

// Whether contact c's sides are each the world or a root floating body (two different bodies):
// its rows then come in closed form (FloatingContactBlocks).
bool BetweenFloatingBodies(const multibody::Model& model, const geometry::Contact& c);

// Such a contact's rows: its sides' 3 × 6 blocks and first columns, the lower columns first
// (storage order); `count` sides with velocities.
struct FloatingBlocks {
  std::array<Eigen::Matrix<double, 3, 6>, 2> rows;
  std::array<int, 2> column{};
  int count = 0;
};
FloatingBlocks FloatingContactBlocks(const multibody::Model& model, const multibody::Data& data,
                                     const geometry::Contact& c, const Eigen::Matrix3d& frame);

// Contact k's closed-form rows as entries, in storage order.
void AddFloatingContactRows(const FloatingBlocks& blocks, int k, math::TripletBuffer& entries);

// The same straight into J's compressed storage from entry `at` on (the rows of the contacts
// before it written; the caller sized J and closes its last row).
void WriteFloatingContactRows(const FloatingBlocks& blocks, int k,
                              Eigen::SparseMatrix<double, Eigen::RowMajor>& J, int& at);

}  // namespace coulomb::contact
