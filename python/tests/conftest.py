"""Shared set-up: the package's guests are laid out in a fresh WASMEVAL_HOME (as a pip install
finds them), sharing only the compiled-module cache of the machine's home, so the 100 MB
interpreter is not compiled again for every test run."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Every demo run here, the command line's reference included, gets this budget: the demo's
# endless loops end ten times sooner than at the default 1e10, and equal budgets keep the runs
# comparable.
DEMO_FUEL = 10**9


def _machine_home() -> Path:
    if os.environ.get("WASMEVAL_HOME"):
        return Path(os.environ["WASMEVAL_HOME"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return Path(xdg) / "wasmeval" if xdg and os.path.isabs(xdg) else Path.home() / ".cache" / "wasmeval"


@pytest.fixture(scope="session", autouse=True)
def package_home(tmp_path_factory):
    modules = _machine_home() / "modules"
    home = tmp_path_factory.mktemp("wasmeval-home")
    modules.mkdir(parents=True, exist_ok=True)
    os.symlink(modules, home / "modules")
    os.environ["WASMEVAL_HOME"] = str(home)
    yield home


@pytest.fixture(scope="session")
def cli():
    """The `wasmeval` executable the wheel installed beside this interpreter."""
    exe = Path(sys.executable).parent / "wasmeval"
    assert exe.is_file(), f"no {exe}: the wheel installs the command line too"
    return str(exe)


def run_cli(cli, *args):
    done = subprocess.run([cli, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="session")
def demo_run(cli, tmp_path_factory):
    """The demo evaluated by the command line: the reference the API must equal."""
    out = tmp_path_factory.mktemp("demo-cli")
    run_cli(cli, "run", "--tasks", str(REPO / "demo/tasks.jsonl"),
            "--samples", str(REPO / "demo/samples.jsonl"), "--out", str(out), "--fresh",
            "--fuel", str(DEMO_FUEL))
    return out
