#!/usr/bin/env python3
"""Start-up and a CPU-bound loop per language: fuel and time in the sandbox, and the same loop run
natively (the host's python3, node, gcc, g++, rustc, ruby, lua5.4 (Debian's, when installed) and
the installed Go toolchain), one program after the other.

Each language gets two whole programs, judged as `io` cases by `wasmeval run --jobs 1`:
- trivial: prints 1;
- loop: s = (s + i*i) % 1000003 for i below N (default 1,000,000), printed.
The sandbox's figures are each result's `fuel` and `wall_us` (the execution alone, after the
module is compiled and cached: the run is repeated once and the second run is reported). The
native times are the best of 3 runs of the built program (compilation left out, process start-up
in; Ruby as `ruby --disable-gems`, as the sandbox starts it). The last column compares the loops
without their start-up: (loop - trivial) in the sandbox over (loop - trivial) natively. TypeScript runs as
JavaScript in the sandbox; natively it is not timed (node 20 does not strip types). Needs a
release build (`--no-build` skips building it), found in $CARGO_TARGET_DIR when set, else in
target/, and the runtimes and compilers scripts/setup installs.

    python3 bench/startup.py --no-build
    python3 bench/startup.py --n 3000000
    python3 bench/startup.py --no-build --languages lua
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOME = os.environ.get("WASMEVAL_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "wasmeval")
GO = os.path.join(HOME, "go", "goroot", "bin", "go")

# language -> (trivial program, loop program with {n}), all printing to stdout.
PROGRAMS = {
    "python": ("print(1)\n",
               "s = 0\nfor i in range({n}):\n    s = (s + i * i) % 1000003\nprint(s)\n"),
    "javascript": ("console.log(1);\n",
                   "let s = 0;\nfor (let i = 0; i < {n}; i++) s = (s + i * i) % 1000003;\nconsole.log(s);\n"),
    "typescript": ("const one: number = 1;\nconsole.log(one);\n",
                   "let s: number = 0;\nfor (let i: number = 0; i < {n}; i++) s = (s + i * i) % 1000003;\nconsole.log(s);\n"),
    "c": ("#include <stdio.h>\nint main(void) {{ printf(\"1\\n\"); return 0; }}\n",
          "#include <stdio.h>\nint main(void) {{ long long s = 0; for (long long i = 0; i < {n}; i++) s = (s + i * i) % 1000003; printf(\"%lld\\n\", s); return 0; }}\n"),
    "cpp": ("#include <cstdio>\nint main() {{ std::printf(\"1\\n\"); }}\n",
            "#include <cstdio>\nint main() {{ long long s = 0; for (long long i = 0; i < {n}; i++) s = (s + i * i) % 1000003; std::printf(\"%lld\\n\", s); }}\n"),
    "rust": ("fn main() {{ println!(\"1\"); }}\n",
             "fn main() {{ let mut s: u64 = 0; for i in 0..{n}u64 {{ s = (s + i * i) % 1000003; }} println!(\"{{}}\", s); }}\n"),
    "go": ("package main\n\nimport \"fmt\"\n\nfunc main() {{ fmt.Println(1) }}\n",
           "package main\n\nimport \"fmt\"\n\nfunc main() {{\n\tvar s int64\n\tfor i := int64(0); i < {n}; i++ {{\n\t\ts = (s + i*i) % 1000003\n\t}}\n\tfmt.Println(s)\n}}\n"),
    "ruby": ("puts 1\n",
             "s = 0\ni = 0\nwhile i < {n}\n  s = (s + i * i) % 1000003\n  i += 1\nend\nputs s\n"),
    "lua": ("print(1)\n",
            "local s = 0\nfor i = 0, {n} - 1 do\n    s = (s + i * i) % 1000003\nend\nprint(s)\n"),
}

EXT = {"python": "py", "javascript": "js", "typescript": "ts", "c": "c", "cpp": "cpp", "rust": "rs", "go": "go",
       "ruby": "rb", "lua": "lua"}


def expected(n):
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s


def sandbox(binary, n, work, languages):
    """Fuel and microseconds of each (language, program) in the sandbox, from the second run."""
    tasks, samples = [], []
    for language in languages:
        trivial, loop = PROGRAMS[language]
        for kind, source, out in (("trivial", trivial, "1"), ("loop", loop, str(expected(n)))):
            task_id = f"{language}/{kind}"
            tasks.append({"id": task_id, "language": language, "prompt": "",
                          "tests": [{"kind": "io", "cases": [{"name": kind, "stdin": "", "stdout": out + "\n"}]}]})
            samples.append({"task_id": task_id, "solution": source.format(n=n)})
    with open(os.path.join(work, "tasks.jsonl"), "w") as f:
        f.writelines(json.dumps(t) + "\n" for t in tasks)
    with open(os.path.join(work, "samples.jsonl"), "w") as f:
        f.writelines(json.dumps(s) + "\n" for s in samples)
    figures = {}
    for attempt in range(2):
        out = os.path.join(work, f"out{attempt}")
        subprocess.run([binary, "run", "--tasks", os.path.join(work, "tasks.jsonl"),
                        "--samples", os.path.join(work, "samples.jsonl"), "--out", out,
                        "--fresh", "--jobs", "1", "--fuel", str(10**12), "--timeout", "300s"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "results.jsonl")) as f:
            for line in f:
                r = json.loads(line)
                if r["verdict"] != "passed":
                    sys.exit(f"bench/startup: {r['task_id']} got {r['verdict']}: {r.get('message')}")
                figures[r["task_id"]] = (r["fuel"], r["wall_us"])
    return figures


def native(language, source, work):
    """Best of 3 wall seconds of the program run natively, or None when the tool is missing."""
    path = os.path.join(work, f"native.{EXT[language]}")
    with open(path, "w") as f:
        f.write(source)
    exe = os.path.join(work, "native.out")
    if language == "python":
        cmd = [sys.executable, path]
    elif language == "javascript" and shutil.which("node"):
        cmd = ["node", path]
    elif language in ("c", "cpp") and shutil.which("gcc"):
        compiler = "gcc" if language == "c" else "g++"
        subprocess.run([compiler, "-O2", "-o", exe, path], check=True)
        cmd = [exe]
    elif language == "rust" and shutil.which("rustc"):
        subprocess.run(["rustc", "-O", "-o", exe, path], check=True, cwd=work)
        cmd = [exe]
    elif language == "lua" and shutil.which("lua5.4"):
        cmd = ["lua5.4", path]
    elif language == "go" and os.path.exists(GO):
        env = dict(os.environ, GOCACHE=os.path.join(work, "gocache"), GO111MODULE="off", GOTOOLCHAIN="local")
        subprocess.run([GO, "build", "-o", exe, path], check=True, env=env)
        cmd = [exe]
    elif language == "ruby" and shutil.which("ruby"):
        cmd = ["ruby", "--disable-gems", path]
    else:
        return None
    best = None
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="iterations of the loop")
    parser.add_argument("--no-build", action="store_true", help="use the existing release binary")
    parser.add_argument("--languages", nargs="+", choices=list(PROGRAMS), default=list(PROGRAMS),
                        help="the languages to measure (default: all)")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "wasmeval"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    binary = os.path.join(target, "release", "wasmeval")
    print(f"load average at start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as work:
        figures = sandbox(binary, args.n, work, args.languages)
        print(f"| language | trivial: fuel | trivial: ms | trivial: ms native | loop ({args.n:,}): fuel "
              f"| loop: ms | loop: ms native | loop without start-up, sandbox / native |")
        print("|---|---|---|---|---|---|---|---|")
        for language in args.languages:
            trivial, loop = PROGRAMS[language]
            t_fuel, t_us = figures[f"{language}/trivial"]
            l_fuel, l_us = figures[f"{language}/loop"]
            timed = language != "typescript"
            t_native = native(language, trivial.format(n=args.n), work) if timed else None
            l_native = native(language, loop.format(n=args.n), work) if timed else None
            ms = lambda seconds: f"{seconds * 1000:.1f}" if seconds is not None else "-"
            ratio = "-"
            if t_native is not None and l_native is not None and l_native > t_native:
                ratio = f"{(l_us - t_us) / 1e6 / (l_native - t_native):.1f}x"
            print(f"| {language} | {t_fuel:,} | {t_us / 1000:.1f} | {ms(t_native)} | {l_fuel:,} "
                  f"| {l_us / 1000:.1f} | {ms(l_native)} | {ratio} |")
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
