"""Without Ray, wasmeval.ray imports and says how to install it when used."""

import subprocess
import sys

SCRIPT = """
import sys
sys.modules["ray"] = None  # as if Ray were not installed
import wasmeval.ray
try:
    wasmeval.ray.evaluate([], [])
except ImportError as error:
    print(error)
"""


def test_without_ray_the_module_imports_and_names_the_extra():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'wasmeval[ray]'" in done.stdout
