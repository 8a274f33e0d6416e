#!/usr/bin/python3
"""An LCP and an FC3D problem built in NumPy, solved by Coulomb and, where Debian's
python3-siconos is installed, by Siconos' solvers on the same arrays; each answer is judged by
the same certificate computed here (natural residual for the LCP, the Acary–Brémond–Huber error
for FC3D), not by what either library reports of itself.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/solve_from_numpy.py"""

import numpy as np

import coulomb


def lcp_residual(M, q, z):
    return np.abs(np.minimum(z, M @ z + q)).max() / (1 + np.abs(q).max())


def abh_error(W, q, mu, r):
    u = W @ r + q
    parts = []
    for i, m in enumerate(mu):
        ri, ui = r[3 * i:3 * i + 3], u[3 * i:3 * i + 3]
        x = ri - (ui + np.array([m * np.linalg.norm(ui[1:]), 0, 0]))
        xn, xt = x[0], x[1:]
        nt = np.linalg.norm(xt)
        if nt <= m * xn:
            p = x
        elif m * nt <= -xn:
            p = np.zeros(3)
        else:
            pn = (xn + m * nt) / (1 + m * m)
            p = np.concatenate([[pn], m * pn * xt / nt])
        parts.append(ri - p)
    return np.linalg.norm(np.concatenate(parts)) / np.linalg.norm(q)


def siconos_lcp(M, q):
    import siconos.numerics as sn
    problem = sn.LCP(M, q)
    z, w = np.zeros(len(q)), np.zeros(len(q))
    options = sn.SolverOptions(sn.SICONOS_LCP_LEMKE)
    sn.lcp_lexicolemke(problem, z, w, options)
    return z


def siconos_fc3d(W, q, mu):
    import siconos.numerics as sn
    problem = sn.FrictionContactProblem(3, len(mu), W, q, mu)
    r, u = np.zeros(len(q)), np.zeros(len(q))
    options = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    options.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
    options.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    sn.fc3d_nsgs(problem, r, u, options)
    return r


def main():
    rng = np.random.default_rng(3)
    A = rng.standard_normal((30, 30))
    M = A @ A.T + np.eye(30)
    q = rng.standard_normal(30)
    # Four contacts of a box sliding on the ground (see tests/python/test_coulomb.py).
    J = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            c = np.array([0.1 * sx, 0.1 * sy, -0.1])
            for d in np.eye(3)[[2, 0, 1]]:
                J.append(np.concatenate([d, np.cross(c, d)]))
    J = np.array(J)
    inertia = np.eye(3) / 150.0
    Minv = np.block([[np.eye(3), np.zeros((3, 3))], [np.zeros((3, 3)), np.linalg.inv(inertia)]])
    W = J @ Minv @ J.T
    qf = J @ np.array([0.3, 0, -9.81e-3, 0, 0, 0])
    mu = np.full(4, 0.5)

    rows = []
    sol = coulomb.solve_lcp(M, q)
    rows.append(("LCP 30", "coulomb " + sol["solver"], lcp_residual(M, q, sol["z"])))
    f = coulomb.solve_fc3d(W, qf, mu)
    rows.append(("FC3D 4 contacts", "coulomb " + f["solver"], abh_error(W, qf, mu, f["r"])))
    try:
        rows.append(("LCP 30", "siconos lexicolemke", lcp_residual(M, q, siconos_lcp(M, q))))
        rows.append(("FC3D 4 contacts", "siconos nsgs",
                     abh_error(W, qf, mu, siconos_fc3d(W, qf, mu))))
    except ImportError:
        print("(python3-siconos is not installed: Coulomb only)")
    print("| problem | solver | certificate (recomputed here) |")
    print("|---|---|---:|")
    for problem, solver, value in rows:
        print(f"| {problem} | {solver} | {value:.2e} |")
    return rows


if __name__ == "__main__":
    main()
