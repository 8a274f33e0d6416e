#!/usr/bin/env bash
# Installs every Debian package Coulomb needs to build, test and benchmark.
# Used by both README commands and by .ci/run; safe to run again (apt-get is idempotent).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  ccache mold            # compiler cache and fast linker of the inner loop (docs/developing.md; GPL-3, MIT)
  libeigen3-dev          # dense linear algebra (MPL-2.0)
  libcli11-dev           # command-line parsing (BSD-3)
  libyaml-cpp-dev        # scene files (MIT)
  chromium               # headless viewer test (BSD-3 and others)
  libfmt-dev             # formatting (MIT)
  nlohmann-json3-dev     # JSON problem files and --json output (MIT)
  libsuitesparse-dev     # CHOLMOD sparse Cholesky for the SAP solver (LGPL-2.1+)
  libfclib-dev           # FCLib HDF5 frictional-contact problem files (Apache-2.0)
  liburdfdom-dev         # URDF import (BSD-3)
  libqhull-dev           # convex hulls of collision meshes (Qhull licence)
  libassimp-dev          # STL and COLLADA meshes of published robots (BSD-3)
  libgtest-dev libgmock-dev googletest   # tests (BSD-3)
  libbenchmark-dev       # micro benchmarks (Apache-2.0)
  libmuparser-dev        # closed-form reference curves of sweep files (MIT)
  libopenmpi-dev openmpi-bin   # `mpirun coulomb sweep` across ranks and machines (BSD-3)
  hdf5-tools             # h5dump, with which the sweep tests read results.h5 (BSD-3-like HDF5 licence)
  # The Python package (python/) for Debian's python3, and its tests and examples:
  python3-dev pybind11-dev   # bindings (BSD-3)
  python3-numpy python3-scipy python3-pytest python3-matplotlib   # (BSD-3, BSD-3, MIT, PSF-like)
  python3-siconos        # peer solvers of examples/python/solve_from_numpy.py only (Apache-2.0)
  clang-14 libclang-rt-14-dev   # ASan/UBSan build and libFuzzer targets of scripts/sanitize.sh (Apache-2.0 with LLVM exception)
  libsiconos-numerics-dev  # peer solvers for bench/ only, never linked into the library (Apache-2.0)
  coinor-libcbc-dev      # MILP ground truth in `coulomb bench trinkle` only (EPL-1.0)
  # Peer engines of `coulomb bench peers` (comparison only, never linked into the library):
  libmujoco-dev          # MuJoCo 2.2 (Apache-2.0)
  libbullet-dev          # Bullet 3.24, float64 libraries (zlib)
  libode-dev             # ODE 0.16, double precision (BSD-3 / LGPL-2.1)
  libdart-dev libdart-collision-ode-dev libdart-external-ikfast-dev   # DART 6.12 (BSD-2)
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches three.js (MIT) for the HTML viewer at build time. A machine whose Node.js comes
# from elsewhere (NodeSource bundles npm) must not get Debian's npm on top of it.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
