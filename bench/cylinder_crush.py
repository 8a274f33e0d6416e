#!/usr/bin/env python3
"""Paper 2's cylinder compression (examples/scenes/cylinder_crush.yaml) on progressively finer
meshes, against the reference force-approach curve (shared/data/reference/cylinder_crush,
solids4foam's digitized FEM solution: approach = 2 displY, force per length of the full
cylinder in MN/m).

Writes bench/results/cylinder_crush.svg and .md and prints the table. Plain Python (no NumPy):

    python3 bench/cylinder_crush.py [--build build] [--radial 4 6 8 10]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "..", "shared", "data", "reference", "cylinder_crush",
                         "displacement-force-fem-solution.dat")
THICKNESS = 0.02   # m, the slab of the scene
RAMP = (28000.0, 500.0)  # N at the end of the ramp, s


def reference_curve():
    points = []
    with open(REFERENCE) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            d, force = map(float, line.split())
            points.append((2 * d, force))  # total approach (m), MN/m
    return points


def interpolate(curve, x):
    for (x0, y0), (x1, y1) in zip(curve, curve[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return None


def run(build, radial, scene_text):
    with tempfile.TemporaryDirectory() as tmp:
        scene = os.path.join(tmp, "cylinder.yaml")
        with open(scene, "w") as f:
            f.write(scene_text.replace("radial: 6", "radial: %d" % radial))
        out = os.path.join(tmp, "out")
        cli = os.path.join(build, "bin", "coulomb")
        done = subprocess.run([cli, "run", scene, "--out", out, "--quiet", "--json"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("coulomb run failed:\n" + done.stdout + done.stderr)
        curve = []
        with open(os.path.join(out, "trajectory.csv")) as f:
            for row in csv.DictReader(f):
                t, q = float(row["time"]), float(row["plate.q"])
                force = RAMP[0] * min(t, RAMP[1]) / RAMP[1] / THICKNESS / 1e6  # MN/m
                curve.append((q, force))
        import json
        return curve, json.loads(done.stdout)


def svg(reference, curves, path):
    w, h, pad = 640, 420, 50
    sx = lambda x: pad + x / 0.2 * (w - 2 * pad)
    sy = lambda y: h - pad - y / 1.5 * (h - 2 * pad)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (w, h),
             '<rect width="100%" height="100%" fill="white"/>',
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, h - pad, w - pad, h - pad),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, h - pad, pad, pad),
             '<text x="%d" y="%d">approach (m)</text>' % (w / 2 - 40, h - 12),
             '<text x="8" y="%d" transform="rotate(-90 14 %d)">force per length (MN/m)</text>' % (h / 2 + 60, h / 2)]
    for i in range(5):
        x = 0.05 * i
        parts.append('<text x="%.1f" y="%d">%.2f</text>' % (sx(x) - 10, h - pad + 16, x))
    for i in range(4):
        y = 0.5 * i
        parts.append('<text x="%d" y="%.1f">%.1f</text>' % (pad - 30, sy(y) + 4, y))
    colors = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    line = lambda pts, color, dash: '<polyline fill="none" stroke="%s" stroke-width="2" %s points="%s"/>' % (
        color, 'stroke-dasharray="6 4"' if dash else "", " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in pts))
    parts.append(line(reference, "black", True))
    parts.append('<text x="%d" y="%d">reference (dashed)</text>' % (pad + 10, pad + 10))
    for k, (label, pts) in enumerate(curves):
        color = colors[k % len(colors)]
        parts.append(line(pts, color, False))
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>' % (pad + 10, pad + 26 + 16 * k, color, label))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--radial", type=int, nargs="+", default=[4, 6, 8, 10])
    args = parser.parse_args()
    with open(os.path.join(ROOT, "examples", "scenes", "cylinder_crush.yaml")) as f:
        scene_text = f.read()
    reference = reference_curve()
    rows, curves = [], []
    for radial in args.radial:
        curve, summary = run(args.build, radial, scene_text)
        errors = []
        for x, y in curve:
            if y < 0.2:  # the first tenth of the load is noise-level force
                continue
            r = interpolate(reference, x)
            if r is not None:
                errors.append(abs(y - r) / r)
        final = curve[-1]
        ref_final = interpolate([(y, x) for x, y in reference], final[1])
        rows.append((radial, summary, final, ref_final, max(errors) if errors else float("nan"),
                     sum(errors) / len(errors) if errors else float("nan")))
        curves.append(("radial %d (%d steps, %.0f ms/step)" % (radial, summary["steps"], summary["mean_step_us"] / 1e3), curve))
        print("radial %d done" % radial, file=sys.stderr)
    lines = ["| mesh (cells across the radius) | approach at %.3f MN/m | reference | force error vs reference (mean / max, F > 0.2 MN/m) | failed steps | Newton it./step | ms/step |" % rows[0][2][1],
             "|---|---|---|---|---|---|---|"]
    for radial, s, final, ref_final, worst, mean in rows:
        lines.append("| %d | %.4f m | %s | %.1f %% / %.1f %% | %d | %.2f | %.0f |" % (
            radial, final[0], "%.4f m" % ref_final if ref_final else "-", 100 * mean, 100 * worst,
            s["failed_steps"], s["mean_iterations"], s["mean_step_us"] / 1e3))
    table = "\n".join(lines)
    print(table)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    svg(reference, curves, os.path.join(ROOT, "bench", "results", "cylinder_crush.svg"))
    with open(os.path.join(ROOT, "bench", "results", "cylinder_crush.md"), "w") as f:
        f.write(table + "\n")


if __name__ == "__main__":
    main()
