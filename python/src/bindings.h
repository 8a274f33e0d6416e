#pragma once
// The pieces of the Python module `coulomb._core` (python/coulomb/__init__.py is the public
// face): scenes and stepping in scene_bindings.cc, the LCP and FC3D solvers in
// solver_bindings.cc. Each registers its classes and functions on the module.

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace coulomb::python {

// A defect in a scene file or an override: raised in Python as coulomb.SceneError with these
// fields (the class lives in __init__.py and is handed to the module when it loads).
struct SceneFailure {
  std::string message, file, key;
  int line = 0;
};

// A step whose state stopped being finite: raised as coulomb.StepError naming the step.
struct StepFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void RegisterScenes(pybind11::module_& m);
void RegisterSolvers(pybind11::module_& m);

}  // namespace coulomb::python
