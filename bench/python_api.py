#!/usr/bin/env python3
"""The Python package against the command line on the same samples: `wasmeval.evaluate` (the
command line's run, in this process) and `wasmeval run` (the executable), each timed once, with
their verdicts compared. Prints figures; does not fail on them.

Run after scripts/build-python, with the venv's interpreter:

    target/python-venv/bin/python bench/python_api.py                 # the 16,400 CodeGen samples
    target/python-venv/bin/python bench/python_api.py --limit 2000    # the first 2,000
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import wasmeval

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO.parent / "shared" / "datasets"
TASKS = DATASETS / "humaneval" / "HumanEval.jsonl.gz"
SAMPLES = DATASETS / "codegen16b-humaneval" / "samples_n100.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only the first N samples")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    for path in (TASKS, SAMPLES):
        if not path.exists():
            sys.exit(f"bench/python_api.py: missing {path} (the shared datasets sit beside the repo)")
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f}" + ("  (WARNING: above 0.5, figures are indicative)" if load > 0.5 else ""))
    with tempfile.TemporaryDirectory(prefix="wasmeval-bench-") as work:
        samples = SAMPLES
        if args.limit:
            samples = Path(work) / "samples.jsonl"
            with gzip.open(SAMPLES, "rt") as source, open(samples, "w") as out:
                for i, line in enumerate(source):
                    if i >= args.limit:
                        break
                    out.write(line)
        start = time.monotonic()
        ours = wasmeval.evaluate(TASKS, samples, jobs=args.jobs)
        api = time.monotonic() - start

        cli_out = Path(work) / "cli"
        start = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "wasmeval", "run", "--tasks", str(TASKS), "--samples", str(samples),
             "--out", str(cli_out), "--jobs", str(args.jobs)],
            check=True, stderr=subprocess.DEVNULL,
        )
        cli = time.monotonic() - start
        expected = wasmeval.read_results(cli_out)
    agree = sum(a["verdict"] == b["verdict"] for a, b in zip(ours, expected))
    print(f"samples: {len(ours)}; verdicts equal to the command line's: {agree} of {len(expected)}")
    print(f"wasmeval.evaluate: {api:.1f} s ({len(ours) / api:.1f} samples/s)")
    print(f"wasmeval run (the executable): {cli:.1f} s ({len(expected) / cli:.1f} samples/s)")
    print(f"ratio API / CLI: {api / cli:.3f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
