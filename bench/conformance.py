#!/usr/bin/env python3
"""Conformance: every public dataset's reference solutions through every front door of wasmeval
(`run`, serve's API, SandboxFusion's `/run_code` and `/submit`, the Python package and its reward
functions, the browser's worker), with a native check as the evidence for each failure. The code
is in bench/conformance/; usage in bench/README.md ("conformance.py").

    python3 bench/conformance.py [--quick] [--datasets ...] [--doors ...] [--jobs N]
"""

import os
import sys

# bench/ on the path: the package bench/conformance/ is found before this file's own name.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from conformance import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
