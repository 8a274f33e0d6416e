#!/usr/bin/python3
"""A controller written in Python driving the iiwa (examples/scenes/iiwa_hold.yaml): besides the
scene's own PD drives, which hold the start pose, this script adds a joint-space PD toward a
target 0.5 rad away on joint 1, through data.tau, at every 1 ms step. Joint 1's axis is
vertical, so gravity does not load it and it settles where the two springs balance: at
0.5 · kp_python / (kp_python + kp_scene) = 0.5 · 400 / 4400 = 0.0455 rad from the start.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/iiwa_controller.py

Prints how far each joint moved."""

import pathlib

import numpy as np

import coulomb

SCENE = pathlib.Path(__file__).resolve().parents[1] / "scenes" / "iiwa_hold.yaml"
JOINTS = [f"iiwa_joint_{i}" for i in range(1, 8)]


def main():
    model = coulomb.load(SCENE, duration=2.0)
    data = model.make_data()
    index = [model.joint(name)["v_index"] for name in JOINTS]
    start = data.q[index].copy()
    target = start.copy()
    target[0] += 0.5
    kp = np.array([400, 400, 200, 200, 50, 50, 10.0])
    kd = np.array([40, 40, 20, 20, 5, 5, 1.0])
    steps = model.num_steps
    for _ in range(steps):
        q, v = data.q[index], data.v[index]
        data.tau[index] = kp * (target - q) - kd * v
        reports = coulomb.step(model, data)
        if reports["status"][0] != "solved":
            raise SystemExit(f"step failed: {reports['message'][0]}")
    error = data.q[index] - start
    print(f"joint 1 should settle at {0.5 * 400 / 4400:+.4f} rad")
    print("| joint | moved from the start pose (rad) |")
    print("|---|---:|")
    for name, e in zip(JOINTS, error):
        print(f"| {name} | {e:+.4f} |")
    return error


if __name__ == "__main__":
    main()
