"""Coulomb: frictional contact between rigid and deformable bodies, from Python.

Scenes
------
    import coulomb
    model = coulomb.load("examples/scenes/incline.yaml", formulation="cone", mu=0.3)
    data = model.make_data()
    reports = coulomb.step(model, data, n=500)      # the GIL is released while stepping
    x = data.q[0]                                   # a NumPy view of the state, no copy
    position, rotation = data.body_pose("box")
    contacts = data.contacts()                      # points, normals, phi, impulses, mu, bodies

``load`` takes any scene setting as a keyword (docs/settings.md lists them): ``dt`` or
``time_step``, ``duration``, ``formulation``, ``solver`` (the formulation's solver), ``mu`` (every
surface's friction coefficient), ``gravity=[0, 0, -1.62]``, and dotted keys through
``overrides={"solver.tolerance": 1e-8}`` or as ``solver__tolerance=1e-8``. A bad file or value
raises ``coulomb.SceneError`` carrying ``file``, ``line`` and ``key``.

``data.q`` and ``data.v`` view the simulation state: writing ``data.v[:] = ...`` changes the next
step. ``step`` returns a dict of per-step arrays: ``status`` (``"solved"`` when the solver
certified its answer), ``message``, ``iterations``, ``contacts``, ``residual``,
``max_penetration`` (m), ``time`` (s) and ``stage_seconds`` (collision, assembly, solve,
advance). A state that stops being finite raises ``coulomb.StepError`` naming the step.

Solvers
-------
    sol = coulomb.solve_lcp(M, q, solver="portfolio", tol=1e-10)
    sol = coulomb.solve_fc3d(W, q, mu, solver="portfolio", tol=1e-8)   # W dense or SciPy sparse
    problem = coulomb.read_problem("data/siconos/...")                  # Siconos, FCLib, JSON
    summary = coulomb.run(model)     # the whole run, as `coulomb run --json` reports it

Each answer carries ``status``, ``iterations``, ``seconds``, ``message`` and an independent
``certificate`` (LCP: natural residual, infeasibilities, complementarity; FC3D: the
Acary–Brémond–Huber error and its parts). Units are SI throughout.
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping

from . import _core
from ._core import Data, Model, StepError, step

__all__ = [
    "Data",
    "Model",
    "SceneError",
    "StepError",
    "load",
    "read_problem",
    "run",
    "solve_fc3d",
    "solve_lcp",
    "step",
]


class SceneError(ValueError):
    """A scene file or an override that cannot be used: ``file``, ``line`` (0 when unknown) and
    ``key`` say where, the message says why."""

    def __init__(self, message: str, file: str = "", line: int = 0, key: str = ""):
        super().__init__(message)
        self.file = file
        self.line = line
        self.key = key


_core._register_scene_error(SceneError)

# Keyword names for the settings most often changed; any other setting by its key, with "__"
# for "." (solver__tolerance) or in `overrides`.
_ALIASES = {"dt": "time_step", "mu": "friction", "solver": "solver.name"}


def _yaml_value(key: str, value: Any) -> str:
    """A Python value as the YAML text the scene reader takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Real):
        return repr(float(value)) if not isinstance(value, numbers.Integral) else str(int(value))
    if isinstance(value, str):
        return value
    try:
        items = [float(v) for v in value]
    except (TypeError, ValueError):
        raise SceneError(f"{key}: {value!r} is not a number, a flag, a name or a list of numbers",
                         key=key) from None
    return "[" + ", ".join(repr(v) for v in items) + "]"


def load(path: str, overrides: Mapping[str, Any] | None = None, **settings: Any) -> Model:
    """Reads a scene file (YAML, docs/scene-format.md) and returns its Model, with settings
    changed as given (keywords or `overrides`; see the module's help)."""
    assignments = []
    for key, value in list((overrides or {}).items()) + list(settings.items()):
        key = _ALIASES.get(key, key.replace("__", "."))
        assignments.append(f"{key}={_yaml_value(key, value)}")
    return _core._load(str(path), assignments)


def run(model: Model) -> dict:
    """Runs the scene's whole duration from its initial state (as `coulomb run` does, with the
    per-step accuracy measures on) and returns the run's summary: steps, failed_steps,
    first_failure, max_penetration (m), initial_energy and final_energy (J), worst_metrics
    (signorini_W, cone_Ns, dissipation_W, misalignment, gliding_mps: the largest of each
    accuracy measure over all steps), mean_step_us, state_hash and the rest of
    `coulomb run --json`'s fields."""
    import json

    return json.loads(_core._run_summary_json(model))


def solve_lcp(M, q, solver: str = "portfolio", tol: float = 1e-10) -> dict:
    """Solves the LCP  w = M z + q,  z >= 0,  w >= 0,  z·w = 0.

    M: (n, n) array (or SciPy sparse), q: (n,). Returns a dict with z, w, status ("solved" only
    when the certificate passes at `tol`), solver, iterations, seconds, message and certificate.
    Solvers: lemke, fip, ipm, newton, pgs, enum, portfolio."""
    import numpy as np

    if hasattr(M, "toarray"):
        M = M.toarray()
    M = np.asarray(M, dtype=float)
    q = np.asarray(q, dtype=float)
    if M.ndim != 2 or q.ndim != 1:
        raise ValueError(f"M must be 2-D and q 1-D (got shapes {M.shape} and {q.shape})")
    return _core._solve_lcp(M, q, solver, tol)


def solve_fc3d(W, q, mu, solver: str = "portfolio", tol: float = 1e-8) -> dict:
    """Solves the 3-D frictional contact problem  u = W r + q  with r in the Coulomb cones of
    friction coefficients `mu` and u's De Saxcé velocity in their duals (FCLib's local problem).

    W: (3 n_c, 3 n_c) array or SciPy sparse, q: (3 n_c,), mu: (n_c,) (each >= 0). Returns a dict
    with r, u, status ("solved" only when the ABH error is at most `tol`), solver, iterations,
    error, seconds, message and certificate. Solvers: nsgs, nsn, ppa, ipm, portfolio."""
    import numpy as np

    q = np.asarray(q, dtype=float)
    mu = np.atleast_1d(np.asarray(mu, dtype=float))
    if q.ndim != 1 or mu.ndim != 1:
        raise ValueError(f"q and mu must be 1-D (got shapes {q.shape} and {mu.shape})")
    if hasattr(W, "tocsc"):
        return _core._solve_fc3d_sparse(W.tocsc().astype(float), q, mu, solver, tol)
    W = np.asarray(W, dtype=float)
    if W.ndim != 2:
        raise ValueError(f"W must be 2-D (got shape {W.shape})")
    return _core._solve_fc3d_dense(W, q, mu, solver, tol)


def read_problem(path: str) -> dict:
    """Reads an LCP (Siconos text, JSON) or FC3D problem file (Siconos text, FCLib HDF5): a dict
    with kind ("lcp" or "fc3d") and M, q or W (SciPy-compatible sparse), q, mu. A bad file raises
    SceneError naming it."""
    return _core._read_problem(str(path))
