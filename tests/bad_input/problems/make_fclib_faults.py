#!/usr/bin/python3
"""Writes the malformed FCLib files of docs/bad-inputs.md (rows 110-122) into this folder.

Each file is a two-contact local problem in libfclib's layout (/fclib_local/{W,vectors,info},
spacedim) with one fault, or a one-contact global problem for the M checks. Run it again only to
change a fault; the files are committed. Needs Debian's python3-h5py (not needed by the tests).
"""
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def matrix(group, dense, storage="csc"):
    """A matrix group as libfclib writes it: m, n, nz, nzmax, p, i, x."""
    rows, cols = dense.shape
    if storage == "csc":
        p, i, x = [0], [], []
        for c in range(cols):
            for r in range(rows):
                if dense[r, c] != 0:
                    i.append(r)
                    x.append(dense[r, c])
            p.append(len(i))
        nz = -1
    else:  # triplets: i rows, p columns
        i, p, x = [], [], []
        for r in range(rows):
            for c in range(cols):
                if dense[r, c] != 0:
                    i.append(r)
                    p.append(c)
                    x.append(dense[r, c])
        nz = len(x)
    for name, value in (("m", rows), ("n", cols), ("nz", nz), ("nzmax", len(x))):
        group.create_dataset(name, data=np.array([value], dtype=np.int32))
    group.create_dataset("p", data=np.array(p, dtype=np.int32))
    group.create_dataset("i", data=np.array(i, dtype=np.int32))
    group.create_dataset("x", data=np.array(x, dtype=np.float64))


def local(name, fault):
    W = np.kron(np.eye(2), np.diag([2.0, 1.0, 1.0]))
    q = np.array([-1.0, 0.1, 0.0, -0.5, 0.0, 0.2])
    mu = np.array([0.3, 0.5])
    with h5py.File(os.path.join(HERE, name), "w") as f:
        g = f.create_group("fclib_local")
        g.create_dataset("spacedim", data=np.array([2 if fault == "spacedim" else 3], np.int32))
        matrix(g.create_group("W"), W)
        v = g.create_group("vectors")
        v.create_dataset("q", data=q[:5] if fault == "q_length" else q)
        v.create_dataset("mu", data=mu[:1] if fault == "mu_length" else mu)
        info = g.create_group("info")
        info.create_dataset("title", data=7 if fault == "title_type" else np.bytes_("faulty"))
        if fault == "p_decreasing":
            del g["W/p"]
            g["W"].create_dataset("p", data=np.array([0, 1, 2, 1, 4, 5, 6], np.int32))
        elif fault == "index_out_of_range":
            i = g["W/i"][...]
            i[3] = 40
            g["W/i"][...] = i
        elif fault == "x_missing":
            del g["W/x"]
        elif fault == "x_matrix":
            del g["W/x"]
            g["W"].create_dataset("x", data=np.ones((3, 2)))
        elif fault == "q_nan":
            g["vectors/q"][2] = np.nan
        elif fault == "huge_claim":
            del g["vectors/q"]
            # declared with 10^9 entries, of which none is written (HDF5 would hand back fill values)
            v.create_dataset("q", shape=(1_000_000_000,), dtype=np.float64, chunks=(1024,))
        elif fault == "V_block":
            matrix(g.create_group("V"), np.eye(6))


def global_problem(name, M):
    with h5py.File(os.path.join(HERE, name), "w") as f:
        g = f.create_group("fclib_global")
        g.create_dataset("spacedim", data=np.array([3], np.int32))
        matrix(g.create_group("M"), M, storage="triplets")
        matrix(g.create_group("H"), np.eye(3))
        v = g.create_group("vectors")
        v.create_dataset("f", data=np.array([-1.0, 0.0, 0.0]))
        v.create_dataset("w", data=np.array([0.0, 0.1, 0.0]))
        v.create_dataset("mu", data=np.array([0.3]))


for fault in ("spacedim", "q_length", "mu_length", "title_type", "p_decreasing",
              "index_out_of_range", "x_missing", "x_matrix", "q_nan", "huge_claim", "V_block"):
    local(f"fclib_{fault}.hdf5", fault)
global_problem("fclib_global_unsymmetric.hdf5",
               np.array([[2.0, 0.5, 0.0], [0.1, 2.0, 0.0], [0.0, 0.0, 2.0]]))
global_problem("fclib_global_indefinite.hdf5",
               np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
