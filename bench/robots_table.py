#!/usr/bin/python3
"""Drops every robot of the corpus (examples/scenes/robots/*.yaml: published URDFs, unedited)
onto its floor under each formulation and prints a Markdown table with what "comes to rest"
means in the issue: exit status, failed (uncertified) steps, the fastest joint at the end
(rad/s), the deepest penetration (mm) and the time per step. Standard library only.

With --survey=ERD,BULLET it drops instead the published URDFs docs/robots.md surveys beyond
the corpus, from checkouts of example-robot-data (ERD) and bulletphysics/bullet3 (BULLET), each
as a new user would: a floor of μ 0.8, δt = 5 ms, arms for 5 s and the rest for 3 s.

Usage: /usr/bin/python3 bench/robots_table.py [build/bin/coulomb]
                                              [--formulations=velocity-lcp,cone,trinkle,sap]
                                              [--robots=ur5_drop,go1_drop]
                                              [--survey=ERD_DIR,BULLET_DIR]
"""
import atexit
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = next((a for a in sys.argv[1:] if not a.startswith("--")), os.path.join(ROOT, "build/bin/coulomb"))
OPTIONS = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
FORMULATIONS = OPTIONS.get("formulations", "velocity-lcp,cone,trinkle,sap").split(",")
SCENES = sorted(glob.glob(os.path.join(ROOT, "examples/scenes/robots/*.yaml")))
# name: (which checkout, the URDF in it, drop height in m, simulated s). 42 descriptions, as
# published; the corpus's seven are in examples/scenes/robots.
SURVEY = {
    "ur3": ("erd", "robots/ur_description/urdf/ur3_robot.urdf", 0.3, 5),
    "ur10": ("erd", "robots/ur_description/urdf/ur10_joint_limited_robot.urdf", 0.3, 5),
    "kinova": ("erd", "robots/kinova_description/robots/kinova.urdf", 0.3, 5),
    "z1": ("erd", "robots/z1_description/urdf/z1.urdf", 0.3, 5),
    "finger_edu": ("erd", "robots/finger_edu_description/robots/finger_edu.urdf", 0.4, 5),
    "iiwa_free": ("bullet", "data/kuka_iiwa/model_free_base.urdf", 0.3, 5),
    "baxter": ("erd", "robots/baxter_description/urdf/baxter.urdf", 1.2, 5),
    "allegro": ("erd", "robots/allegro_hand_description/urdf/allegro_right_hand.urdf", 0.2, 3),
    "a1": ("erd", "robots/a1_description/urdf/a1.urdf", 0.5, 3),
    "anymal_b": ("erd", "robots/anymal_b_simple_description/robots/anymal.urdf", 0.8, 3),
    "anymal_kinova": ("erd", "robots/anymal_b_simple_description/robots/anymal-kinova.urdf",
                      0.8, 3),
    "anymal_c": ("erd", "robots/anymal_c_simple_description/urdf/anymal.urdf", 0.8, 3),
    "b1": ("erd", "robots/b1_description/urdf/b1.urdf", 0.8, 3),
    "go2": ("erd", "robots/go2_description/urdf/go2.urdf", 0.5, 3),
    "hyq": ("erd", "robots/hyq_description/robots/hyq_no_sensors.urdf", 0.9, 3),
    "laikago": ("erd", "robots/laikago_description/urdf/laikago.urdf", 0.6, 3),
    "solo8": ("erd", "robots/solo_description/robots/solo.urdf", 0.5, 3),
    "quadruped": ("erd", "robots/quadruped_description/urdf/quadruped.urdf", 0.6, 3),
    "bolt": ("erd", "robots/bolt_description/robots/bolt.urdf", 0.6, 3),
    "minitaur": ("bullet", "data/quadruped/minitaur.urdf", 0.4, 3),
    "vision60": ("bullet", "data/quadruped/vision/vision60.urdf", 0.6, 3),
    "simple_humanoid": ("erd", "robots/simple_humanoid_description/urdf/simple_humanoid.urdf",
                        1.0, 3),
    "talos": ("erd", "robots/talos_data/robots/talos_reduced.urdf", 1.3, 3),
    "talos_full": ("erd", "robots/talos_data/robots/talos_full_v2.urdf", 1.3, 3),
    "romeo": ("erd", "robots/romeo_description/urdf/romeo.urdf", 1.0, 3),
    "alex": ("erd", "robots/alex_description/urdf/alex_psyonic_hands.urdf", 1.2, 3),
    "nao": ("bullet", "data/humanoid/nao.urdf", 0.5, 3),
    "r2d2": ("bullet", "data/r2d2.urdf", 1.0, 3),
    "husky": ("bullet", "data/husky/husky.urdf", 0.3, 3),
    "tiago": ("erd", "robots/tiago_description/robots/tiago.urdf", 0.3, 3),
    "tiago_pro": ("erd", "robots/tiago_pro_description/robots/tiago_pro.urdf", 0.3, 3),
    "pr2": ("erd", "robots/pr2_description/urdf/pr2.urdf", 0.1, 3),
    "bravo7": ("erd", "robots/bravo7_description/urdf/bravo7_gripper.urdf", 0.3, 3),
    "bluevolta": ("erd", "robots/bluevolta_description/urdf/bluevolta.urdf", 0.5, 3),
    "hector": ("erd", "robots/hector_description/robots/quadrotor_base.urdf", 0.5, 3),
}
SURVEY_DIR = tempfile.mkdtemp(prefix="coulomb_survey_") if "survey" in OPTIONS else None
if SURVEY_DIR:
    atexit.register(shutil.rmtree, SURVEY_DIR, True)
    checkouts = dict(zip(("erd", "bullet"), OPTIONS["survey"].split(",")))
    SCENES = []
    for name, (where, urdf, height, seconds) in SURVEY.items():
        SCENES.append(os.path.join(SURVEY_DIR, name + ".yaml"))
        with open(SCENES[-1], "w") as f:
            f.write(f"coulomb: 1\nname: {name}\ntime_step: 0.005\nduration: {seconds}\n"
                    "bodies:\n  - {name: ground, joint: fixed, shapes: [{type: halfspace, "
                    "friction: 0.8}]}\n"
                    f"urdf:\n  - file: {os.path.abspath(os.path.join(checkouts[where], urdf))}\n"
                    f"    floating_base: true\n    position: [0, 0, {height}]\n")
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
