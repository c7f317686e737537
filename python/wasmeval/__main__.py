"""The `wasmeval` command installed with the package: lays out the guests where the runner looks
for them (on first use), then becomes the bundled executable, so `pip install` is the whole
install of the command line too."""

import os
import sys

from . import _runtime


def main() -> None:
    _runtime.ensure_guests()
    executable = _runtime.executable()
    os.execv(executable, [executable, *sys.argv[1:]])


if __name__ == "__main__":
    main()
