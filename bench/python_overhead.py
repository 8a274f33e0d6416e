#!/usr/bin/python3
"""Stepping a scene from Python against the same steps from C++, in one run (issue 24: at most
5 % more wall time for 1 000 steps of the pyramid).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py \
        [--scene examples/scenes/pyramid.yaml] [--steps 1000] [--repeats 5]

Runs build/bin/scene_steps (sim::StepScene in a C++ loop) and, alternately, the same steps as one
coulomb.step(model, data, n) call and as n calls of coulomb.step(model, data); prints the median
seconds of each and the ratios, and checks that all three end in the same state."""

import argparse
import json
import statistics
import subprocess
import time

import coulomb


def python_seconds(scene, steps, per_call):
    model = coulomb.load(scene)
    data = model.make_data()
    start = time.perf_counter()
    if per_call:
        for _ in range(steps):
            coulomb.step(model, data)
    else:
        coulomb.step(model, data, n=steps)
    return time.perf_counter() - start, f"{data.state_hash():016x}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="examples/scenes/pyramid.yaml")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cpp", default="build/bin/scene_steps")
    args = parser.parse_args()
    cpp, batch, single = [], [], []
    hashes = set()
    for _ in range(args.repeats):
        out = json.loads(subprocess.run([args.cpp, args.scene, str(args.steps), "1"],
                                        capture_output=True, text=True, check=True).stdout)
        cpp.append(out["seconds"])
        hashes.add(out["state_hash"])
        for runs, per_call in ((batch, False), (single, True)):
            seconds, digest = python_seconds(args.scene, args.steps, per_call)
            runs.append(seconds)
            hashes.add(digest)
    c, b, s = (statistics.median(x) for x in (cpp, batch, single))
    print(f"| {args.scene} | steps | C++ s | Python step(n) s | ratio | Python n × step() s | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| median of {args.repeats} | {args.steps} | {c:.4f} | {b:.4f} | {b / c:.3f} | "
          f"{s:.4f} | {s / c:.3f} |")
    print("same final state in all three:", "yes" if len(hashes) == 1 else f"NO {hashes}")


if __name__ == "__main__":
    main()
