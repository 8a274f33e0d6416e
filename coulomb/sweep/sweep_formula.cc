#include "coulomb/sweep/sweep_formula.h"

#include <fmt/format.h>
#include <muParser.h>

#include <cctype>
#include <cmath>

namespace coulomb::sweep {

std::string FormulaVariableName(const std::string& key) {
  std::string name = key;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') c = '_';
  }
  return name;
}

FormulaValue EvaluateFormula(const std::string& formula, const std::vector<std::string>& names,
                             const std::vector<double>& values) {
  std::vector<double> storage = values;  // muparser reads variables through pointers
  try {
    mu::Parser parser;
    for (std::size_t k = 0; k < names.size() && k < storage.size(); ++k) {
      parser.DefineVar(FormulaVariableName(names[k]), &storage[k]);
    }
    parser.SetExpr(formula);
    const double value = parser.Eval();
    if (!std::isfinite(value)) {
      return {value, fmt::format("'{}' evaluates to {} here", formula, value)};
    }
    return {value, ""};
  } catch (const mu::Parser::exception_type& e) {
    return {0, fmt::format("'{}': {}", formula, e.GetMsg())};
  }
}

}  // namespace coulomb::sweep
