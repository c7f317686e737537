#!/usr/bin/env python3
"""Fuel per native second of each language as SandboxFusion runs it: the rates behind
`run_timeout` (runner/src/server/sandbox_fusion.rs, `fuel_per_native_second`).

A CPU-bound loop and a sieve per language, each judged in the sandbox by `wasmeval run --jobs 1`
(bench/startup.py's `sandbox`, fuel from results.jsonl), and run natively the way SandboxFusion's
runners do (sandbox/runners/major.py, minor.py: `python`, `g++ -std=c++17` without optimisation,
`rustc` without -O, `go build`, `node`, `ruby`, `lua`), best of 3, with a trivial program's time
and fuel taken off (start-up). For the compiled languages the rate against an optimised native
build (-O2, rustc -O) is printed too: the larger of the two is what a budget must cover.

    python3 tests/verl/fuel_rates.py --wasmeval target/release/wasmeval
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import startup  # noqa: E402  (bench/startup.py: the programs and the sandbox's side)

SIEVE = {
    "python": "n = {n}\nm = bytearray([1]) * (n + 1)\nc = 0\nfor i in range(2, n + 1):\n    if m[i]:\n        c += 1\n        for j in range(i * i, n + 1, i):\n            m[j] = 0\nprint(c)\n",
    "javascript": "const n = {n};\nconst m = new Uint8Array(n + 1).fill(1);\nlet c = 0;\nfor (let i = 2; i <= n; i++) if (m[i]) {{ c++; for (let j = i * i; j <= n; j += i) m[j] = 0; }}\nconsole.log(c);\n",
    "cpp": "#include <cstdio>\n#include <vector>\nint main() {{ long long n = {n}; std::vector<char> m(n + 1, 1); long long c = 0; for (long long i = 2; i <= n; i++) if (m[i]) {{ c++; for (long long j = i * i; j <= n; j += i) m[j] = 0; }} std::printf(\"%lld\\n\", c); }}\n",
    "rust": "fn main() {{ let n: u64 = {n}; let mut m = vec![true; n as usize + 1]; let mut c = 0u64; for i in 2..=n {{ if m[i as usize] {{ c += 1; let mut j = i * i; while j <= n {{ m[j as usize] = false; j += i; }} }} }} println!(\"{{}}\", c); }}\n",
    "go": "package main\n\nimport \"fmt\"\n\nfunc main() {{\n\tn := {n}\n\tm := make([]bool, n+1)\n\tc := 0\n\tfor i := 2; i <= n; i++ {{\n\t\tif !m[i] {{\n\t\t\tc++\n\t\t\tfor j := i * i; j <= n; j += i {{\n\t\t\t\tm[j] = true\n\t\t\t}}\n\t\t}}\n\t}}\n\tfmt.Println(c)\n}}\n",
    "ruby": "n = {n}\nm = Array.new(n + 1, true)\nc = 0\ni = 2\nwhile i <= n\n  if m[i]\n    c += 1\n    j = i * i\n    while j <= n\n      m[j] = false\n      j += i\n    end\n  end\n  i += 1\nend\nputs c\n",
    "lua": "local n = {n}\nlocal m = {{}}\nlocal c = 0\nfor i = 2, n do\n  if not m[i] then\n    c = c + 1\n    for j = i * i, n, i do m[j] = true end\n  end\nend\nprint(c)\n",
}
# Sizes that take a few tenths of a second natively.
SIZES = {"python": (3_000_000, 3_000_000), "javascript": (30_000_000, 20_000_000), "cpp": (100_000_000, 30_000_000),
         "rust": (30_000_000, 30_000_000), "go": (100_000_000, 30_000_000), "ruby": (3_000_000, 2_000_000),
         "lua": (5_000_000, 3_000_000)}


def primes(n):
    m = bytearray([1]) * (n + 1)
    count = 0
    for i in range(2, n + 1):
        if m[i]:
            count += 1
            m[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    return count


def native(language, source, work, optimised):
    """Best of 3 seconds of `source` run natively, built as SandboxFusion builds it (or -O2)."""
    ext = startup.EXT[language]
    path = os.path.join(work, f"native.{ext}")
    with open(path, "w") as f:
        f.write(source)
    exe = os.path.join(work, "native.out")
    env = dict(os.environ, GOCACHE=os.path.join(work, "gocache"), GO111MODULE="off", GOTOOLCHAIN="local")
    if language == "cpp":
        subprocess.run(["g++", "-std=c++17", *(["-O2"] if optimised else []), path, "-o", exe], check=True)
        cmd = [exe]
    elif language == "rust":
        subprocess.run(["rustc", *(["-O"] if optimised else []), path, "-o", exe], check=True, cwd=work)
        cmd = [exe]
    elif language == "go":
        subprocess.run([startup.GO, "build", "-o", exe, path], check=True, env=env)
        cmd = [exe]
    else:
        cmd = {"python": [sys.executable], "javascript": ["node"], "ruby": ["ruby"], "lua": ["lua5.4"]}[language] + [path]
    best = None
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best or 1e9, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasmeval", required=True)
    parser.add_argument("--languages", nargs="+", default=list(SIZES))
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print("| language | program | fuel | native s (as SandboxFusion) | fuel per native s | native s (-O2) | fuel per native s (-O2) |")
    print("|---|---|---|---|---|---|---|")
    for language in args.languages:
        loop_n, sieve_n = SIZES[language]
        with tempfile.TemporaryDirectory() as work:
            trivial = startup.PROGRAMS[language][0]
            programs = {"trivial": (trivial, "1"),
                        "loop": (startup.PROGRAMS[language][1].format(n=loop_n), str(startup.expected(loop_n))),
                        "sieve": (SIEVE[language].format(n=sieve_n), str(primes(sieve_n)))}
            figures = sandbox(args.wasmeval, language, programs, work)
            base_native = native(language, trivial, work, False)
            compiled = language in ("cpp", "rust")
            base_o2 = native(language, trivial, work, True) if compiled else None
            for kind in ("loop", "sieve"):
                fuel = figures[kind] - figures["trivial"]
                seconds = native(language, programs[kind][0], work, False) - base_native
                row = f"| {language} | {kind} | {fuel:,} | {seconds:.3f} | {fuel / seconds:.2e} |"
                if compiled:
                    o2 = native(language, programs[kind][0], work, True) - base_o2
                    row += f" {o2:.3f} | {fuel / o2:.2e} |"
                else:
                    row += " - | - |"
                print(row, flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


def sandbox(binary, language, programs, work):
    """Fuel of each program in the sandbox (io cases through `wasmeval run --jobs 1`)."""
    import json
    tasks, samples = [], []
    for kind, (source, out) in programs.items():
        tasks.append({"id": kind, "language": language, "prompt": "",
                      "tests": [{"kind": "io", "cases": [{"name": kind, "stdin": "", "stdout": out + "\n"}]}]})
        samples.append({"task_id": kind, "solution": source})
    for name, rows in (("tasks.jsonl", tasks), ("samples.jsonl", samples)):
        with open(os.path.join(work, name), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    out = os.path.join(work, "out")
    subprocess.run([binary, "run", "--tasks", os.path.join(work, "tasks.jsonl"), "--samples",
                    os.path.join(work, "samples.jsonl"), "--out", out, "--fresh", "--jobs", "1",
                    "--fuel", str(10**13), "--timeout", "600s", "--memory", "1GiB"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    figures = {}
    with open(os.path.join(out, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r["verdict"] != "passed":
                sys.exit(f"fuel_rates: {language} {r['task_id']} got {r['verdict']}: {r.get('message')}")
            figures[r["task_id"]] = r["fuel"]
    return figures


if __name__ == "__main__":
    main()
