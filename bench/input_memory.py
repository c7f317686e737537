#!/usr/bin/env python3
"""How much memory `wasmeval run` takes to read hostile samples files (issue 16, item 3).

Writes three samples files into the work dir and runs `wasmeval run` on each, printing its peak
RSS and wall time (it prints figures; it never fails on them):

- one sample of a known task: the baseline, mostly the Python runtime;
- the same followed by N valid records of 4 KB each naming an unknown task (2 GB inflated at
  the default N = 500,000), read in each of the run's passes: memory should stay at the baseline;
- a single 64 MiB record, over --max-sample-bytes, which gets `output_limit` unread.

    python3 bench/input_memory.py [--lines N] [--work DIR] [--no-build]
"""
import argparse
import gzip
import json
import os
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

    known = json.dumps({"task_id": task_id, "solution": "x = 1\n"}) + "\n"
    alone = os.path.join(args.work, "one_sample.jsonl")
    with open(alone, "w") as out:
        out.write(known)
    many = os.path.join(args.work, "many_lines.jsonl.gz")
    with gzip.open(many, "wt", compresslevel=1) as out:
        # One sample of a known task, or the run would refuse a file that answers none.
        out.write(known)
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

    print(f"{'input':<22} {'inflated':>10} {'peak RSS':>10} {'wall':>8}")
    for name, path, inflated in [
        ("one sample (baseline)", alone, len(known)),
        ("+ many unknown lines", many, args.lines * (4000 + 45)),
        ("one 64 MiB line", one, 64 << 20),
    ]:
        started = time.monotonic()
        child = subprocess.Popen(
            [binary, "run", "--tasks", tasks, "--samples", path, "--out", os.path.join(args.work, "out"), "--fresh"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # This child's own peak, not the largest of all children so far.
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"wasmeval run failed on {path}")
        print(f"{name:<22} {inflated / 1e9:>8.2f} GB {usage.ru_maxrss / 1024:>7.1f} MB {wall:>7.1f}s")


if __name__ == "__main__":
    sys.exit(main())
