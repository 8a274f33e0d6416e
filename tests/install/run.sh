#!/usr/bin/env bash
# The install test (ctest: install_package): `cmake --install` of this build into a fresh
# prefix, then, using only that prefix, a program built through find_package(Coulomb), the same
# through pkg-config, the installed CLI, and `import coulomb` from the installed Python package.
#   tests/install/run.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work.install.log" 2>&1 || {
  cat "$work.install.log"; exit 1; }
cmake -S "$source/tests/install/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" -j2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/consumer/consumer" "$source/examples/scenes/incline.yaml"
# pkg-config names every flag a plain compiler line needs.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
g++ -std=c++20 -O1 "$source/tests/install/consumer/consumer.cc" -o "$work/consumer_pc" \
  $(pkg-config --cflags --libs coulomb)
"$work/consumer_pc" "$source/examples/scenes/incline.yaml"
"$prefix/bin/coulomb" --version
site=$(ls -d "$prefix"/lib/python3*/dist-packages)
PYTHONPATH="$site" /usr/bin/python3 -c "
import coulomb, sys
assert coulomb.__file__.startswith('$prefix'), coulomb.__file__
m = coulomb.load('$source/examples/scenes/incline.yaml', duration=0.01)
d = m.make_data()
r = coulomb.step(m, d, m.num_steps)
assert all(s == 'solved' for s in r['status'])
print('python: imported from', coulomb.__file__, '- steps', d.steps)
"
echo "install test: ok"
