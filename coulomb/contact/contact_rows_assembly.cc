// One contact's Jacobian rows (contact_rows_assembly.h).

#include "coulomb/contact/contact_rows_assembly.h"

#include <array>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::contact {
namespace {

// Contact k's three Jacobian rows from its (column, rows) pairs, in storage order (row by row,
// columns increasing), so that J's assembly copies them straight in instead of sorting every
// entry. A column both sides reach (one tree touching itself) is summed A first, then B, the
// order the entries were produced in.
void AddContactRows(int k, std::vector<std::pair<int, Eigen::Vector3d>>& columns,
                    math::TripletBuffer& entries) {
  // Insertion sort, stable: a path to the root is short and comes out nearly ordered.
  for (std::size_t i = 1; i < columns.size(); ++i) {
    for (std::size_t j = i; j > 0 && columns[j - 1].first > columns[j].first; --j) {
      std::swap(columns[j - 1], columns[j]);
    }
  }
  std::size_t merged = 0;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (merged > 0 && columns[merged - 1].first == columns[i].first) {
      columns[merged - 1].second += columns[i].second;
    } else {
      columns[merged++] = columns[i];
    }
  }
  for (int r = 0; r < 3; ++r) {
    for (std::size_t i = 0; i < merged; ++i) {
      entries.add(3 * k + r, columns[i].first, columns[i].second[r]);
    }
  }
}

// A root floating body: its velocities are (ṗ in the world, ω in the body frame), S =
// diag(R_jᵀ, I) (multibody/joint.h), and no other joint moves it.
bool IsRootFloating(const multibody::Model& model, int body) {
  return body >= 0 && model.bodies[body].parent < 0 &&
         model.bodies[body].joint == multibody::JointType::kFloating;
}

// Contact rows (n, t, o)ᵀ on a root floating body's six velocities at world point p_W, in closed
// form: linear columns Fᵀ R S_lin, angular columns Fᵀ (R e_c × r) = ((r × f_i)ᵀ R)_i with r the
// point from the body's origin. The general path (ForEachFrameJacobianColumn, then sorting
// the columns) costs twice the arithmetic and a sort: 5 % of a 10-cube stack's step.
Eigen::Matrix<double, 3, 6> FloatingBodyRows(const multibody::Data& data, int body,
                                             const Eigen::Matrix3d& frame,
                                             const Eigen::Vector3d& p_W) {
  const math::Transform& X = data.X_world[body];
  const Eigen::Vector3d r = p_W - X.p;
  Eigen::Matrix3d lever;  // rows (r × f_i)ᵀ
  for (int i = 0; i < 3; ++i) lever.row(i) = r.cross(frame.col(i)).transpose();
  Eigen::Matrix<double, 3, 6> rows;
  rows.leftCols<3>().noalias() = frame.transpose() * (X.R * data.S[body].topLeftCorner<3, 3>());
  rows.rightCols<3>().noalias() = lever * X.R;
  return rows;
}

// Contact k's rows on any two trees: the frame Jacobian's columns on each body's path to its
// root (duplicates, in one tree, summed), sorted into storage order.
void AddTreeContactRows(const multibody::Model& model, const multibody::Data& data, int k,
                        const geometry::Contact& c, const Eigen::Matrix3d& frame,
                        std::vector<std::pair<int, Eigen::Vector3d>>& columns,
                        math::TripletBuffer& entries) {
  columns.clear();
  const auto add = [&](int body, double sign) {
    if (body < 0) return;
    const Eigen::Vector3d p_B = data.X_world[body].Inverse().Apply(c.point);
    multibody::ForEachFrameJacobianColumn(
        model, data, body, p_B,
        [&](int column, const Eigen::Vector3d& linear, const Eigen::Vector3d&) {
          columns.emplace_back(column, sign * (frame.transpose() * linear));
        });
  };
  add(c.body_a, 1.0);
  add(c.body_b, -1.0);
  AddContactRows(k, columns, entries);
}

// Whether contact c's sides are each the world or a root floating body (two different bodies):
// its rows then come in closed form (FloatingContactBlocks).
bool BetweenFloatingBodies(const multibody::Model& model, const geometry::Contact& c) {
  const auto floating_or_world = [&](int body) { return body < 0 || IsRootFloating(model, body); };
  return floating_or_world(c.body_a) && floating_or_world(c.body_b) && c.body_a != c.body_b;
}

// Such a contact's rows: its sides' 3 × 6 blocks and first columns, the lower columns first
// (storage order); `count` sides with velocities.
struct FloatingBlocks {
  // Row-major: each row is copied whole into J's row-major storage.
  std::array<Eigen::Matrix<double, 3, 6, Eigen::RowMajor>, 2> rows;
  std::array<int, 2> column{};
  int count = 0;
};

FloatingBlocks FloatingContactBlocks(const multibody::Model& model, const multibody::Data& data,
                                     const geometry::Contact& c, const Eigen::Matrix3d& frame) {
  FloatingBlocks out;
  const std::array<int, 2> bodies = {c.body_a, c.body_b};
  const bool b_first = c.body_a < 0 || (c.body_b >= 0 && model.bodies[c.body_b].v_index <
                                                             model.bodies[c.body_a].v_index);
  for (const int s : {b_first ? 1 : 0, b_first ? 0 : 1}) {
    if (bodies[s] < 0) continue;
    const double sign = s == 0 ? 1.0 : -1.0;
    out.rows[out.count] = sign * FloatingBodyRows(data, bodies[s], frame, c.point);
    out.column[out.count] = model.bodies[bodies[s]].v_index;
    ++out.count;
  }
  return out;
}

// Contact k's closed-form rows as entries, in storage order.
void AddFloatingContactRows(const FloatingBlocks& blocks, int k, math::TripletBuffer& entries) {
  for (int row = 0; row < 3; ++row) {
    for (int s = 0; s < blocks.count; ++s) {
      for (int j = 0; j < 6; ++j) {
        entries.add(3 * k + row, blocks.column[s] + j, blocks.rows[s](row, j));
      }
    }
  }
}

// The same straight into J's compressed storage from entry `at` on (the rows of the contacts
// before it written): the entries' sort check and copy were 5 % of a sliding box's step.
void WriteFloatingContactRows(const FloatingBlocks& blocks, int k,
                              Eigen::SparseMatrix<double, Eigen::RowMajor>& J, int& at) {
  // Through local pointers: a store through J's own int* may alias J's members, which made the
  // compiler reload them for every entry.
  int* outer = J.outerIndexPtr() + 3 * k;
  int* inner = J.innerIndexPtr();
  double* values = J.valuePtr();
  for (int row = 0; row < 3; ++row) {
    outer[row] = at;
    for (int s = 0; s < blocks.count; ++s, at += 6) {
      const int column = blocks.column[s];
      for (int j = 0; j < 6; ++j) inner[at + j] = column + j;
      Eigen::Map<Eigen::Matrix<double, 1, 6>> entries(values + at);
      entries = blocks.rows[s].row(row);
    }
  }
}

}  // namespace

bool BeginRowsInPlace(const multibody::Model& model, const geometry::ContactSet& set, int nv,
                      Eigen::SparseMatrix<double, Eigen::RowMajor>& J) {
  int entries = 0;
  for (const geometry::Contact& c : set.contacts) {
    if (!BetweenFloatingBodies(model, c)) return false;
    entries += 18 * ((c.body_a >= 0 ? 1 : 0) + (c.body_b >= 0 ? 1 : 0));
  }
  math::ResizeKeepingStorage(J, 3 * static_cast<Eigen::Index>(set.contacts.size()), nv);
  math::ResizeNonZerosGrowing(J, entries);
  return true;
}

void AddContactJacobianRows(const multibody::Model& model, const multibody::Data& data, int k,
                            const geometry::Contact& c, const Eigen::Matrix3d& frame,
                            ContactRowsTarget& target) {
  if (target.in_place) {
    WriteFloatingContactRows(FloatingContactBlocks(model, data, c, frame), k, target.J,
                             target.written);
  } else if (BetweenFloatingBodies(model, c)) {
    AddFloatingContactRows(FloatingContactBlocks(model, data, c, frame), k, target.entries);
  } else {
    AddTreeContactRows(model, data, k, c, frame, target.columns, target.entries);
  }
}

}  // namespace coulomb::contact
