#!/usr/bin/env python3
"""HumanEval-X's canonical solutions through wasmeval: the pass rate per language, who judged the
cases (host, isolated judge, guest) and every failure with its reason.

Each task's `canonical_solution` is given as a `completion`, so the program is exactly the task's
reference (the importer builds prompt and tests as CodeGeeX's evaluator does). Needs
../shared/datasets/humaneval-x beside the repository and a release build (`--no-build` skips it),
found in $CARGO_TARGET_DIR when set, else in target/.

    python3 bench/humaneval_x.py                  # python, rust, cpp, js, go
    python3 bench/humaneval_x.py --languages rust --jobs 2
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "datasets", "humaneval-x")
FILES = {"python": "python", "rust": "rust", "cpp": "cpp", "js": "js", "go": "go"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=list(FILES), choices=list(FILES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-build", action="store_true", help="use the existing release binary")
    args = parser.parse_args()
    if not os.path.isdir(DATA):
        sys.exit(f"bench/humaneval_x: {DATA} is absent; nothing to run")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "wasmeval"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    binary = os.path.join(target, "release", "wasmeval")

    failed_anywhere = False
    for language in args.languages:
        tasks = os.path.join(DATA, f"humaneval_{FILES[language]}.jsonl.gz")
        with gzip.open(tasks, "rt") as f:
            records = [json.loads(line) for line in f if line.strip()]
        with tempfile.TemporaryDirectory() as work:
            samples = os.path.join(work, "samples.jsonl")
            with open(samples, "w") as f:
                for r in records:
                    f.write(json.dumps({"task_id": r["task_id"], "completion": r["canonical_solution"]}) + "\n")
            out = os.path.join(work, "out")
            started = time.monotonic()
            run = subprocess.run(
                [binary, "run", "--tasks", tasks, "--samples", samples, "--out", out, "--jobs", str(args.jobs)],
                capture_output=True,
                text=True,
            )
            seconds = time.monotonic() - started
            if run.returncode != 0:
                print(f"{language}: wasmeval failed ({run.returncode}): {run.stderr.strip()[-500:]}")
                failed_anywhere = True
                continue
            results_path = os.path.join(out, "results.jsonl")
            results = []
            if os.path.exists(results_path):
                with open(results_path) as f:
                    results = [json.loads(line) for line in f if line.strip()]
        if not results:
            print(f"{language}: not run ({run.stderr.strip().splitlines()[-1] if run.stderr.strip() else 'no results'})")
            continue
        passed = sum(r["verdict"] == "passed" for r in results)
        print(f"{language}: {passed}/{len(results)} canonical solutions pass ({100 * passed / len(results):.1f}%) in {seconds:.1f} s")
        # Who judged the cases: the share no candidate could forge (issue 15's coverage figure).
        judges = {}
        for r in results:
            for case in r.get("cases", []):
                judge = case.get("judged_by", "unknown")
                judges[judge] = judges.get(judge, 0) + 1
        total = sum(judges.values()) or 1
        shares = ", ".join(f"{judge} {n} ({100 * n / total:.1f}%)" for judge, n in sorted(judges.items()))
        tasks_in_guest = sum(any(c.get("judged_by") == "guest" for c in r.get("cases", [])) for r in results)
        print(f"  cases judged by: {shares}; tasks with a guest-judged case: {tasks_in_guest}")
        for r in results:
            if r["verdict"] != "passed":
                message = (r.get("message") or "").replace("\n", " ")[:200]
                print(f"  {r['task_id']}: {r['verdict']}: {message}")
    sys.exit(1 if failed_anywhere else 0)


if __name__ == "__main__":
    main()
