// `coulomb._core`: the compiled half of the Python package (python/coulomb/__init__.py).

#include <pybind11/pybind11.h>

#include "coulomb/base/numerics_threads.h"
#include "python/src/bindings.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "Coulomb's compiled core; use the `coulomb` package, which documents it.";
  // One BLAS/OpenMP thread under CHOLMOD: results identical from run to run, as in the CLI.
  coulomb::UseSingleThreadedNumerics();
  coulomb::python::RegisterScenes(m);
  coulomb::python::RegisterSolvers(m);
}
