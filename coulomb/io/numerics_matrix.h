#pragma once
// Siconos' NumericsMatrix text form (storage type, sizes, then a dense column-major or a
// sparse-block body), shared by the LCP and frictional-contact problem readers.

#include <Eigen/Dense>
#include <string>

#include "coulomb/io/token_reader.h"

namespace coulomb::io {

// Reads "storage rows cols" and the body of an n × n matrix into M; `name` prefixes the fields
// of error messages ("M", "W"). Throws ParseFailure naming the line and field on any defect.
void ReadNumericsMatrix(TokenReader& in, int n, const std::string& name, Eigen::MatrixXd& M);

}  // namespace coulomb::io
