#include "coulomb/math/sparse_cholesky.h"

#include <Eigen/CholmodSupport>
#include <utility>
#include <vector>

#include "coulomb/math/dense_resize.h"
#include "coulomb/math/sparse_resize.h"
#include "coulomb/math/vector_growth.h"

namespace coulomb::math {

struct CholeskyFactor::Impl {
  Impl() {
    // One ordering, never CHOLMOD's trial of several (which would make timings jumpy).
    cholmod.cholmod().nmethods = 1;
    cholmod.cholmod().method[0].ordering = CHOLMOD_AMD;
    cholmod.cholmod().postorder = 1;
    // kAuto: supernodal when the analysis counts at least this many flops per entry of L (dense
    // enough columns for dense kernels to pay), CHOLMOD's default being 40. SAP's Hessians, one
    // measurement each side: the 200-sphere bin's (54–98 flops per entry, 1.5–6.4 Mflop) ran 10 %
    // slower supernodal, a landing 3 000-sphere pile's large ones (165–192, 99–133 Mflop) 19 %
    // faster.
    cholmod.cholmod().supernodal_switch = 120;
    FactorAsLltWhicheverIsPicked();
  }
  // In kAuto, LLᵀ whichever algorithm CHOLMOD picks, as the explicit methods factor (Eigen's
  // auto mode keeps a simplicial LDLᵀ), so that a simplicial pick is the simplicial method's
  // factor bit for bit.
  void FactorAsLltWhicheverIsPicked() {
    cholmod.cholmod().final_asis = 0;
    cholmod.cholmod().final_ll = 1;
  }
  Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Lower> cholmod;
  std::vector<int> outer, inner;         // the analysed pattern
  Eigen::SparseMatrix<double> factored;  // the matrix of the current factor
  CholeskyMethod method = CholeskyMethod::kAuto;
  FillOrdering ordering = FillOrdering::kAmd;
  std::vector<int> tag;
  double solves_per_factorization = 0, factorization_flops = 0;
  bool analysed = false;
  int symbolic_analyses = 0, factorizations = 0;
};

CholeskyFactor::CholeskyFactor() : impl_(std::make_unique<Impl>()) {}
CholeskyFactor::~CholeskyFactor() = default;
// A copy is the same factor, made again from the matrix it was made from (bit for bit, see
// CholeskySource): a copied simulation Data must precondition its next step as the original would.
CholeskyFactor::CholeskyFactor(const CholeskyFactor& other) : impl_(std::make_unique<Impl>()) {
  Restore(other.source());
}
CholeskyFactor& CholeskyFactor::operator=(const CholeskyFactor& other) {
  if (this != &other) {
    impl_ = std::make_unique<Impl>();
    Restore(other.source());
  }
  return *this;
}
CholeskyFactor::CholeskyFactor(CholeskyFactor&&) noexcept = default;
CholeskyFactor& CholeskyFactor::operator=(CholeskyFactor&&) noexcept = default;

bool CholeskyFactor::Factor(const Eigen::SparseMatrix<double>& lower, CholeskyMethod method,
                            FillOrdering ordering) {
  Impl& s = *impl_;
  if (ordering != s.ordering) {
    s.ordering = ordering;
    s.analysed = false;
    s.cholmod.cholmod().method[0].ordering =
        ordering == FillOrdering::kMetis ? CHOLMOD_METIS : CHOLMOD_AMD;
  }
  if (method != s.method) {
    s.method = method;
    s.analysed = false;
    s.cholmod.setMode(method == CholeskyMethod::kSupernodal   ? Eigen::CholmodSupernodalLLt
                      : method == CholeskyMethod::kSimplicial ? Eigen::CholmodSimplicialLLt
                                                              : Eigen::CholmodAuto);
    if (method == CholeskyMethod::kAuto) s.FactorAsLltWhicheverIsPicked();
  }
  const int n = static_cast<int>(lower.cols());
  // A matrix without entries is not positive definite, and CHOLMOD given one (its value array
  // null) fails its analysis and leaves no factor, which Eigen's factorize() then dereferences:
  // a checkpoint's damaged SAP factor (fuzz/regressions/fuzz_checkpoint/factor_without_entries)
  // crashed the reader that way.
  if (n > 0 && lower.nonZeros() == 0) {
    s.analysed = false;
    return false;
  }
  const bool same_pattern = s.analysed && static_cast<int>(s.outer.size()) == n + 1 &&
                            std::equal(s.outer.begin(), s.outer.end(), lower.outerIndexPtr()) &&
                            static_cast<int>(s.inner.size()) == lower.nonZeros() &&
                            std::equal(s.inner.begin(), s.inner.end(), lower.innerIndexPtr());
  if (!same_pattern) {
    s.cholmod.analyzePattern(lower);
    if (s.cholmod.cholmod().status < CHOLMOD_OK) {  // no factor to fill: refuse, never crash
      s.analysed = false;
      return false;
    }
    // Grown geometrically: while a pile lands the pattern sets a new high most steps.
    ReserveGrowing(s.outer, static_cast<std::size_t>(n) + 1);
    ReserveGrowing(s.inner, static_cast<std::size_t>(lower.nonZeros()));
    s.outer.assign(lower.outerIndexPtr(), lower.outerIndexPtr() + n + 1);
    s.inner.assign(lower.innerIndexPtr(), lower.innerIndexPtr() + lower.nonZeros());
    s.analysed = true;
    ++s.symbolic_analyses;
    const cholmod_common& common = s.cholmod.cholmod();
    s.factorization_flops = common.fl;
    s.solves_per_factorization = common.lnz > 0 ? common.fl / (4 * common.lnz) : 0;
  }
  s.cholmod.factorize(lower);
  AssignKeepingStorage(lower, s.factored);
  ++s.factorizations;
  return s.cholmod.info() == Eigen::Success;
}

void CholeskyFactor::Reserve(Eigen::Index n, Eigen::Index non_zeros) {
  Impl& s = *impl_;
  s.outer.reserve(static_cast<std::size_t>(n) + 1);
  s.inner.reserve(static_cast<std::size_t>(non_zeros));
  s.tag.reserve(static_cast<std::size_t>(n) + 1);  // a tag names at most n blocks, and the size
  ReserveSparse(s.factored, n, non_zeros);
}

Eigen::VectorXd CholeskyFactor::Solve(const Eigen::VectorXd& b) const {
  return impl_->cholmod.solve(b);
}

void CholeskyFactor::Solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  ResizeKeepingStorage(x, b.size());
  x = impl_->cholmod.solve(b);
}

Eigen::MatrixXd CholeskyFactor::Solve(const Eigen::MatrixXd& B) const {
  return impl_->cholmod.solve(B);
}

int CholeskyFactor::symbolic_analyses() const {
  return impl_->symbolic_analyses;
}
int CholeskyFactor::factorizations() const {
  return impl_->factorizations;
}

double CholeskyFactor::SolvesPerFactorization() const {
  return impl_->solves_per_factorization;
}

double CholeskyFactor::FactorizationFlops() const {
  return impl_->factorization_flops;
}

const std::vector<int>& CholeskyFactor::tag() const {
  return impl_->tag;
}
void CholeskyFactor::set_tag(const std::vector<int>& tag) {
  AssignGrowing(impl_->tag, tag);
}

CholeskySource CholeskyFactor::source() const {
  return {impl_->factored, impl_->method, impl_->ordering, impl_->tag};
}

bool CholeskyFactor::Restore(const CholeskySource& source) {
  if (source.lower.rows() == 0) return true;
  const bool ok = Factor(source.lower, source.method, source.ordering);
  set_tag(ok ? source.tag : std::vector<int>{});
  return ok;
}

}  // namespace coulomb::math
