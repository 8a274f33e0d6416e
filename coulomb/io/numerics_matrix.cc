#include "coulomb/io/numerics_matrix.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

namespace coulomb::io {
namespace {

std::string Entry(const std::string& name, Eigen::Index i, Eigen::Index j) {
  return fmt::format("{}[{}][{}]", name, i, j);
}

// Dense NumericsMatrix body: "rows cols" again, then values column by column.
void ReadDense(TokenReader& in, int n, const std::string& name, Eigen::MatrixXd& M) {
  in.NextInt(name + " dense rows", n, n);
  in.NextInt(name + " dense columns", n, n);
  if (static_cast<double>(n) * n > static_cast<double>(in.size())) {
    throw ParseFailure(in.line(), name,
                       fmt::format("file too short for {} x {} dense values", n, n));
  }
  M.resize(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) M(i, j) = in.NextDouble(Entry(name, i, j));
  }
}

// Sparse block (SBM) NumericsMatrix body, as Siconos' SparseBlockMatrix writes it.
void ReadSparseBlock(TokenReader& in, int n, const std::string& name, Eigen::MatrixXd& M) {
  M.setZero(n, n);
  const auto blocks = in.NextInt("SBM nbblocks", 0, std::int64_t{n} * n);
  if (blocks == 0) return;
  const auto block_rows = in.NextInt("SBM blocknumber0", 1, n);
  const auto block_cols = in.NextInt("SBM blocknumber1", 1, n);
  std::vector<std::int64_t> row_end(block_rows), col_end(block_cols);
  for (auto& r : row_end) r = in.NextInt("SBM blocksize0 (cumulative row sizes)", 1, n);
  for (auto& c : col_end) c = in.NextInt("SBM blocksize1 (cumulative column sizes)", 1, n);
  for (std::size_t k = 1; k < row_end.size(); ++k) {
    if (row_end[k] <= row_end[k - 1])
      throw ParseFailure(in.line(), "SBM blocksize0", "not increasing");
  }
  for (std::size_t k = 1; k < col_end.size(); ++k) {
    if (col_end[k] <= col_end[k - 1])
      throw ParseFailure(in.line(), "SBM blocksize1", "not increasing");
  }
  if (row_end.back() != n || col_end.back() != n) {
    throw ParseFailure(in.line(), "SBM block sizes", fmt::format("do not add up to n = {}", n));
  }
  const auto filled1 = in.NextInt("SBM filled1", block_rows + 1, block_rows + 1);
  const auto filled2 = in.NextInt("SBM filled2", blocks, blocks);
  std::vector<std::int64_t> row_ptr(filled1), col_index(filled2);
  for (auto& p : row_ptr) p = in.NextInt("SBM index1_data", 0, filled2);
  for (auto& c : col_index) c = in.NextInt("SBM index2_data", 0, block_cols - 1);
  if (row_ptr.front() != 0 || row_ptr.back() != filled2) {
    throw ParseFailure(in.line(), "SBM index1_data", "row pointers must run from 0 to filled2");
  }
  for (std::int64_t br = 0; br < block_rows; ++br) {
    if (row_ptr[br + 1] < row_ptr[br])
      throw ParseFailure(in.line(), "SBM index1_data", "decreasing");
    const std::int64_t r0 = br == 0 ? 0 : row_end[br - 1];
    const std::int64_t rows = row_end[br] - r0;
    for (std::int64_t k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
      in.NextInt(fmt::format("SBM block {} number", k), 0, std::int64_t{1} << 40);
      const std::int64_t bc = col_index[k];
      const std::int64_t c0 = bc == 0 ? 0 : col_end[bc - 1];
      const std::int64_t cols = col_end[bc] - c0;
      for (std::int64_t j = 0; j < cols; ++j) {
        for (std::int64_t i = 0; i < rows; ++i) {
          M(r0 + i, c0 + j) = in.NextDouble(Entry(name, r0 + i, c0 + j));
        }
      }
    }
  }
}

}  // namespace

void ReadNumericsMatrix(TokenReader& in, int n, const std::string& name, Eigen::MatrixXd& M) {
  const auto storage = in.NextInt(name + " storage type", 0, 2);
  const auto rows = in.NextInt(name + " rows", 0, 1 << 30);
  const auto cols = in.NextInt(name + " columns", 0, 1 << 30);
  if (rows != cols) {
    throw ParseFailure(in.line(), name, fmt::format("{} is {} x {}, not square", name, rows, cols));
  }
  if (rows != n) {
    throw ParseFailure(in.line(), name,
                       fmt::format("{0} is {1} x {1} but the problem size is {2}", name, rows, n));
  }
  if (storage == 0) {
    ReadDense(in, n, name, M);
  } else if (storage == 1) {
    ReadSparseBlock(in, n, name, M);
  } else {
    throw ParseFailure(in.line(), name + " storage type",
                       "sparse (CSparse, type 2) storage is not supported; write the matrix "
                       "dense (0) or sparse-block (1)");
  }
}

}  // namespace coulomb::io
