#pragma once
// How `coulomb solve` shows frictional contact (cone) results: a table, or JSON lines with
// solver, status, iterations, error (ABH's normalized natural-map error), seconds, r, u.

#include <string>

#include "coulomb/complementarity/friction_contact_result.h"

namespace coulomb::app {

std::string FormatConeTableHeader(const FrictionContactProblem& problem);
std::string FormatConeTableRow(const FrictionContactResult& result);
std::string FormatConeJson(const FrictionContactProblem& problem,
                           const FrictionContactResult& result);

}  // namespace coulomb::app
