#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/math/dense_resize.h"

namespace coulomb::trinkle {

std::vector<Eigen::Vector2d> SquareFacets(int dimension) {
  std::vector<Eigen::Vector2d> facets;
  SetSquareFacets(dimension, facets);
  return facets;
}

void SetSquareFacets(int dimension, std::vector<Eigen::Vector2d>& facets) {
  if (dimension == 1) {
    facets.assign({Eigen::Vector2d(-1, 0), Eigen::Vector2d(1, 0)});
  } else {
    facets.assign({Eigen::Vector2d(-1, 0), Eigen::Vector2d(0, -1), Eigen::Vector2d(1, 0),
                   Eigen::Vector2d(0, 1)});
  }
}

std::vector<Eigen::Vector2d> RegularFacets(int count) {
  std::vector<Eigen::Vector2d> facets;
  const int second = std::max(1, count / 4);
  const auto at = [&](int k) {
    const double angle = std::numbers::pi + 2 * std::numbers::pi * k / count;
    return Eigen::Vector2d(std::cos(angle), std::sin(angle));
  };
  facets.push_back(at(0));
  facets.push_back(at(second));
  for (int k = 1; k < count; ++k) {
    if (k != second) facets.push_back(at(k));
  }
  return facets;
}

ContactLcp BuildContactLcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                           const ContactLcpLayout& layout) {
  ContactLcpScratch scratch;
  ContactLcp out;
  BuildContactLcp(A, b, layout, scratch, out);
  return out;
}

void BuildContactLcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                     const ContactLcpLayout& layout, ContactLcpScratch& scratch, ContactLcp& out) {
  using PairVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2, 1>;
  out.layout = layout;
  const int m = layout.num_components;
  // Positions in z: unilateral first, then pair slacks ordered by pair slot across groups, then
  // other-facet multipliers ordered by facet slot across groups (the paper's order).
  int nz = static_cast<int>(layout.unilateral.size());
  const int num_groups = static_cast<int>(layout.groups.size());
  out.pair_index.resize(num_groups);
  out.other_index.resize(num_groups);
  for (int g = 0; g < num_groups; ++g) {
    out.pair_index[g].clear();
    out.other_index[g].clear();
  }
  for (int slot = 0; slot < 2; ++slot) {
    for (int g = 0; g < num_groups; ++g) {
      if (static_cast<int>(layout.groups[g].components.size()) > slot)
        out.pair_index[g].push_back(nz++);
    }
  }
  std::size_t max_other = 0;
  for (const FrictionGroup& group : layout.groups) {
    max_other = std::max(max_other, group.facets.size() - group.components.size());
  }
  for (std::size_t slot = 0; slot < max_other; ++slot) {
    for (int g = 0; g < num_groups; ++g) {
      const FrictionGroup& group = layout.groups[g];
      if (group.facets.size() - group.components.size() > slot) out.other_index[g].push_back(nz++);
    }
  }
  // z index of each unilateral component.
  std::vector<int>& unilateral_z = scratch.unilateral_z;
  unilateral_z.assign(m, -1);
  for (std::size_t i = 0; i < layout.unilateral.size(); ++i)
    unilateral_z[layout.unilateral[i]] = static_cast<int>(i);

  // c = Φ z.
  Eigen::MatrixXd& phi = out.force_map;
  phi.setZero(m, nz);
  for (int c : layout.unilateral) phi(c, unilateral_z[c]) = 1.0;
  auto& pair_inverse = scratch.pair_inverse;
  pair_inverse.resize(num_groups);
  for (int g = 0; g < num_groups; ++g) {
    const FrictionGroup& group = layout.groups[g];
    const int dim = static_cast<int>(group.components.size());
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 2, 2> D(dim, dim);
    for (int r = 0; r < dim; ++r) D.row(r) = group.facets[r].head(dim).transpose();
    pair_inverse[g] = D.inverse();
    // c_T = D_P⁻¹ (μ c_n e − s_P).
    const PairVector mu_part = pair_inverse[g] * PairVector::Constant(dim, group.mu);
    for (int r = 0; r < dim; ++r) {
      phi(group.components[r], unilateral_z[group.normal]) += mu_part[r];
      for (int k = 0; k < dim; ++k)
        phi(group.components[r], out.pair_index[g][k]) -= pair_inverse[g](r, k);
    }
  }
  for (const EliminatedComponent& e : layout.eliminated) {
    phi(e.component, unilateral_z[e.normal]) += e.coefficient;
  }
  // A Φ, using that Φ has a few entries per column (one normal, a friction pair's inverse):
  // columns of A scaled and summed, O(entries · rows) rather than a dense product (whose packing
  // buffers Eigen would also take from the heap at these sizes).
  Eigen::MatrixXd& APhi = scratch.APhi;
  APhi.setZero(A.rows(), phi.cols());
  for (Eigen::Index j = 0; j < phi.cols(); ++j) {
    for (Eigen::Index k = 0; k < phi.rows(); ++k) {
      if (phi(k, j) != 0.0) APhi.col(j) += phi(k, j) * A.col(k);
    }
  }

  LcpProblem& lcp = out.lcp;
  lcp.M.setZero(nz, nz);
  lcp.q.setZero(nz);
  for (int c : layout.unilateral) {  // w = a_i
    lcp.M.row(unilateral_z[c]) = APhi.row(c);
    lcp.q[unilateral_z[c]] = b[c];
  }
  for (int g = 0; g < num_groups; ++g) {
    const FrictionGroup& group = layout.groups[g];
    const int dim = static_cast<int>(group.components.size());
    const int others = static_cast<int>(group.facets.size()) - dim;
    // λ_P = −D_P⁻ᵀ (a_T + D_Oᵀ λ_O).
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 2, 2> DinvT =
        pair_inverse[g].transpose();
    for (int r = 0; r < dim; ++r) {
      const int row = out.pair_index[g][r];
      for (int k = 0; k < dim; ++k) {
        lcp.M.row(row) -= DinvT(r, k) * APhi.row(group.components[k]);
        lcp.q[row] -= DinvT(r, k) * b[group.components[k]];
      }
      for (int o = 0; o < others; ++o) {
        const PairVector d_o = group.facets[dim + o].head(dim);
        lcp.M(row, out.other_index[g][o]) -= (DinvT.row(r) * d_o)(0);
      }
    }
    // s_O = μ c_n − d_oᵀ c_T, written through c = Φ z.
    for (int o = 0; o < others; ++o) {
      const int row = out.other_index[g][o];
      const PairVector d_o = group.facets[dim + o].head(dim);
      lcp.M(row, unilateral_z[group.normal]) += group.mu;
      for (int k = 0; k < dim; ++k) lcp.M.row(row) -= d_o[k] * phi.row(group.components[k]);
    }
  }
}

Eigen::VectorXd FacetMultipliers(const ContactLcp& lcp, int group, const Eigen::VectorXd& z,
                                 const Eigen::VectorXd& w) {
  const FrictionGroup& g = lcp.layout.groups[group];
  Eigen::VectorXd lambda(static_cast<Eigen::Index>(g.facets.size()));
  const int dim = static_cast<int>(g.components.size());
  for (int r = 0; r < dim; ++r) lambda[r] = w[lcp.pair_index[group][r]];
  for (std::size_t o = 0; o < lcp.other_index[group].size(); ++o) {
    lambda[dim + static_cast<Eigen::Index>(o)] = z[lcp.other_index[group][o]];
  }
  return lambda;
}

void GuessContactLcpBasis(const ContactLcp& lcp, const Eigen::VectorXd& c, std::vector<char>& guess,
                          Eigen::VectorXd& z) {
  const int n = lcp.lcp.size();
  guess.assign(static_cast<std::size_t>(n), 0);
  math::ResizeKeepingStorage(z, n);
  z.setZero();
  const ContactLcpLayout& layout = lcp.layout;
  if (c.size() != layout.num_components) return;
  // Pressed: above the rounding of the largest normal force.
  double largest = 0;
  for (const int component : layout.unilateral) largest = std::max(largest, c[component]);
  const double pressed = 1e-9 * largest;
  for (std::size_t i = 0; i < layout.unilateral.size(); ++i) {
    const double c_n = c[layout.unilateral[i]];
    z[static_cast<Eigen::Index>(i)] = std::max(c_n, 0.0);
    guess[i] = c_n > pressed ? 1 : 0;
  }
  for (std::size_t g = 0; g < layout.groups.size(); ++g) {
    const FrictionGroup& group = layout.groups[g];
    const double c_n = c[group.normal];
    if (!(c_n > pressed)) continue;  // unpressed: c_T = 0, every slack 0, λ_P in the basis
    const int dim = static_cast<int>(group.components.size());
    Eigen::Vector2d c_T = Eigen::Vector2d::Zero();
    for (int r = 0; r < dim; ++r) c_T[r] = c[group.components[r]];
    // s_k = μ c_n − d_kᵀ c_T: a facet is reached when its slack is within rounding of 0.
    const double reached = 1e-6 * group.mu * c_n;
    for (std::size_t k = 0; k < group.facets.size(); ++k) {
      // (1D groups: c_T[1] = 0, whatever the facet's unused second entry.)
      const double slack = group.mu * c_n - group.facets[k].dot(c_T);
      if (static_cast<int>(k) < dim) {
        const int at = lcp.pair_index[g][k];
        z[at] = std::max(slack, 0.0);
        guess[at] = slack > reached ? 1 : 0;
      } else {
        guess[lcp.other_index[g][k - dim]] = slack <= reached ? 1 : 0;
      }
    }
  }
}

}  // namespace coulomb::trinkle
