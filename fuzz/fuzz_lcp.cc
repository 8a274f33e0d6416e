// LCP problem files (ParseLcp): Siconos .dat and JSON, told apart by the reader itself. A small
// problem that parses is also solved by the default portfolio, so a solver that hangs, throws or
// calls an uncertified answer solved on odd data is found here too.
#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/lcp_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto problem = coulomb::ParseLcp(coulomb::fuzz::AsText(data, size), "fuzz.dat");
  if (!problem.ok()) return 0;
  if (!coulomb::ValidateLcp(problem.value()).empty())
    coulomb::fuzz::Broken("LCP accepted but ValidateLcp refuses it");
  if (problem.value().size() > 12) return 0;
  const coulomb::LcpResult result =
      coulomb::SolveLcp(problem.value(), coulomb::LcpSolverKind::kPortfolio);
  if (result.solved() && !coulomb::CertifyLcp(problem.value(), result.z).Passes(1e-6))
    coulomb::fuzz::Broken("LCP solved but its answer fails an independent certificate");
  return 0;
}
