#pragma once
// Closed-form references of sweep files: a formula of the run's numeric parameters, evaluated
// by muparser (Debian's libmuparser, MIT: a well-kept expression parser, so no parser of our
// own). Each parameter is a variable named by its key with every character other than a letter,
// a digit or '_' replaced by '_' ("solver.tolerance" → solver_tolerance).

#include <string>
#include <vector>

namespace coulomb::sweep {

std::string FormulaVariableName(const std::string& key);

struct FormulaValue {
  double value = 0;
  std::string error;  // "" when the formula evaluated to a finite number
};

// `names` and `values` pair up; a parameter without a numeric value is given as NaN.
FormulaValue EvaluateFormula(const std::string& formula, const std::vector<std::string>& names,
                             const std::vector<double>& values);

}  // namespace coulomb::sweep
