#!/usr/bin/env python3
"""What `wasmeval generate` adds to the model server's own time: the same requests sent by a
plain Python client and by `wasmeval generate` (without and with --evaluate), against the local
llama-server of scripts/llm-server (the tiny model of tests/llm/make_model.py, answers forced to
one short program by a grammar so that every request generates the same tokens).

    python3 bench/generate.py [--samples 64] [--concurrency 4] [--bin target/release/wasmeval]

Prints requests per second and the overhead per sample against the plain client. Starts the
server when none runs (scripts/llm-server start) and leaves it to `scripts/llm-server stop`.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "llm" / "fixtures"
TASKS = FIXTURES / "forced_tasks.jsonl"


def server_url():
    return subprocess.run([str(ROOT / "scripts" / "llm-server"), "start"], check=True,
                          capture_output=True, text=True).stdout.strip()


def plain_client(url, bodies, concurrency):
    def ask(body):
        request = urllib.request.Request(url + "/v1/chat/completions",
                                         data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            json.loads(answer.read())
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(ask, bodies))
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=64, help="samples in all (even)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release" / "wasmeval"))
    args = parser.parse_args()
    url = server_url()
    grammar = (FIXTURES / "subtract.gbnf").read_text().strip()
    tasks = [json.loads(line) for line in TASKS.read_text().splitlines()]
    per_task = args.samples // len(tasks)
    prompt = "Generate a Python code to solve the problem!\n\n{}"
    bodies = [{"model": "tiny", "messages": [{"role": "user", "content": prompt.format(t["prompt"])}],
               "temperature": 0.0, "top_p": 0.95, "max_tokens": 48, "grammar": grammar}
              for t in tasks for _ in range(per_task)]
    total = len(bodies)
    # Warm the server (its prompt cache) once.
    plain_client(url, bodies[:2], 2)
    plain = plain_client(url, bodies, args.concurrency)
    rows = [("plain Python client", plain)]
    for label, extra in [("wasmeval generate", []), ("wasmeval generate --evaluate", ["--evaluate"])]:
        with tempfile.TemporaryDirectory() as scratch:
            out = pathlib.Path(scratch) / "samples.jsonl"
            started = time.monotonic()
            subprocess.run([args.bin, "generate", "--tasks", str(TASKS), "--endpoint", url,
                            "--model", "tiny", "--temperature", "0", "--max-tokens", "48",
                            "--n", str(per_task), "--concurrency", str(args.concurrency),
                            "--extra-body", json.dumps({"grammar": grammar}), "--out", str(out),
                            *extra], check=True, capture_output=True)
            rows.append((label, time.monotonic() - started))
    print(f"{total} requests, concurrency {args.concurrency}, server {url} "
          f"(load average at end {os.getloadavg()[0]:.2f})")
    print(f"{'client':<32} {'seconds':>8} {'req/s':>7} {'overhead/sample':>16}")
    for label, seconds in rows:
        overhead = (seconds - plain) / total * 1000
        print(f"{label:<32} {seconds:>8.2f} {total / seconds:>7.2f} {overhead:>13.1f} ms")


if __name__ == "__main__":
    main()
