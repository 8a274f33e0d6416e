#pragma once
// Dense factorizations of a square matrix in storage the caller keeps.
//
// Why our own: Eigen's decompositions own their storage and reallocate it whenever the size
// changes, and an LCP's rounding to a complementary basis (complementary_basis.h) factors a block
// whose size is the guessed active set's, new at almost every call; its rank-deficient case
// (Eigen's complete orthogonal decomposition) also allocates inside every solve. These keep
// their arrays from one call to the next, so a warm caller allocates nothing. Both are the
// textbook algorithms (Golub & Van Loan, Matrix Computations, 4th ed., §3.4 and §5.4), unblocked:
// the blocks they see have tens to a few hundred rows.

#include <Eigen/Core>
#include <vector>

namespace coulomb::math {

// P A = L U with partial pivoting (Golub & Van Loan Alg. 3.4.1), in place.
struct DenseLu {
  int n = 0;
  std::vector<double> lu;    // n × n column-major: the matrix, then L (unit, below) and U
  std::vector<int> pivots;   // step k swapped rows k and pivots[k]
  std::vector<double> work;  // the condition estimate's two vectors
  bool singular = false;     // an exactly zero pivot
  double norm1 = 0;          // ‖A‖₁ of the matrix factored
};

// The n × n matrix to factor, for the caller to fill (storage kept, contents unspecified).
Eigen::Map<Eigen::MatrixXd> PrepareLu(DenseLu& f, int n);
// Room for every size up to n, so that later PrepareLu calls up to it allocate nothing.
void ReserveLu(DenseLu& f, int n);
// Factors the matrix PrepareLu handed out.
void FactorLu(DenseLu& f);
// b ← A⁻¹ b and b ← A⁻ᵀ b (not for a singular factorization).
void SolveLuInPlace(const DenseLu& f, Eigen::Ref<Eigen::VectorXd> b);
// The same for every column of B at once (blocked triangular solves: several right-hand sides
// cost far less than one solve each).
void SolveLuColumnsInPlace(const DenseLu& f, Eigen::Ref<Eigen::MatrixXd> B);
void SolveLuTransposedInPlace(const DenseLu& f, Eigen::Ref<Eigen::VectorXd> b);
// An estimate of 1 / (‖A‖₁ ‖A⁻¹‖₁), the reciprocal condition number, from a few solves
// (Hager's method with Higham's refinements, Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., Alg. 15.4); 0 for a singular factorization.
double EstimateReciprocalCondition(DenseLu& f);

// The minimum-norm least-squares solution of B x = r for a square, possibly rank-deficient B,
// by a complete orthogonal decomposition (Golub & Van Loan §5.4.2): Householder QR with column
// pivoting, B P = Q [R₁₁ R₁₂; 0 0] with R₁₁ of the numerical rank, then reflections from the
// right, [R₁₁ R₁₂] = [T₁₁ 0] Z, so x = P Zᵀ [T₁₁⁻¹ (Qᵀ r)₁; 0].
struct DenseMinNorm {
  int n = 0;
  int rank = 0;
  std::vector<double> qr;       // n × n column-major: T₁₁ and both sets of reflectors
  std::vector<double> tau;      // the left (QR) reflectors' coefficients
  std::vector<double> tau_z;    // the right (Z) reflectors' coefficients
  std::vector<int> columns;     // B's column at each position after pivoting
  std::vector<double> scratch;  // trailing column norms while factoring; the solve's vector
};

// The n × n matrix B, for the caller to fill (storage kept, contents unspecified).
Eigen::Map<Eigen::MatrixXd> PrepareMinNorm(DenseMinNorm& f, int n);
// Room for every size up to n, so that later PrepareMinNorm calls up to it allocate nothing.
void ReserveMinNorm(DenseMinNorm& f, int n);
// Factors the B that PrepareMinNorm handed out. Diagonal entries of R at most n ε |R₀₀| count
// as zero (the rank rule of Eigen's column-pivoting QR).
void FactorMinNorm(DenseMinNorm& f);
// x = the minimum-norm minimizer of ‖B x − r‖₂ (the solution of least norm when B x = r is
// consistent).
void SolveMinNorm(DenseMinNorm& f, const Eigen::Ref<const Eigen::VectorXd>& r,
                  Eigen::Ref<Eigen::VectorXd> x);

}  // namespace coulomb::math
