"""The package as a user meets it: its version, its licence, its type hints, its lazily
loaded submodules, its shared argument helpers, and what it says about building wheels."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest

import acesup
from helpers import ROOT

PACKAGE = ROOT / "python" / "acesup"


def pyproject_version():
    return re.search(r'(?m)^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))[1]


def mypy(*args, cwd):
    """Runs mypy with ``args`` in ``cwd``, with a cache of its own; asserts it finds nothing."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cwd / ".mypy_cache"), *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_strict_type_checker_sees_every_public_name_of_both_engines(tmp_path):
    """The package ships py.typed: `mypy --strict` on a user's program that names every
    entry of `acesup.__all__` and `acesup.reference.__all__` finds each one exported (an
    `__all__` built as `[...] + errors.__all__`, which mypy does not read, hid them all),
    and knows the names made on first use for what they are, not as ``object`` (which
    module ``__getattr__`` returns): the program calls them."""
    import acesup.reference

    program = tmp_path / "user.py"
    program.write_text("import distributed\n\nimport acesup\nimport acesup.reference\n" + "".join(
        f"_{i} = acesup.{name}\n" for i, name in enumerate(acesup.__all__)) + "".join(
        f"_r{i} = acesup.reference.{name}\n" for i, name in enumerate(acesup.reference.__all__)) + """
batch: acesup.Batch = acesup.Batch(8, seed=1)
version: str = acesup.__version__
game: acesup.reference.Game = acesup.reference.Game.from_seed(1)
plotted = acesup.plot.histogram


def on_a_cluster(client: distributed.Client) -> acesup.Stats:
    return acesup.distributed.simulate(client, 10)
""")
    mypy("--strict", str(program), cwd=tmp_path)


def test_the_package_s_own_source_passes_its_strict_type_check(tmp_path):
    """pyproject.toml's [tool.mypy] (strict) over python/acesup and scripts/ finds
    nothing: the types of the source hold together, the reference engine's Moves
    and Tableau included."""
    mypy("--config-file", str(ROOT / "pyproject.toml"), str(PACKAGE), str(ROOT / "scripts"), cwd=tmp_path)


def test_the_version_is_pyproject_s():
    assert acesup.__version__ == pyproject_version()


def test_there_is_a_licence_file_and_pyproject_names_it():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n")
    assert "Copyright (c) 2026 the acesup developers" in licence
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def fresh_python(code):
    """Runs ``code`` in a new interpreter, where nothing of acesup is loaded yet."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name, attribute", [("reference", "Game"), ("plot", "histogram"),
                                             ("distributed", "simulate")])
def test_the_submodules_load_on_first_use_as_attributes(name, attribute):
    out = fresh_python(f"""
import sys
import acesup
assert 'acesup.{name}' not in sys.modules  # not loaded by the import itself
assert '{name}' in dir(acesup)
print(acesup.{name}.{attribute}.__module__)
assert acesup.{name} is sys.modules['acesup.{name}']
""")
    assert out.startswith("acesup")


def test_import_acesup_loads_neither_matplotlib_nor_dask():
    fresh_python("import sys, acesup; assert not {'matplotlib', 'dask', 'distributed'} & set(sys.modules)")


@pytest.mark.parametrize("module, unloaded", [("acesup", ["numpy", "importlib.metadata"]),
                                              ("acesup.cli", ["numpy"])])
def test_numpy_waits_for_batch(module, unloaded):
    """Neither the package nor the command line loads NumPy (and starts its BLAS
    threads) until something needs it; ``acesup.Batch`` and ``__version__`` come
    on first use, as the package's own attributes."""
    out = fresh_python(f"""
import sys
import {module}
import acesup
assert not set({unloaded}) & set(sys.modules), sorted(sys.modules)
assert {{'Batch', '__version__'}} <= set(dir(acesup))
print(acesup.__version__)
assert acesup.Batch is sys.modules['acesup.batch'].Batch and 'numpy' in sys.modules
assert vars(acesup)['Batch'] is acesup.Batch
from acesup import *
assert Batch is acesup.Batch
""")
    assert out.strip() == acesup.__version__


def test_an_unknown_attribute_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'frobnicate'"):
        acesup.frobnicate  # noqa: B018


def imports_of(path):
    """The modules that the module at ``path`` imports, a relative import written
    as from the package (``from . import cli`` and ``from ..cli import main`` as
    ``acesup.cli``): enough to see who imports the command line."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module if node.level == 0 else ".".join(["acesup", *filter(None, [node.module])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_argument_helpers_are_shared_and_the_command_line_is_imported_by_nothing():
    from acesup.arguments import int_at_least

    assert int_at_least(1)("1e6") == 10**6
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__main__.py":
            assert "acesup.cli" not in imports_of(path), path  # bench once did: an import cycle
    assert not {name for name in imports_of(PACKAGE / "arguments.py") if name.startswith("acesup")}


def test_the_readme_says_how_to_build_and_install_a_wheel_and_how_long_the_suite_takes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "maturin build --release" in readme
    assert "pip install acesup-" in readme and ".whl" in readme
    assert re.search(r"\d+ min \d+ s", readme)
    assert "about three minutes" not in readme


def test_the_wheel_workflow_builds_for_linux_macos_and_windows():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8"))
    jobs = workflow["jobs"]
    assert {"linux", "macos", "windows", "sdist"} <= set(jobs)
    for name in ("linux", "macos", "windows"):
        builds = [step for step in jobs[name]["steps"] if step.get("uses", "").startswith("PyO3/maturin-action")]
        assert builds and all("--release" in step["with"]["args"] for step in builds)
        # The binding crate is the root Cargo.toml, which maturin finds by itself.
        assert not any("--manifest-path" in step["with"]["args"] for step in builds)
    runners = {platform["runner"] for job in ("linux", "macos", "windows")
               for platform in jobs[job]["strategy"]["matrix"]["platform"]}
    assert any(runner.startswith("ubuntu") for runner in runners)
    assert any(runner.startswith("macos") for runner in runners)
    assert any(runner.startswith("windows") for runner in runners)


def test_a_range_s_length_beyond_sys_maxsize():
    """``length``, which the reference's and Dask's solve_deals and ``winnable`` count
    deal numbers by, where ``len`` of a range would stop at ``sys.maxsize``."""
    from acesup.arguments import length

    assert length(range(1, 10**20)) == 10**20 - 1
    for numbers in (range(0, 10, 3), range(10, 0, -3), range(5, 5), range(5, 0), range(0, 7, -1)):
        assert length(numbers) == len(numbers)
