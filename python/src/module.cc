// `coulomb._core`: the compiled half of the Python package (python/coulomb/__init__.py).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "coulomb/base/numerics_threads.h"
#include "python/src/bindings.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "Coulomb's compiled core; use the `coulomb` package, which documents it.";
  // One BLAS/OpenMP thread under CHOLMOD: results identical from run to run, as in the CLI.
  coulomb::UseSingleThreadedNumerics();
  // pybind11 reaches NumPy's C API through a function-local static that imports NumPy the first
  // time an array is made. Made first inside step() by two threads at once, the thread running
  // the import gives up the GIL while the other holds it and waits on the static's guard: a
  // deadlock. Making one array of each kind here, while the module loads, runs it once.
  (void)py::array_t<double>(0);
  (void)py::array_t<int>(0);
  coulomb::python::RegisterScenes(m);
  coulomb::python::RegisterSolvers(m);
}
