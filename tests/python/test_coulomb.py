"""The Python package against closed forms and independent certificates recomputed in NumPy
(never against the package's own earlier output), zero-copy views, and bad input.

Run by ctest (tests/CMakeLists.txt) with PYTHONPATH pointing at the build's python/ folder."""

import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest
import scipy.sparse

import coulomb

ROOT = pathlib.Path(os.environ.get("COULOMB_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
SCENES = ROOT / "examples" / "scenes"


def cube_position(model, data):
    position, _ = data.body_pose("cube")
    return position


@pytest.mark.parametrize("formulation", ["velocity-lcp", "cone", "sap"])
@pytest.mark.parametrize("mu", [0.3, 0.5])
def test_incline_slides_as_coulomb_predicts(formulation, mu):
    # a = g (sin θ − μ cos θ) on a 30° slope; the scene's materials say μ = 0.5, `mu` replaces it.
    model = coulomb.load(SCENES / "incline.yaml", formulation=formulation, mu=mu, duration=0.5)
    data = model.make_data()
    start = cube_position(model, data).copy()
    reports = coulomb.step(model, data, n=model.num_steps)
    assert all(s == "solved" for s in reports["status"]), set(reports["message"])
    t = data.time
    assert t == pytest.approx(0.5, abs=1e-12)
    theta, g = math.pi / 6, 9.81
    expected = 0.5 * g * (math.sin(theta) - mu * math.cos(theta)) * t * t
    moved = np.linalg.norm(cube_position(model, data) - start)
    # SAP regularizes friction (slip ≈ σ δt g per step), the exact formulations do not.
    assert moved == pytest.approx(expected, rel=0.01 if formulation != "sap" else 0.02)
    assert reports["max_penetration"].max() < 1e-5
    assert reports["stage_seconds"].shape == (model.num_steps, 4)


def test_state_arrays_view_the_simulation_without_copying():
    model = coulomb.load(SCENES / "drop.yaml")
    data = model.make_data()
    q1, q2 = data.q, data.q
    # The same memory each time, owned by Data (not a copy made for this call).
    assert q1.__array_interface__["data"][0] == q2.__array_interface__["data"][0]
    assert not q1.flags["OWNDATA"]
    coulomb.step(model, data, n=3)
    assert q1.__array_interface__["data"][0] == data.q.__array_interface__["data"][0]
    assert np.array_equal(q1, data.q)  # the old view sees the new state
    # Behaviour: an upward velocity written through the view lifts the box on the next step.
    z_index = 2  # floating body: position first
    height = data.q[z_index]
    data.v[z_index] = 3.0
    coulomb.step(model, data, n=1)
    assert data.q[z_index] > height + 0.02
    # The view keeps its Data alive.
    del data
    assert np.isfinite(q1).all()


def test_contacts_come_out_as_arrays_with_the_weight_of_the_box():
    model = coulomb.load(SCENES / "drop.yaml", duration=1.5)
    data = model.make_data()
    coulomb.step(model, data, n=model.num_steps)
    c = data.contacts()
    k = len(c["phi"])
    assert k >= 3
    assert c["points"].shape == (k, 3) and c["normals"].shape == (k, 3)
    assert c["bodies"].shape == (k, 2)
    # At rest, the normal impulses carry the weight of the 1 kg box over one step.
    assert c["impulses"][:, 0].sum() == pytest.approx(9.81 * model.time_step, rel=1e-3)
    assert np.allclose(np.linalg.norm(c["normals"], axis=1), 1.0)


def certify_lcp(M, q, z, tol):
    w = M @ z + q
    scale = 1 + np.abs(q).max()
    assert z.min() >= -tol * scale
    assert w.min() >= -tol * scale
    assert np.abs(np.minimum(z, w)).max() <= tol * scale


@pytest.mark.parametrize("solver", ["lemke", "ipm", "pgs", "portfolio"])
def test_lcp_answers_pass_a_certificate_recomputed_in_numpy(solver):
    rng = np.random.default_rng(7)
    A = rng.standard_normal((12, 12))
    M = A @ A.T + 0.5 * np.eye(12)  # positive definite: a unique solution
    q = rng.standard_normal(12)
    sol = coulomb.solve_lcp(M, q, solver=solver, tol=1e-9)
    assert sol["status"] == "solved", sol["message"]
    certify_lcp(M, q, sol["z"], 1e-8)
    assert sol["iterations"] > 0
    # SciPy sparse input is taken too.
    sparse = coulomb.solve_lcp(scipy.sparse.csr_matrix(M), q, solver=solver, tol=1e-9)
    certify_lcp(M, q, sparse["z"], 1e-8)


def abh_error(W, q, mu, r):
    """Acary–Brémond–Huber's error, written here from its definition: ‖r − P_K(r − û)‖ / ‖q‖
    with û the De Saxcé velocity u + μ ‖u_T‖ e_n."""
    W = W.toarray() if hasattr(W, "toarray") else W
    u = W @ r + q
    residual = []
    for i, m in enumerate(mu):
        ri, ui = r[3 * i:3 * i + 3], u[3 * i:3 * i + 3]
        uhat = ui + np.array([m * np.linalg.norm(ui[1:]), 0, 0])
        x = ri - uhat
        # Projection onto {‖x_T‖ ≤ μ x_n}.
        xn, xt = x[0], x[1:]
        norm_t = np.linalg.norm(xt)
        if norm_t <= m * xn:
            p = x
        elif m * norm_t <= -xn:
            p = np.zeros(3)
        else:
            pn = (xn + m * norm_t) / (1 + m * m)
            p = np.concatenate([[pn], m * pn * xt / norm_t])
        residual.append(ri - p)
    return np.linalg.norm(np.concatenate(residual)) / max(np.linalg.norm(q), 1e-300)


def box_on_ground_fc3d():
    """Four corner contacts of a 1 kg, 0.2 m box resting on the ground: W = J M⁻¹ Jᵀ."""
    m, a = 1.0, 0.1
    inertia = m * (2 * 0.2 ** 2) / 12 * np.eye(3)
    corners = [np.array([sx * a, sy * a, -a]) for sx in (-1, 1) for sy in (-1, 1)]
    rows = []
    for c in corners:
        for d in (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])):
            rows.append(np.concatenate([d, np.cross(c, d)]))
    J = np.array(rows)
    Minv = np.block([[np.eye(3) / m, np.zeros((3, 3))], [np.zeros((3, 3)), np.linalg.inv(inertia)]])
    W = J @ Minv @ J.T
    h = 1e-3
    v_free = np.array([0.3, 0, -9.81 * h, 0, 0, 0])  # sliding along x, falling into the ground
    q = J @ v_free
    return W, q, np.full(4, 0.5)


@pytest.mark.parametrize("solver", ["nsgs", "nsn", "portfolio"])
def test_fc3d_answers_pass_the_abh_error_recomputed_in_numpy(solver):
    W, q, mu = box_on_ground_fc3d()
    for matrix in (W, scipy.sparse.csc_matrix(W)):
        sol = coulomb.solve_fc3d(matrix, q, mu, solver=solver, tol=1e-9)
        assert sol["status"] == "solved", sol["message"]
        assert abh_error(W, q, mu, sol["r"]) <= 1e-8
        # Sliding: friction opposes the slip at μ times the normal impulse.
        r = sol["r"].reshape(4, 3)
        assert r[:, 1].sum() == pytest.approx(-0.5 * r[:, 0].sum(), rel=1e-6)


def test_read_problem_reads_the_examples():
    lcp = coulomb.read_problem(ROOT / "examples" / "lcp" / "lcp_mmc.dat")
    assert lcp["kind"] == "lcp"
    sol = coulomb.solve_lcp(lcp["M"], lcp["q"])
    assert sol["status"] == "solved"
    certify_lcp(np.asarray(lcp["M"]), np.asarray(lcp["q"]), sol["z"], 1e-8)


def test_bad_input_raises_clear_exceptions():
    with pytest.raises(ValueError, match="square"):
        coulomb.solve_lcp(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="q has 3 entries"):
        coulomb.solve_lcp(np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match="NaN"):
        coulomb.solve_lcp(np.array([[1.0, np.nan], [0, 1]]), np.ones(2))
    with pytest.raises(ValueError, match="unknown LCP solver 'simplex'"):
        coulomb.solve_lcp(np.eye(2), np.ones(2), solver="simplex")
    W, q, mu = box_on_ground_fc3d()
    with pytest.raises(ValueError, match="mu"):
        coulomb.solve_fc3d(W, q, -mu)
    with pytest.raises(ValueError, match="3 n_c"):
        coulomb.solve_fc3d(W, q[:-1], mu)
    with pytest.raises(ValueError, match="tol"):
        coulomb.solve_fc3d(W, q, mu, tol=0)
    with pytest.raises(coulomb.SceneError) as missing:
        coulomb.load("no/such/scene.yaml")
    assert missing.value.file == "no/such/scene.yaml"
    with pytest.raises(coulomb.SceneError) as bad:
        coulomb.load(SCENES / "incline.yaml", solver__tolerance=3)
    assert bad.value.key == "solver.tolerance" and "not in [1e-16, 1]" in str(bad.value)
    with pytest.raises(coulomb.SceneError, match="unknown setting 'tolerence'"):
        coulomb.load(SCENES / "incline.yaml", tolerence=1e-8)
    with pytest.raises(coulomb.SceneError) as typo:
        coulomb.load(ROOT / "tests" / "bad_input" / "unknown_key.yaml")
    assert typo.value.line == 4 and typo.value.key == "gravty"
    model = coulomb.load(SCENES / "drop.yaml")
    other = coulomb.load(SCENES / "drop.yaml").make_data()
    with pytest.raises(ValueError, match="another Model"):
        coulomb.step(model, other)
    with pytest.raises(KeyError):
        model.make_data().body_pose("nobody")
    # A state written from Python is checked at the next step, which names the field.
    data = model.make_data()
    data.v[0] = np.nan
    with pytest.raises(ValueError, match=r"v\[0\] = nan is not finite"):
        coulomb.step(model, data, n=5)
    data = model.make_data()
    data.q[3:7] = 0  # the box's quaternion (floating joint: position, then w, x, y, z)
    with pytest.raises(ValueError, match=r"q\[3:7\], the quaternion .* has norm 0"):
        coulomb.step(model, data)
    data = model.make_data()
    data.tau[2] = np.inf
    with pytest.raises(ValueError, match=r"tau\[2\] = inf"):
        coulomb.step(model, data)
    with pytest.raises(ValueError, match="time = nan"):
        data.time = float("nan")
    assert data.steps == 0 and math.isfinite(data.time)


# Two threads, each stepping its own Data of one shared Model with the GIL released, end where one
# thread stepping both ends. In a fresh interpreter: the first arrays made inside step() by two
# threads at once used to deadlock on pybind11's NumPy import.
THREADS_SCRIPT = """
import sys, threading
import coulomb
model = coulomb.load(sys.argv[1], duration=0.1)
alone = model.make_data()
coulomb.step(model, alone, n=model.num_steps)
datas = [model.make_data() for _ in range(2)]
threads = [threading.Thread(target=coulomb.step, args=(model, d, model.num_steps)) for d in datas]
for t in threads: t.start()
for t in threads: t.join()
print(alone.state_hash(), *[d.state_hash() for d in datas])
"""


def test_threads_step_their_own_data_of_one_model_concurrently():
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, str(SCENES / "pyramid.yaml")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    alone, first, second = out.stdout.split()
    assert first == alone and second == alone


def test_the_step_s_threads_change_no_bit_of_the_answer():
    # The bin's landing: one island of 500+ contacts, swept level by level on the workers.
    model = coulomb.load(SCENES / "bin.yaml")
    hashes = []
    for threads in (1, 2):
        data = model.make_data()
        assert data.threads == 1
        data.threads = threads
        assert data.threads == threads
        coulomb.step(model, data, n=200)
        hashes.append(data.state_hash())
    assert hashes[0] == hashes[1]
    with pytest.raises(ValueError, match="threads = 0"):
        data.threads = 0


def test_one_data_stepped_from_two_threads_at_once_raises():
    import threading
    model = coulomb.load(SCENES / "pyramid.yaml")
    data = model.make_data()

    def step_long():  # retried if this thread is the one refused first
        while True:
            try:
                return coulomb.step(model, data, n=1000)
            except ValueError:
                continue

    busy = threading.Thread(target=step_long)
    busy.start()
    refused = None
    while busy.is_alive() and refused is None:
        try:
            coulomb.step(model, data)
        except ValueError as e:
            refused = str(e)
    busy.join()
    assert refused is not None and "another thread" in refused


def test_room_reserved_for_contacts_changes_no_result():
    model = coulomb.load(SCENES / "bin.yaml", duration=0.2)
    plain, roomy = model.make_data(), model.make_data()
    roomy.reserve_contacts(5000)
    coulomb.step(model, plain, n=model.num_steps)
    coulomb.step(model, roomy, n=model.num_steps)
    assert len(roomy.contacts()["phi"]) > 0
    assert plain.state_hash() == roomy.state_hash()
    with pytest.raises(ValueError, match="must be at least 0"):
        roomy.reserve_contacts(-1)


def test_same_input_gives_the_same_state_as_the_cli_reports():
    model = coulomb.load(SCENES / "stack.yaml", duration=0.05, formulation="cone")
    a, b = model.make_data(), model.make_data()
    coulomb.step(model, a, n=model.num_steps)
    for _ in range(model.num_steps):
        coulomb.step(model, b)
    assert a.state_hash() == b.state_hash()
    assert "formulation: cone" in model.settings_yaml()
    cli = os.environ.get("COULOMB_CLI")
    if cli:  # ctest sets it; the same run through `coulomb run` ends in the same state
        out = subprocess.run([cli, "run", str(SCENES / "stack.yaml"), "--duration", "0.05",
                              "--set", "formulation=cone", "--json", "--quiet"],
                             capture_output=True, text=True, check=True).stdout
        assert json.loads(out)["state_hash"] == f"{a.state_hash():016x}"


def test_a_soft_ball_falls_and_its_vertices_are_views():
    model = coulomb.load(SCENES / "soft_ball.yaml", duration=0.05)
    assert model.formulation == "sap"  # the default for scenes with deformable bodies
    name = model.deformable_names[0]
    data = model.make_data()
    x = data.vertices(name)
    assert x.shape[1] == 3 and not x.flags["OWNDATA"]
    z0 = x[:, 2].mean()
    reports = coulomb.step(model, data, n=model.num_steps)
    assert all(s == "solved" for s in reports["status"])
    # The same view now holds the moved vertices; before contact it falls as ½ g t² (+ v0 t).
    assert x[:, 2].mean() < z0
    assert np.array_equal(x, data.vertices(name))


def test_a_whole_run_reports_what_the_cli_reports():
    model = coulomb.load(SCENES / "incline.yaml", duration=0.2)
    summary = coulomb.run(model)
    assert summary["steps"] == 200 and summary["failed_steps"] == 0
    # Coulomb's law with maximum dissipation, measured on every step (as the C++ example test).
    assert summary["worst_metrics"]["cone_Ns"] < 1e-9
    assert summary["worst_metrics"]["dissipation_W"] < 1e-6
    # The same end as stepping through the Data.
    data = model.make_data()
    coulomb.step(model, data, n=200)
    assert summary["state_hash"] == f"{data.state_hash():016x}"
