#!/usr/bin/python3
"""The incline's slide against μ under every formulation, beside Coulomb's closed form, as a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/incline_mu_sweep.py [out.png]

A cube released on a 30° slope slides d = ½ g (sin θ − μ cos θ) t² when μ < tan θ and stays
where it is otherwise."""

import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import coulomb  # noqa: E402

SCENE = pathlib.Path(__file__).resolve().parents[1] / "scenes" / "incline.yaml"
THETA, G, T = math.pi / 6, 9.81, 0.5


def slide(formulation, mu):
    model = coulomb.load(SCENE, formulation=formulation, mu=mu, duration=T)
    data = model.make_data()
    start, _ = data.body_pose("cube")
    start = start.copy()
    reports = coulomb.step(model, data, n=model.num_steps)
    failed = sum(s != "solved" for s in reports["status"])
    end, _ = data.body_pose("cube")
    return float(np.linalg.norm(end - start)), failed


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "incline_mu_sweep.png"
    mus = np.linspace(0.0, 0.8, 17)
    closed = [max(0.0, 0.5 * G * (math.sin(THETA) - mu * math.cos(THETA)) * T * T) for mu in mus]
    plt.figure(figsize=(6, 4))
    plt.plot(mus, closed, "k-", lw=3, alpha=0.3, label="closed form")
    print("| formulation | largest |slide − closed form| (m) | failed steps |")
    print("|---|---:|---:|")
    for formulation, marker in (("velocity-lcp", "o"), ("cone", "s"), ("trinkle", "^"),
                                ("sap", "x")):
        results = [slide(formulation, mu) for mu in mus]
        distances = [d for d, _ in results]
        worst = max(abs(d - c) for d, c in zip(distances, closed))
        print(f"| {formulation} | {worst:.2e} | {sum(f for _, f in results)} |")
        plt.plot(mus, distances, marker, ms=5, fillstyle="none", label=formulation)
    plt.axvline(math.tan(THETA), color="gray", ls=":", label="tan 30°")
    plt.xlabel("friction coefficient μ")
    plt.ylabel(f"slide in {T} s (m)")
    plt.legend()
    plt.tight_layout()
    plt.savefig(out, dpi=120)
    print("wrote", out)


if __name__ == "__main__":
    main()
