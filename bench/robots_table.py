#!/usr/bin/python3
"""Drops every robot of the corpus (examples/scenes/robots/*.yaml: published URDFs, unedited)
onto its floor under each formulation and prints a Markdown table with what "comes to rest"
means in the issue: exit status, failed (uncertified) steps, the fastest joint at the end
(rad/s), the deepest penetration (mm) and the time per step. Standard library only.

Usage: /usr/bin/python3 bench/robots_table.py [build/bin/coulomb]
                                              [--formulations=velocity-lcp,cone,trinkle,sap]
                                              [--robots=ur5_drop,go1_drop]
"""
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = next((a for a in sys.argv[1:] if not a.startswith("--")), os.path.join(ROOT, "build/bin/coulomb"))
OPTIONS = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
FORMULATIONS = OPTIONS.get("formulations", "velocity-lcp,cone,trinkle,sap").split(",")
SCENES = sorted(glob.glob(os.path.join(ROOT, "examples/scenes/robots/*.yaml")))
if "robots" in OPTIONS:
    wanted = OPTIONS["robots"].split(",")
    SCENES = [s for s in SCENES if os.path.splitext(os.path.basename(s))[0] in wanted]


def run(scene, formulation, out):
    command = [CLI, "run", scene, "--quiet", "--json", "--force", "--out", out,
               "--formulation", formulation]
    p = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    try:
        summary = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"exit": p.returncode, "error": (p.stderr.strip().splitlines() or ["?"])[-1]}
    with open(os.path.join(out, "trajectory.csv")) as f:
        rows = list(csv.reader(f))
    head, last = rows[0], rows[-1]
    speeds = [abs(float(last[i])) for i, h in enumerate(head)
              if h.endswith(".v") and not h.startswith("floating")]
    return {"exit": p.returncode, "failed": summary["failed_steps"], "steps": summary["steps"],
            "joint": max(speeds) if speeds else 0.0, "pen": summary["max_penetration"],
            "us": summary["mean_step_us"], "first": summary["first_failure"],
            "time": summary["sim_time"]}


def main():
    print("| robot | formulation | exit | failed steps | fastest joint at the end, rad/s "
          "| max penetration, mm | µs/step | at rest |")
    print("|---|---|---:|---:|---:|---:|---:|:---:|")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for scene in SCENES:
            name = os.path.splitext(os.path.basename(scene))[0]
            for formulation in FORMULATIONS:
                r = run(scene, formulation, os.path.join(tmp, f"{name}_{formulation}"))
                if "error" in r:
                    print(f"| {name} | {formulation} | {r['exit']} | | | | | no |")
                    failures.append(f"{name} / {formulation}: {r['error']}")
                    continue
                rest = (r["exit"] == 0 and r["failed"] == 0 and r["joint"] <= 1.0
                        and r["pen"] < 0.01)
                print(f"| {name} ({r['time']:g} s) | {formulation} | {r['exit']} | {r['failed']} "
                      f"| {r['joint']:.3g} | {1e3 * r['pen']:.2f} | {r['us']:.0f} "
                      f"| {'yes' if rest else 'no'} |", flush=True)
                if r["first"]:
                    failures.append(f"{name} / {formulation}: {r['first']}")
    for f in failures:
        print(f"\n* {f}")


if __name__ == "__main__":
    main()
