// Siconos FC3D problem files (ParseSiconosFrictionContact). A small problem that parses is also
// solved by the default cone portfolio and its answer certified independently.
#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/io/friction_contact_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto problem =
      coulomb::ParseSiconosFrictionContact(coulomb::fuzz::AsText(data, size), "fuzz.dat");
  if (!problem.ok()) return 0;
  if (!coulomb::ValidateFrictionContactProblem(problem.value()).empty())
    coulomb::fuzz::Broken("FC3D problem accepted but ValidateFrictionContactProblem refuses it");
  if (problem.value().num_contacts() > 6) return 0;
  coulomb::ConeSolverSettings settings;
  const auto result =
      coulomb::SolveFrictionContact(problem.value(), coulomb::ConeSolverKind::kPortfolio, settings);
  if (result.solved() &&
      !(coulomb::CertifyFrictionContact(problem.value(), result.r).error <= 1e-6))
    coulomb::fuzz::Broken("FC3D solved but its answer fails an independent certificate");
  return 0;
}
