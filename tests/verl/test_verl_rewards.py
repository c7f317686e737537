"""verl's own reward code (PyPI's `verl`, unchanged) scoring answers through `wasmeval serve`.

Usage: python tests/verl/test_verl_rewards.py --wasmeval target/release/wasmeval [--jobs N]

Starts `wasmeval serve` on a free loopback port, scores code-contest rows (stdin/stdout, assert
and LeetCode-style `fn_name`, in Python and C++: correct, wrong, crashing, endless and
memory-heavy answers) with verl's `default_compute_score` (Python, as verl's trainer calls it)
and `check_correctness(language="cpp")` (what verl's sandbox tool calls for other languages),
all at once behind one semaphore of verl's default `max_concurrent` (64), and checks that each
row's score and each case's status are the ones SandboxFusion's semantics give. Prints the
figures (rewards, request latency, the server's peak RSS) and `all rows scored as SandboxFusion
would` at the end; any difference raises. The server is stopped (SIGTERM) on the way out.

verl's package `__init__` imports torch and ray; the reward-score modules import only the
standard library and `requests`. So `verl` and `verl.utils` are registered here as bare
packages over the installed files, and everything below them runs as PyPI ships it.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
import types

# --- verl's reward code, unchanged -----------------------------------------------------------

spec = importlib.util.find_spec("verl")
if spec is None or spec.origin is None:
    sys.exit("verl is not installed: run scripts/install-test-clients")
root = os.path.dirname(spec.origin)
for name, path in [("verl", root), ("verl.utils", os.path.join(root, "utils"))]:
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package

import requests  # noqa: E402  (after the packages above: verl's modules import it too)
from verl.utils.reward_score import default_compute_score, sandbox_fusion  # noqa: E402
from verl.utils.reward_score.sandbox_fusion.utils import check_correctness  # noqa: E402

VERL_VERSION = open(os.path.join(root, "version", "version")).read().strip()

# --- the rows ---------------------------------------------------------------------------------

# A code-contest problem: read two integers, print their sum.
STDIO = {"inputs": ["1 2\n", "3 4\n", "10 -5\n", "0 0\n"], "outputs": ["3\n", "7\n", "5\n", "0\n"]}
# LeetCode style: verl's wrapper calls `add` (or `Solution().add`) with one JSON value a line.
FN_NAME = {"inputs": ["1\n2", "3\n4"], "outputs": ["3", "7"], "fn_name": "add"}
# Assert style: each case is the answer followed by one assertion.
ASSERTS = {"assert_case": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"]}
# check_correctness, called directly, takes the inputs and outputs compute_score would default.
CPP_ASSERTS = {"assert_case": ["#include <cassert>\nint main() { assert(add(1, 2) == 3); }",
                               "#include <cassert>\nint main() { assert(add(-1, 1) == 0); }"],
               "inputs": ["", ""], "outputs": [None, None]}


def fenced(language, code):
    return f"Here is my answer.\n```{language}\n{code}\n```\n"


PY_READ = "a, b = map(int, input().split())\n"
CPP_HEAD = "#include <iostream>\n#include <vector>\n#include <cstdlib>\n#include <stdexcept>\n"
CPP_READ = "long a, b; std::cin >> a >> b;\n"

# (name, language, answer, test cases, the statuses SandboxFusion's semantics give per case:
#  True passed, False wrong output, -2 runtime error, -3 timeout, -4 compile error)
ROWS = [
    ("python stdio correct", "python", fenced("python", PY_READ + "print(a + b)"), STDIO, [True] * 4),
    ("python stdio wrong when a > 5", "python", fenced("python", PY_READ + "print(a - b if a > 5 else a + b)"),
     STDIO, [True, True, False, True]),
    ("python stdio exception", "python", fenced("python", PY_READ + "raise RuntimeError('no')"), STDIO, [-2] * 4),
    ("python stdio exit 2 after the answer", "python", fenced("python", PY_READ + "print(a + b)\nraise SystemExit(2)"),
     STDIO, [-2] * 4),
    ("python stdio endless when a > 5", "python",
     fenced("python", PY_READ + "while a > 5:\n    pass\nprint(a + b)"), STDIO, [True, True, -3, True]),
    ("python stdio 600 MB (under verl's 1024 MB)", "python",
     fenced("python", PY_READ + "big = bytearray(600 << 20)\nbig[-1] = 1\nprint(a + b + big[0])"), STDIO, [True] * 4),
    ("python stdio 1.5 GB (over verl's 1024 MB)", "python",
     fenced("python", PY_READ + "big = bytearray(1536 << 20)\nprint(a + b)"), STDIO, [-2] * 4),
    ("python stdio output flood", "python", fenced("python", PY_READ + "print(a + b)\nprint('x' * 200000)"),
     STDIO, [-3] * 4),
    ("python fn_name correct (Solution)", "python",
     fenced("python", "class Solution:\n    def add(self, a, b):\n        return a + b"), FN_NAME, [True, True]),
    ("python fn_name wrong", "python", fenced("python", "def add(a, b):\n    return a * b"), FN_NAME, [False, False]),
    # verl's wrapper catches the exception and prints nothing: a wrong output, not a crash.
    ("python fn_name exception", "python", fenced("python", "def add(a, b):\n    return a / 0"), FN_NAME,
     [False, False]),
    ("python assert correct", "python", fenced("python", "def add(a, b):\n    return a + b"), ASSERTS, [True, True]),
    ("python assert wrong", "python", fenced("python", "def add(a, b):\n    return a - b"), ASSERTS, [-2, -2]),
    ("cpp stdio correct", "cpp", fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "std::cout << a + b << std::endl; }"),
     STDIO, [True] * 4),
    ("cpp stdio wrong when a > 5", "cpp",
     fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "std::cout << (a > 5 ? a - b : a + b) << std::endl; }"),
     STDIO, [True, True, False, True]),
    ("cpp stdio abort", "cpp", fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "std::abort(); }"), STDIO, [-2] * 4),
    ("cpp stdio uncaught exception", "cpp",
     fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "throw std::runtime_error(\"no\"); }"), STDIO, [-2] * 4),
    ("cpp stdio endless when a > 5", "cpp",
     fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "volatile long spin = 0;\n"
            "while (a > 5) spin = spin + 1;\nstd::cout << a + b << std::endl; }"), STDIO, [True, True, -3, True]),
    ("cpp stdio 600 MB (under verl's 1024 MB)", "cpp",
     fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "std::vector<char> big((600u << 20) + a + 8);\n"
            "volatile char *touch = big.data(); touch[big.size() - 1] = 1;\n"
            "std::cout << a + b + touch[big.size() - 1] - 1 << std::endl; }"), STDIO, [True] * 4),
    ("cpp stdio 1.5 GB (over verl's 1024 MB)", "cpp",
     fenced("cpp", CPP_HEAD + "int main() { " + CPP_READ + "std::vector<char> big((1536u << 20) + a + 8);\n"
            "volatile char *touch = big.data(); touch[0] = 1;\nstd::cout << a + b << std::endl; }"), STDIO, [-2] * 4),
    ("cpp stdio compile error", "cpp", fenced("cpp", "int main( {"), STDIO, [-4] * 4),
    ("cpp assert correct", "cpp", fenced("cpp", "long add(long a, long b) { return a + b; }"), CPP_ASSERTS, [True, True]),
    ("cpp assert wrong", "cpp", fenced("cpp", "long add(long a, long b) { return a - b; }"), CPP_ASSERTS, [-2, -2]),
]


def expected_score(statuses):
    considered = statuses[:10]  # verl's continuous score: the first 10 cases
    return sum(1 for s in considered if s is True) / len(considered)


# --- the server -------------------------------------------------------------------------------

def start_server(binary, jobs):
    process = subprocess.Popen([binary, "serve", "--bind", "127.0.0.1:0", "--jobs", str(jobs)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        sys.exit(f"wasmeval serve did not start: {line!r}")
    return process, "http://" + line.split("http://")[1].split()[0]


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) << 10
    return 0


# Request latency, observed around `requests.post` (verl's code calls it; it is not changed).
latencies = []
in_flight = [0, 0]  # now, most
lock = threading.Lock()
original_post = requests.post


def timed_post(*args, **kwargs):
    with lock:
        in_flight[0] += 1
        in_flight[1] = max(in_flight)
    started = time.monotonic()
    try:
        return original_post(*args, **kwargs)
    finally:
        with lock:
            in_flight[0] -= 1
            latencies.append(time.monotonic() - started)


requests.post = timed_post


def score(url, semaphore, row, trainer):
    """(score, statuses) of `row` by verl's code; with `trainer`, the score of verl's trainer's
    entry point, `default_compute_score`, which gives no statuses."""
    name, language, answer, cases, _ = row
    if language == "python" and trainer:
        # As verl's trainer calls it (verl/trainer/ppo/reward.py): a code-contest data source.
        return default_compute_score("codecontests", answer, json.dumps(cases), sandbox_fusion_url=url,
                                     concurrent_semaphore=semaphore, memory_limit_mb=1024), None
    if language == "python":
        # What default_compute_score calls, which also returns each case's metadata.
        value, metadata = sandbox_fusion.compute_score(url, semaphore, 1024, answer, json.dumps(cases),
                                                       continuous=True)
        return value, [status_of(m) for m in metadata]
    # Other languages: verl's check_correctness with `language`, on the code in the fence.
    code = answer.split("```" + language)[1].split("```")[0]
    results, _ = check_correctness(url, dict(cases), code, timeout=10, memory_limit_mb=1024,
                                   language=language, concurrent_semaphore=semaphore)
    return sum(1 for r in results[:10] if r is True) / len(results[:10]), results


def status_of(metadata):
    return {"success": True, "wrong_answer": False, "runtime_error": -2, "timeout": -3,
            "compile_error": -4, "compile_timeout": -4, "compile_error_skipped": -4}.get(metadata.get("status"),
                                                                                      metadata.get("status"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasmeval", required=True)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3,
                        help="each row this many times, as a batch holds several answers per prompt")
    args = parser.parse_args()
    process, url_root = start_server(args.wasmeval, args.jobs)
    url = url_root + "/run_code"
    try:
        # verl's reward manager: one semaphore of max_concurrent (64) shared by every row.
        semaphore = threading.Semaphore(64)
        # The first copy of each Python row goes through the trainer's entry point.
        batch = [(row, copy == 0) for copy in range(args.repeat) for row in ROWS]
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(len(batch)) as pool:
            scored = list(pool.map(lambda item: score(url, semaphore, *item), batch))
        seconds = time.monotonic() - started
        rss = peak_rss(process.pid)
        failures = []
        print(f"verl {VERL_VERSION}, wasmeval serve --jobs {args.jobs}, {len(batch)} answers")
        print("| row | statuses | score | expected |")
        print("|---|---|---|---|")
        for index, ((value, statuses), (row, _)) in enumerate(zip(scored, batch)):
            name, _, _, _, expected = row
            want = expected_score(expected)
            if len(ROWS) <= index < 2 * len(ROWS):
                print(f"| {name} | {statuses} | {value:.3f} | {want:.3f} |")
            if (statuses is not None and statuses != expected) or abs(value - want) > 1e-9:
                failures.append(f"{name}: statuses {statuses}, score {value} (SandboxFusion: {expected}, {want})")
        ordered = sorted(latencies)
        print(f"requests: {len(ordered)}, at most {in_flight[1]} in flight; latency p50 {ordered[len(ordered) // 2]:.2f} s, "
              f"p90 {ordered[int(len(ordered) * 0.9)]:.2f} s, max {ordered[-1]:.2f} s; batch {seconds:.1f} s; "
              f"server peak RSS {rss >> 20} MiB")
        if failures:
            sys.exit("rows not scored as SandboxFusion would:\n" + "\n".join(failures))
        print("all rows scored as SandboxFusion would")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    main()
