#!/usr/bin/env python3
"""How much memory `wasmeval run` takes to read hostile samples files (issue 16, item 3).

Writes two gzip files into the work dir and runs `wasmeval run` on each, printing its peak RSS
and wall time (it prints figures; it never fails on them):

- many lines: N valid records of 4 KB each naming an unknown task (2 GB inflated at the
  default N = 500,000), read in both of the run's passes;
- one line: a single 64 MiB record, over --max-sample-bytes, which gets `output_limit`.

    python3 bench/input_memory.py [--lines N] [--work DIR] [--no-build]
"""
import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=500_000)
    parser.add_argument("--work", default=os.path.join(ROOT, "target/bench/input_memory"))
    parser.add_argument("--no-build", action="store_true", help="use target/release/wasmeval as built")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--locked", "--release", "-p", "wasmeval"], cwd=ROOT, check=True)
    binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release/wasmeval")
    os.makedirs(args.work, exist_ok=True)
    tasks = os.path.join(ROOT, "tests/fixtures/mbpp/tasks.jsonl")
    task_id = json.loads(open(tasks).readline())["task_id"]

    many = os.path.join(args.work, "many_lines.jsonl.gz")
    with gzip.open(many, "wt", compresslevel=1) as out:
        line = json.dumps({"task_id": "unknown/1", "completion": "x" * 4000}) + "\n"
        for _ in range(args.lines):
            out.write(line)
    one = os.path.join(args.work, "one_line.jsonl.gz")
    with gzip.open(one, "wb", compresslevel=1) as out:
        out.write(b'{"task_id": %s, "solution": "' % json.dumps(task_id).encode())
        block = b"a" * (1 << 20)
        for _ in range(64):
            out.write(block)
        out.write(b'"}\n')

    print(f"{'input':<12} {'inflated':>10} {'peak RSS':>10} {'wall':>8}")
    for name, path, inflated in [
        ("many lines", many, args.lines * (4000 + 45)),
        ("one line", one, 64 << 20),
    ]:
        started = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        subprocess.run(
            [binary, "run", "--tasks", tasks, "--samples", path, "--out", os.path.join(args.work, "out"), "--fresh"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        wall = time.monotonic() - started
        # ru_maxrss of children is the largest child's: only a rise is this run's.
        shown = f"{peak / 1024:.1f} MB" if peak > before else f"<= {before / 1024:.1f} MB"
        print(f"{name:<12} {inflated / 1e9:>8.2f} GB {shown:>10} {wall:>7.1f}s")


if __name__ == "__main__":
    sys.exit(main())
