"""The front doors, each fed the same references: `wasmeval run`, `wasmeval serve`'s native API
(`/api/v1/evaluate/batch`), SandboxFusion's `/run_code` and `/submit`, the Python package
(`Evaluator.evaluate`, `rewards.compute_score`, `rewards.trl_reward`) and the browser's worker.

Every door answers an *outcome* per reference key:
`{"verdict": str | None, "passed": bool, "message": str, "cases": [verdict, ...] | None,
  "score": float | None, "error": bool}`; `verdict` is None where the door says only pass or fail
(`/run_code`, `trl_reward`), `error` is True when the door could not evaluate the sample at all.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

from .datasets import REPO, RUN_CODE_LANGUAGE
from .native import tokens_match

#: The doors, in the report's order.
DOORS = ["run", "api", "submit", "run_code", "evaluate", "compute_score", "trl_reward", "browser"]
#: Doors that give a verdict per case, compared case by case with `run`'s.
CASE_DOORS = {"run", "api", "submit", "evaluate", "browser"}

SERVE_START_S = 60
#: How long serve may take to start when it computes EvalPlus's expected outputs first (once
#: per harness and dataset: minutes for MBPP+ when the cache is cold).
SERVE_REFERENCE_OUTPUTS_S = 1800
#: How long a server may take to stop after SIGTERM before it is killed.
SERVE_STOP_S = 30


def outcome(verdict=None, passed=False, message="", cases=None, score=None, error=False) -> dict:
    return {"verdict": verdict, "passed": bool(passed), "message": (message or "").replace("\n", " ")[:400],
            "cases": cases, "score": score, "error": error}


def door_error(message: str) -> dict:
    return outcome(None, False, message, error=True)


def from_result(result: dict) -> dict:
    """A results.jsonl line (run, api, evaluate, browser)."""
    if not isinstance(result, dict) or "verdict" not in result:
        return door_error(f"no verdict in the answer: {json.dumps(result)[:200]}")
    message = result.get("message") or ""
    if result["verdict"] == "timeout" and result.get("timeout_cause"):
        message = f"[{result['timeout_cause']}] {message}"
    return outcome(result["verdict"], result["verdict"] == "passed", message,
                   [c.get("verdict") for c in result.get("cases") or []])


class Context:
    def __init__(self, binary: Path, work: Path, jobs: int, log):
        self.binary = binary
        self.work = work
        self.jobs = jobs
        self.log = log
        #: group name -> {task id: task in wasmeval's format}, from `run`'s tasks.jsonl
        self.tasks: dict = {}
        #: group name -> run.json's limits
        self.limits: dict = {}
        #: group name -> {judge: cases}, from `run`'s results
        self.judged_by: dict = {}
        #: group name -> the run folder
        self.run_dirs: dict = {}
        #: "group|task id|source" -> run's outcome of a MultiPL-E candidate that fails natively
        self.rejected_outcomes: dict = {}


def _tail(text: str, n: int = 1) -> str:
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return " | ".join(lines[-n:])


# ------------------------------------------------------------------ run


def run_door(ctx: Context, groups: list) -> dict:
    out: dict = {}
    rejected: dict = {}
    for g in groups:
        samples = [r.sample for r in g.refs]
        # MultiPL-E candidates that fail natively: `run` must not pass them.
        extra = [(task_id, c) for task_id, failures in sorted(g.rejected.items()) for c, _ in failures]
        samples += [{"task_id": task_id, "completion": c.completion} for task_id, c in extra]
        if not samples:
            continue
        folder = ctx.work / "run" / g.name.replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        samples_path = folder / "samples.jsonl"
        samples_path.write_text("".join(json.dumps(s) + "\n" for s in samples))
        results_dir = folder / "out"
        cmd = [str(ctx.binary), "run", "--tasks", str(g.task_file), "--samples", str(samples_path),
               "--out", str(results_dir), "--fresh", "--jobs", str(ctx.jobs), *g.run_flags]
        started = time.monotonic()
        ctx.log(f"run: {g.name}: {len(samples)} samples")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=max(900, 30 * len(samples)),
                                  stdin=subprocess.DEVNULL)
            rc, stderr = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as e:
            rc, stderr = None, f"timed out after {e.timeout} s"
        (folder / "stderr.txt").write_text(stderr or "")
        ctx.log(f"run: {g.name}: exit {rc} in {time.monotonic() - started:.0f} s")
        results = {}
        if (results_dir / "results.jsonl").exists():
            for line in (results_dir / "results.jsonl").read_text().splitlines():
                if line.strip():
                    r = json.loads(line)
                    results[r["index"]] = r
        if rc != 0 and not results:
            for r in g.refs:
                out[r.key] = door_error(f"wasmeval run exited {rc}: {_tail(stderr)}")
            continue
        ctx.run_dirs[g.name] = results_dir
        if (results_dir / "tasks.jsonl").exists():
            ctx.tasks[g.name] = {t["id"]: t for t in map(json.loads, (results_dir / "tasks.jsonl").read_text().splitlines())}
        if (results_dir / "run.json").exists():
            ctx.limits[g.name] = json.loads((results_dir / "run.json").read_text()).get("limits", {})
        judged: dict = {}
        for i, r in enumerate(g.refs):
            result = results.get(i)
            if result is None:
                out[r.key] = door_error(f"no result (wasmeval run exited {rc}: {_tail(stderr)})")
                continue
            out[r.key] = from_result(result)
            for case in result.get("cases") or []:
                judged[case.get("judged_by", "?")] = judged.get(case.get("judged_by", "?"), 0) + 1
        ctx.judged_by[g.name] = judged
        for j, (task_id, c) in enumerate(extra):
            result = results.get(len(g.refs) + j)
            rejected[f"{g.name}|{task_id}|{c.source}"] = from_result(result) if result else door_error("no result")
    ctx.rejected_outcomes = rejected
    return out


# ------------------------------------------------------------------ serve


@contextmanager
def serve(ctx: Context, tasks=None, label="serve"):
    """`wasmeval serve --bind 127.0.0.1:0` (with `--tasks`), stopped by SIGTERM at the end; the
    whole process is bounded by `timeout` in case this script dies first."""
    cmd = ["timeout", "7200", str(ctx.binary), "serve", "--bind", "127.0.0.1:0", "--jobs", str(ctx.jobs),
           "--queue", str(max(64, 8 * ctx.jobs)), "--max-body", "64MiB"]
    if tasks is not None:
        cmd += ["--tasks", str(tasks)]
    log_path = ctx.work / "serve" / f"{label}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log_file:
        proc = subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            started = time.monotonic()
            deadline = started + SERVE_START_S
            url = None
            while time.monotonic() < deadline:
                text = log_path.read_text(errors="replace")
                if "computing the expected outputs" in text:
                    deadline = started + SERVE_REFERENCE_OUTPUTS_S
                found = re.search(r"serving on (http://127\.0\.0\.1:\d+)", text)
                if found:
                    url = found.group(1)
                    break
                if proc.poll() is not None:
                    break
                time.sleep(0.05)
            if url is None:
                raise RuntimeError(f"wasmeval serve did not start: {_tail(log_path.read_text(errors='replace'), 2)}")
            yield url
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(SERVE_STOP_S)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def _post(url: str, path: str, body: bytes, timeout: float = 900.0):
    parsed = urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", errors="replace")
    finally:
        conn.close()


def _post_json(url: str, path: str, payload: dict, timeout: float = 900.0):
    for attempt in range(20):
        status, text = _post(url, path, json.dumps(payload).encode(), timeout)
        if status != 429:
            return status, text
        time.sleep(0.5 * (attempt + 1))
    return status, text


def api_door(ctx: Context, groups: list, submit: bool) -> tuple:
    """The native API's batch route and, with `submit`, SandboxFusion's `/submit`, on one server
    per task file (`--tasks FILE`: serve keeps the first of equal task ids, and MultiPL-E's files
    share theirs across languages)."""
    api, sub = {}, {}
    for g in groups:
        if not g.refs:
            continue
        inline = g.serve_name is None
        try:
            with serve(ctx, None if inline else g.task_file, g.name.replace("/", "-")) as url:
                ctx.log(f"api: {g.name}: {len(g.refs)} samples")
                lines = []
                for r in g.refs:
                    body = {k: v for k, v in r.sample.items() if k != "task_id"}
                    if inline:
                        task = ctx.tasks.get(g.name, {}).get(r.task_id)
                        body["task"] = task
                    else:
                        body["task_id"] = r.task_id
                    lines.append(json.dumps(body))
                status, text = _post(url, "/api/v1/evaluate/batch", ("\n".join(lines) + "\n").encode(),
                                     timeout=max(900, 60 * len(lines)))
                by_line = {}
                if status == 200:
                    for line in text.splitlines():
                        if line.strip():
                            answer = json.loads(line)
                            by_line[answer.get("index", answer.get("line"))] = answer
                for i, r in enumerate(g.refs):
                    answer = by_line.get(i)
                    if status != 200:
                        api[r.key] = door_error(f"HTTP {status}: {text[:200]}")
                    elif answer is None:
                        api[r.key] = door_error("no answer line")
                    elif "error" in answer and "verdict" not in answer:
                        api[r.key] = door_error(f"line error: {answer['error']}")
                    else:
                        api[r.key] = from_result(answer)
                if submit and not inline:
                    ctx.log(f"submit: {g.name}: {len(g.refs)} samples")
                    with ThreadPoolExecutor(ctx.jobs) as pool:
                        answers = list(pool.map(lambda r: _submit(url, g.serve_name, r), g.refs))
                    for r, o in zip(g.refs, answers):
                        sub[r.key] = o
        except RuntimeError as e:
            for r in g.refs:
                api[r.key] = door_error(str(e))
                if submit and not inline:
                    sub[r.key] = door_error(str(e))
    return api, sub


def _submit(url: str, dataset: str, ref) -> dict:
    status, text = _post_json(url, "/submit", {"dataset": dataset, "id": ref.task_id, "completion": ref.answer,
                                               "config": {}})
    if status != 200:
        return door_error(f"HTTP {status}: {text[:200]}")
    answer = json.loads(text)
    tests = answer.get("tests") or []
    cases = [(t.get("test_info") or {}).get("verdict") for t in tests]
    extra = answer.get("extra") or {}
    verdict = extra.get("verdict")
    if verdict is None:
        verdict = "passed" if answer.get("accepted") else next((c for c in cases if c != "passed"), "failed")
    message = extra.get("message") or next(((t.get("test_info") or {}).get("message") for t in tests
                                            if (t.get("test_info") or {}).get("verdict") != "passed"), "")
    if verdict == "passed" and not answer.get("accepted"):
        message = f"not accepted though the verdict is passed; {message}"
    return outcome(verdict, bool(answer.get("accepted")) and verdict == "passed", message, cases)


def run_code_door(ctx: Context, groups: list) -> dict:
    """SandboxFusion's `/run_code` with the program each dataset's own harness runs: passes when
    it exits 0 (`status: Success`), or, for PSB2, when every case's output matches."""
    out = {}
    todo = [r for g in groups for r in g.refs if r.program and r.program.mode in ("script", "io")]
    if not todo:
        return out
    try:
        with serve(ctx, None, "run_code") as url:
            ctx.log(f"run_code: {len(todo)} programs")
            done = [0]
            lock = threading.Lock()

            def one(r):
                o = _run_code(url, r.program)
                with lock:
                    done[0] += 1
                    if done[0] % 200 == 0:
                        ctx.log(f"run_code: {done[0]}/{len(todo)}")
                return o

            with ThreadPoolExecutor(ctx.jobs) as pool:
                for r, o in zip(todo, pool.map(one, todo)):
                    out[r.key] = o
    except RuntimeError as e:
        for r in todo:
            out[r.key] = door_error(str(e))
    return out


#: `run_timeout` of the door's requests. SandboxFusion's default (10 s) is a wall clock there;
#: here it is that many native seconds of fuel with a wall-clock backstop of twice it (sized for
#: RL clients, which stop waiting at run_timeout + 10 s), and a sandboxed interpreter runs about 5
#: times slower than natively, so a dataset's whole check program of 5 s natively (HumanEval+'s
#: HumanEval/15 and /139, MBPP+'s Mbpp/255 and /599) meets the backstop at 10 s on a loaded
#: machine. The door checks judging, not that backstop (bench/README.md says it).
RUN_CODE_TIMEOUT = 30


def _run_code_once(url: str, language: str, code: str, stdin: str):
    status, text = _post_json(url, "/run_code", {"code": code, "language": RUN_CODE_LANGUAGE[language],
                                                 "stdin": stdin, "run_timeout": RUN_CODE_TIMEOUT})
    if status != 200:
        return None, f"HTTP {status}: {text[:200]}"
    return json.loads(text), None


def _coarse(answer: dict) -> tuple:
    """A run_code answer as (verdict, message): passed, compile_error, timeout, failed, or
    sandbox_error."""
    if answer.get("status") == "Success":
        return "passed", ""
    if answer.get("status") == "SandboxError":
        return "sandbox_error", answer.get("message") or ""
    compiled = answer.get("compile_result") or {}
    if compiled and (compiled.get("status") != "Finished" or compiled.get("return_code") not in (0, None)):
        return "compile_error", _tail(compiled.get("stderr") or compiled.get("stdout") or "")
    run = answer.get("run_result") or {}
    if run.get("status") == "TimeLimitExceeded":
        return "timeout", ""
    text = run.get("stderr") or run.get("stdout") or answer.get("message") or ""
    return "failed", f"exit {run.get('return_code')}: {_tail(text)}"


def _run_code(url: str, program) -> dict:
    if program.mode == "io":
        if not program.cases:
            return door_error("no io cases (the run door did not read the task)")
        for case in program.cases:
            answer, error = _run_code_once(url, program.language, program.code, case["stdin"])
            if error:
                return door_error(error)
            verdict, message = _coarse(answer)
            if verdict != "passed":
                return outcome(verdict, False, f"case {case['name']}: {message}")
            stdout = (answer.get("run_result") or {}).get("stdout") or ""
            if not tokens_match(case["stdout"], stdout, case["compare"], case["tolerance"]):
                return outcome("wrong_output", False,
                               f"case {case['name']}: expected {case['stdout'][:60]!r}, got {stdout[:60]!r}")
        return outcome("passed", True)
    answer, error = _run_code_once(url, program.language, program.code, "")
    if error:
        return door_error(error)
    verdict, message = _coarse(answer)
    if verdict == "sandbox_error":
        return outcome(None, False, f"SandboxError: {message}", error=True)
    return outcome(verdict, verdict == "passed", message)


# ------------------------------------------------------------------ the Python package


def python_door(ctx: Context, groups: list, venv_python: Path) -> tuple:
    requests = []
    missing = {}
    for g in groups:
        for r in g.refs:
            task = r.record if r.record is not None else ctx.tasks.get(g.name, {}).get(r.task_id)
            if task is None:
                missing[r.key] = door_error("no task record (the run door did not read the task)")
                continue
            requests.append({"key": r.key, "group": g.name, "task": task, "sample": r.sample,
                             "answer": r.answer, "data_source": g.data_source})
    folder = ctx.work / "python"
    folder.mkdir(parents=True, exist_ok=True)
    requests_path, out_path = folder / "requests.jsonl", folder / "results.jsonl"
    requests_path.write_text("".join(json.dumps(r) + "\n" for r in requests))
    if out_path.exists():
        out_path.unlink()
    ctx.log(f"python: {len(requests)} samples through {venv_python}")
    proc = subprocess.run([str(venv_python), str(Path(__file__).with_name("python_door.py")), str(requests_path),
                           str(out_path), str(ctx.jobs)], stdin=subprocess.DEVNULL, timeout=4 * 3600)
    evaluate, score, trl = dict(missing), dict(missing), dict(missing)
    if proc.returncode != 0 or not out_path.exists():
        for r in requests:
            for d in (evaluate, score, trl):
                d[r["key"]] = door_error(f"python_door.py exited {proc.returncode}")
        return evaluate, score, trl
    for line in out_path.read_text().splitlines():
        row = json.loads(line)
        key = row["key"]
        e = row.get("evaluate", {})
        evaluate[key] = door_error(e["error"]) if "error" in e else from_result(e)
        s = row.get("compute_score", {})
        if "error" in s:
            score[key] = door_error(s["error"])
        else:
            cases = s.get("cases")
            score[key] = outcome(s.get("verdict"), s.get("score") == 1.0, s.get("message"), None, s.get("score"))
            score[key]["cases_passed"] = [s.get("cases_passed"), cases]
        t = row.get("trl_reward", {})
        trl[key] = door_error(t["error"]) if "error" in t else outcome(None, t.get("score") == 1.0,
                                                                         f"score {t.get('score')}", None,
                                                                         t.get("score"))
    return evaluate, score, trl


# ------------------------------------------------------------------ the browser


#: core's `FUEL_PER_NATIVE_SECOND` and `SANDBOX_SECONDS_PER_FUEL` (core/src/evaluation/mod.rs).
FUEL_PER_NATIVE_SECOND = 5.7e10
SANDBOX_SECONDS_PER_FUEL = 1.2e-10


def browser_limits(run_limits: dict, task: dict) -> dict:
    """The limits the site's page sends its worker for `task`: `run`'s (run.json), and, when run
    took the budget from the task's `time_limit` (`fuel_from_time_limit`), that budget, as core's
    `BrowserLimits::for_task` makes it."""
    limits = {"fuel": run_limits["fuel"], "memory": run_limits["memory"],
              "timeout_ms": run_limits["timeout"]["secs"] * 1000 + run_limits["timeout"]["nanos"] // 1_000_000,
              "output": run_limits["output"], "disk": run_limits["disk"]}
    seconds = task.get("time_limit")
    if run_limits.get("fuel_from_time_limit") and isinstance(seconds, (int, float)) and 0 < seconds < float("inf"):
        limits["fuel"] = int(seconds * FUEL_PER_NATIVE_SECOND)
        limits["timeout_ms"] = max(limits["timeout_ms"], int(limits["fuel"] * SANDBOX_SECONDS_PER_FUEL * 3 * 1000))
    return limits


def browser_door(ctx: Context, groups: list, site_assets: Path) -> dict:
    out = {}
    requests = []
    for g in groups:
        if g.language not in ("python", "javascript"):
            continue
        tasks = ctx.tasks.get(g.name)
        limits = ctx.limits.get(g.name)
        for i, r in enumerate(g.refs):
            task = (tasks or {}).get(r.task_id)
            if task is None or limits is None:
                out[r.key] = door_error("no task in wasmeval's format (the run door did not read the task)")
                continue
            message = {"task": task, "sample": {"index": i, **r.sample}, "limits": browser_limits(limits, task)}
            # The worker's request as JSON text, made here: a task parsed by JavaScript would
            # lose what JSON numbers say beyond their value (`3.0` would reach the worker as `3`).
            requests.append({"key": r.key, "fuel": message["limits"]["fuel"], "message": json.dumps(message)})
    if not requests:
        return out
    folder = ctx.work / "browser"
    site = folder / "site"
    if site.exists():
        shutil.rmtree(site)
    folder.mkdir(parents=True, exist_ok=True)
    any_run = next(iter(ctx.run_dirs.values()))
    env = dict(os.environ, WASMEVAL_SITE_ASSETS=str(site_assets))
    made = subprocess.run([str(ctx.binary), "report", str(any_run), "--site", str(site), "--with-runtimes"],
                          capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if made.returncode != 0:
        for r in requests:
            out[r["key"]] = door_error(f"wasmeval report --site failed: {_tail(made.stderr)}")
        return out
    requests_path, answers_path = folder / "requests.jsonl", folder / "answers.jsonl"
    requests_path.write_text("".join(json.dumps(r) + "\n" for r in requests))
    if answers_path.exists():
        answers_path.unlink()
    ctx.log(f"browser: {len(requests)} samples in Chromium ({min(ctx.jobs, 2)} workers)")
    proc = subprocess.run(["node", str(REPO / "tests" / "browser" / "conformance.mjs"), str(site),
                           str(requests_path), str(answers_path), str(min(ctx.jobs, 2))],
                          stdin=subprocess.DEVNULL, timeout=6 * 3600)
    answers = {}
    if answers_path.exists():
        for line in answers_path.read_text().splitlines():
            if line.strip():
                a = json.loads(line)
                answers[a["key"]] = a
    for r in requests:
        a = answers.get(r["key"])
        if a is None:
            out[r["key"]] = door_error(f"no answer (conformance.mjs exited {proc.returncode})")
        elif "error" in a:
            out[r["key"]] = door_error(f"worker: {a['error']}")
        else:
            out[r["key"]] = from_result(a["result"])
    return out
