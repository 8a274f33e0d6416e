"""The Python examples and the README's Python block, run as a user runs them, each judged by a
closed form or a certificate computed outside the package."""

import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(os.environ.get("COULOMB_SOURCE_DIR", pathlib.Path(__file__).parents[2]))


def example(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_python_block_runs_as_written():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert out.returncode == 0, out.stderr
    assert "every step certified: True" in out.stdout
    assert "[1.33333333 2.33333333]" in out.stdout


def test_incline_sweep_follows_the_closed_form(tmp_path, capsys):
    sweep = example("incline_mu_sweep")
    png = tmp_path / "sweep.png"
    sys.argv = ["incline_mu_sweep.py", str(png)]
    sweep.main()
    assert png.stat().st_size > 10000
    table = capsys.readouterr().out
    # Semi-implicit Euler's slide lags ½ a t² by a t h / 2: 1.2 mm at μ = 0 here.
    for formulation in ("velocity-lcp", "cone", "trinkle", "sap"):
        row = re.search(rf"\| {formulation} \| ([0-9.e+-]+) \| (\d+) \|", table)
        assert row and float(row.group(1)) < 2e-3 and row.group(2) == "0", table


def test_python_controller_settles_where_the_two_springs_balance():
    error = example("iiwa_controller").main()
    assert error[0] == pytest.approx(0.5 * 400 / 4400, abs=2e-3)


def test_numpy_solves_pass_their_certificates():
    rows = example("solve_from_numpy").main()
    assert len(rows) >= 2
    for problem, solver, value in rows:
        assert value < 1e-8, (problem, solver, value)
