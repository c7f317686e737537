"""Conformance: the reference solutions of every public dataset in ../shared/datasets, through
every front door of wasmeval, at the default limits. Every reference must pass, or its failure is
named: a dataset defect (it fails natively too) or a wasmeval bug; and every door must give each
sample the verdict `wasmeval run` gives it. See bench/README.md, "conformance".

    python3 bench/conformance.py                    # everything (about an hour on 2 cores)
    python3 bench/conformance.py --quick            # a few tasks per file: a few minutes
    python3 bench/conformance.py --datasets mbpp --doors api submit --jobs 2

Exit codes: 0 every reference passes (or fails as a named dataset defect) and the doors agree;
1 a reference fails for another reason, or doors disagree; 2 bad usage or a door asked for by
--doors that cannot run here; 3 the datasets folder is absent.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import datasets as ds
from . import doors as dr
from . import report as rp
from .native import Native

EXIT_FAILED, EXIT_USAGE, EXIT_NO_DATASETS = 1, 2, 3

#: --quick: tasks per task file (picked by a stable hash), plus the tasks issue 33 names.
QUICK_PER_GROUP = 3
QUICK_EXTRA = {
    "mbpp": {"40", "124", "123"},  # a Counter, a complex number, a slow reference
    "mbpp/sanitized": {"88"},  # a Counter
}


def log(message: str) -> None:
    print(f"[conformance] {message}", file=sys.stderr, flush=True)


def git(*args) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ds.REPO, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench/conformance.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Exit codes: 0 conformant, 1 failures or disagreements, "
                                       "2 usage, 3 ../shared/datasets absent.")
    p.add_argument("--quick", action="store_true",
                   help=f"{QUICK_PER_GROUP} tasks per task file (stable hash) and the tasks issue 33 names")
    p.add_argument("--datasets", nargs="+", choices=ds.DATASET_NAMES, default=[], metavar="NAME",
                   help=f"only these ({', '.join(ds.DATASET_NAMES)})")
    p.add_argument("--languages", nargs="+", default=[], metavar="LANG",
                   help="only these wasmeval languages (python, cpp, javascript, typescript, rust, go, lua, ruby)")
    p.add_argument("--doors", nargs="+", choices=dr.DOORS, default=[], metavar="DOOR",
                   help=f"only these doors ({', '.join(dr.DOORS)}); `run` always runs, as the baseline")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers per door (default: cores)")
    p.add_argument("--no-native", action="store_true", help="skip the native check (no evidence for failures)")
    p.add_argument("--no-build", action="store_true", help="do not run cargo build --release -p wasmeval first")
    p.add_argument("--wasmeval", type=Path, help="this binary instead of target/release/wasmeval (implies --no-build)")
    p.add_argument("--work", type=Path, help="work folder (default: target/conformance, or target/conformance-quick)")
    return p.parse_args(argv)


def target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR") or ds.REPO / "target").resolve()


def python_prerequisite() -> tuple:
    python = target_dir() / "python-venv" / "bin" / "python"
    if not python.exists():
        return None, f"no {python} (scripts/build-python builds the package into it)"
    probe = subprocess.run([str(python), "-c", "import wasmeval, os; print(wasmeval.__file__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return None, f"`import wasmeval` fails in {python}: {probe.stderr.strip().splitlines()[-1:]}"
    installed = Path(probe.stdout.strip()).parent
    when = datetime.datetime.fromtimestamp(installed.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    return python, f"{python} (package installed {when})"


def browser_prerequisite() -> tuple:
    assets = Path(os.environ.get("WASMEVAL_SITE_ASSETS") or ds.REPO / "web" / "dist")
    if not (assets / "sandbox" / "worker.js").exists():
        return None, f"no built site with the sandbox worker in {assets} (scripts/build-site)"
    if not shutil.which("node"):
        return None, "no node"
    if not (ds.REPO / "tests" / "browser" / "node_modules" / "playwright-core").exists():
        return None, "no playwright-core (npm ci in tests/browser)"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return None, f"no Chromium at {chromium}"
    when = datetime.datetime.fromtimestamp((assets / "sandbox" / "worker.js").stat().st_mtime)
    return assets, f"{assets} (built {when:%Y-%m-%d %H:%M})"


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    if not ds.DATASETS.is_dir():
        print(f"bench/conformance.py: the datasets folder {ds.DATASETS} is absent: it must sit beside the "
              "repository as ../shared/datasets (see its README); nothing was run", file=sys.stderr)
        return EXIT_NO_DATASETS
    if args.jobs < 1:
        print("bench/conformance.py: --jobs must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    work = (args.work or target_dir() / ("conformance-quick" if args.quick else "conformance")).resolve()
    work.mkdir(parents=True, exist_ok=True)

    # ---- the binary (a private copy: a rebuild during the run must not change it)
    binary = (args.wasmeval or target_dir() / "release" / "wasmeval").resolve()
    if not args.no_build and args.wasmeval is None:
        log("cargo build --release -p wasmeval")
        if subprocess.run(["cargo", "build", "--release", "-p", "wasmeval"], cwd=ds.REPO).returncode != 0:
            print("bench/conformance.py: cargo build failed", file=sys.stderr)
            return EXIT_FAILED
    if not binary.exists():
        print(f"bench/conformance.py: no wasmeval binary at {binary} (cargo build --release -p wasmeval)",
              file=sys.stderr)
        return EXIT_USAGE
    (work / "bin").mkdir(exist_ok=True)
    shutil.copy2(binary, work / "bin" / "wasmeval")
    commit = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    built = datetime.datetime.fromtimestamp(binary.stat().st_mtime)

    # ---- the doors this machine can open
    wanted = set(args.doors) | {"run"} if args.doors else set(dr.DOORS)
    skipped = {}
    venv_python, python_about = python_prerequisite()
    site_assets, browser_about = browser_prerequisite()
    for door, ok, why in [("evaluate", venv_python, python_about), ("compute_score", venv_python, python_about),
                          ("trl_reward", venv_python, python_about), ("browser", site_assets, browser_about)]:
        if door in wanted and not ok:
            skipped[door] = why
    if args.doors and skipped:
        for door, why in skipped.items():
            print(f"bench/conformance.py: --doors {door} cannot run here: {why}", file=sys.stderr)
        return EXIT_USAGE
    doors = [d for d in dr.DOORS if d in wanted and d not in skipped]

    # ---- the references
    groups = ds.load(args.datasets, args.languages)
    native = None if args.no_native else Native(work, log)
    runnable = [g for g in groups if not g.not_run]
    picked = {}
    if args.quick:
        for g in runnable:
            picked[g.name] = ds.quick_pick(g, QUICK_PER_GROUP, QUICK_EXTRA)
    if native:
        checks = [c.proxy or c.program for g in runnable for r in g.refs
                  if not picked or r.key in picked[g.name] for c in r.candidates]
        if checks:
            log(f"native: checking {len(checks)} MultiPL-E candidate solutions")
            with ThreadPoolExecutor(args.jobs) as pool:
                list(pool.map(native.check, checks))
            native.save()
    for g in runnable:
        if g.dataset == "multipl-e" and g.language != "python":
            ds.select_candidates(g, native or _NoNative(), picked.get(g.name))
        elif picked:
            g.refs = [r for r in g.refs if r.key in picked[g.name]]
    total = sum(len(g.refs) for g in runnable)
    log(f"{total} references in {len(runnable)} task files; doors: {', '.join(doors)}"
        + (f"; not run: {', '.join(skipped)}" if skipped else ""))

    # ---- the doors
    ctx = dr.Context(work / "bin" / "wasmeval", work, args.jobs, log)
    outcomes: dict = {d: {} for d in doors}
    timings = {}

    def timed(name, call):
        t = time.monotonic()
        value = call()
        timings[name] = round(time.monotonic() - t, 1)
        return value

    outcomes["run"] = timed("run", lambda: dr.run_door(ctx, runnable))
    for g in runnable:
        if g.dataset == "psb2":
            ds.fill_psb2_cases(g, ctx.tasks.get(g.name, {}))
        if not args.no_native:
            g.notes.extend(ds.evalplus_left_out(g, work))
    if "api" in doors or "submit" in doors:
        api, sub = timed("api+submit", lambda: dr.api_door(ctx, runnable, "submit" in doors))
        if "api" in doors:
            outcomes["api"] = api
        if "submit" in doors:
            outcomes["submit"] = sub
    if "run_code" in doors:
        outcomes["run_code"] = timed("run_code", lambda: dr.run_code_door(ctx, runnable))
    if {"evaluate", "compute_score", "trl_reward"} & set(doors):
        e, s, t = timed("python", lambda: dr.python_door(ctx, runnable, venv_python))
        for name, value in [("evaluate", e), ("compute_score", s), ("trl_reward", t)]:
            if name in doors:
                outcomes[name] = value
    if "browser" in doors:
        outcomes["browser"] = timed("browser", lambda: dr.browser_door(ctx, runnable, site_assets))

    # ---- the native evidence of every reference
    evidence = {}
    if native:
        refs = [r for g in runnable for r in g.refs if r.program]
        log(f"native: {len(refs)} reference programs")
        with ThreadPoolExecutor(args.jobs) as pool:
            for r, result in zip(refs, pool.map(lambda r: native.check(r.program), refs)):
                evidence[r.key] = result
            # A reference some door fails but that passed natively once: run it natively again,
            # so that one that passes by chance is not taken for evidence of a wasmeval bug.
            doubtful = [r for r in refs if evidence[r.key].get("passed") is True
                        and any(not outcomes[d][r.key]["passed"] for d in doors if r.key in outcomes[d])]
            for r, result in zip(doubtful, pool.map(lambda r: native.confirm(r.program), doubtful)):
                evidence[r.key] = result
        native.save()

    # ---- compare and classify
    per_ref = {}
    disagreements, failures, false_passes = [], [], []
    for g in runnable:
        for r in g.refs:
            mine = {d: outcomes[d][r.key] for d in doors if r.key in outcomes[d]}
            per_ref[r.key] = mine
            base = mine.get("run")
            if base is not None:
                for d, o in mine.items():
                    if d == "run":
                        continue
                    why = rp.differs(d, base, o)
                    if why:
                        disagreements.append({"key": r.key, "door": d, "why": why, "run": rp.short_verdict(base),
                                              "other": rp.short_verdict(o), "run_message": base["message"],
                                              "message": o["message"]})
            failure = rp.classify(r.key, mine, evidence.get(r.key) if native else None)
            if failure:
                failure["source"] = r.source
                failures.append(failure)
            n = evidence.get(r.key)
            if n and n.get("passed") is False and mine and all(o["passed"] for o in mine.values()):
                false_passes.append({"key": r.key, "evidence": n["message"], "tool": n.get("tool"),
                                     "source": r.source})
    rejected_passes = [
        {"key": k, "outcome": o} for k, o in sorted(ctx.rejected_outcomes.items()) if o["passed"]
    ]

    # ---- print
    elapsed = time.monotonic() - started
    lines = []
    p = lines.append
    p("=" * 100)
    p(f"wasmeval conformance{' --quick' if args.quick else ''}: {datetime.date.today()}, commit {commit}"
      f"{' (with uncommitted changes)' if dirty else ''}, binary built {built:%Y-%m-%d %H:%M}, jobs {args.jobs}, "
      f"{elapsed / 60:.1f} min")
    p(f"command: python3 bench/conformance.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip())
    p(f"doors: {', '.join(doors)}; seconds per door: "
      + ", ".join(f"{k} {v}" for k, v in timings.items()))
    if "evaluate" in doors:
        p(f"python package: {python_about}")
    if "browser" in doors:
        p(f"browser site assets: {browser_about}")
    for door, why in skipped.items():
        p(f"door not run: {door}: {why}")
    if native:
        p("native toolchains: " + "; ".join(f"{k}: {v}" for k, v in native.describe().items()))
    p("")
    headers = ["task file (language)", "tasks", "refs"] + doors + (["native"] if native else [])
    rows = []
    for g in groups:
        label = f"{g.name}"
        if g.not_run:
            rows.append([label, g.tasks, 0] + ["not run"] * len(doors) + (["-"] if native else []))
            continue
        row = [label, g.tasks, len(g.refs)]
        for d in doors:
            got = [outcomes[d].get(r.key) for r in g.refs]
            got = [o for o in got if o is not None]
            row.append(f"{sum(o['passed'] for o in got)}/{len(got)}" if got else "n/a")
        if native:
            checked = [evidence.get(r.key) for r in g.refs]
            checked = [e for e in checked if e and e.get("passed") is not None]
            row.append(f"{sum(e['passed'] for e in checked)}/{len(checked)}" if checked else "n/a")
        rows.append(row)
    p("references passed / run, per task file and door (native: passed / checked natively)")
    lines.extend("  " + line for line in rp.table(headers, rows))
    p("  n/a: the door does not take this file (run_code: tests that are a test module, `cargo test` or "
      "`go test`; browser: Python and JavaScript only; submit: serve reads PSB2 in Python only)")
    p("")
    for g in groups:
        if g.not_run:
            p(f"not run: {g.name} ({g.tasks} tasks): {g.not_run}")
    for g in runnable:
        notes = list(g.notes)
        if g.without_solution and not args.quick:
            notes.append(f"{len(g.without_solution)} of {g.tasks} tasks have no reference "
                         f"({len(g.rejected)} with candidates that fail natively)")
        judged = ctx.judged_by.get(g.name) or {}
        if judged:
            total_cases = sum(judged.values())
            notes.append("cases judged by " + ", ".join(f"{k} {100 * v / total_cases:.0f}%"
                                                        for k, v in sorted(judged.items())))
        sources = Counter(r.source.split(";")[0].split(" (")[0] for r in g.refs)
        if g.dataset == "multipl-e" and sources:
            notes.append("references from " + ", ".join(f"{k}: {v}" for k, v in sources.most_common()))
        for note in notes:
            p(f"{g.name}: {note}")
    p("")
    p(f"DISAGREEMENTS between doors ({len(disagreements)}; each door against `run`; every id in "
      f"{work / 'report.json'}):")
    for (door, run_v, other_v, why, pat), items in rp.cluster(
            disagreements, lambda d: (d["door"], d["run"], d["other"], d["why"], rp.pattern(d["message"] or d["run_message"]))):
        p(f"  {len(items):>4} x {door}: run {run_v}, {door} {other_v} ({why}): {items[0]['message'] or items[0]['run_message']}")
        p(f"         {rp.ids([d['key'] for d in items])}")
    p("")
    p(f"FAILURES: {len(failures)} references fail in at least one door")
    for (group, kind, failing, pat), items in rp.cluster(
            failures, lambda f: (f["key"].split("|")[0], f["kind"], ",".join(f"{d}={v}" for d, v in f["verdicts"].items()),
                                 f["pattern"])):
        p(f"  {len(items):>4} x {group}: {kind}: {failing}")
        p(f"         message: {items[0]['message']}")
        p(f"         evidence: {items[0]['evidence']}")
        p(f"         {rp.ids([f['key'] for f in items])}")
    p("")
    p("FAILURES PER DOOR (what each door fails, and whose fault):")
    for door in doors:
        mine = [f for f in failures if door in f["failing"]]
        p(f"  {door}: {len(mine)}")
        for (kind, verdict, pat), items in rp.cluster(
                mine, lambda f: (f["kind"], f["verdicts"][door], rp.pattern(per_ref[f["key"]][door]["message"]))):
            example = per_ref[items[0]["key"]][door]["message"]
            p(f"    {len(items):>4} {kind}, {verdict}: {example[:150]}  [{rp.ids([f['key'] for f in items], 4)}]")
    if false_passes:
        p("")
        p(f"PASSED BY EVERY DOOR BUT FAILS NATIVELY ({len(false_passes)}): wasmeval accepts what the language rejects")
        for f in false_passes:
            p(f"  {f['key']}: {f['evidence']} ({f['tool']})")
    flaky = sorted((k, e) for k, e in evidence.items() if e and e.get("flaky"))
    if flaky:
        p("")
        p(f"FLAKY NATIVELY ({len(flaky)}): the reference passes or fails by chance, a dataset defect "
          "(wasmeval's runs are deterministic: its verdict is one of the outcomes)")
        for k, e in flaky:
            p(f"  {k}: {e['flaky']} ({e.get('tool')})")
    if rejected_passes:
        p("")
        p(f"MULTIPL-E CANDIDATES THAT FAIL NATIVELY BUT PASS `run` ({len(rejected_passes)}):")
        for f in rejected_passes:
            group, task_id, source = f["key"].split("|")
            g = next(g for g in runnable if g.name == group)
            message = next((m for c, m in g.rejected.get(task_id, []) if c.source == source), "")
            p(f"  {group} {task_id} ({source}): natively: {message}")
    named = [f for f in failures if f["kind"] != "dataset defect"]
    status = EXIT_FAILED if named or disagreements or false_passes or rejected_passes else 0
    p("")
    p(f"RESULT: {total} references, {len(failures)} fail somewhere ({len(failures) - len(named)} named dataset "
      f"defects), {len(disagreements)} disagreements, {len(false_passes) + len(rejected_passes)} programs passed "
      f"that fail natively -> exit {status}")
    p("=" * 100)
    print("\n".join(lines))
    report = {
        "date": str(datetime.date.today()), "commit": commit, "dirty": dirty, "quick": args.quick,
        "jobs": args.jobs, "doors": doors, "skipped_doors": skipped, "seconds": timings,
        "native_toolchains": native.describe() if native else None,
        "table": {"headers": headers, "rows": rows},
        "disagreements": disagreements, "failures": failures, "false_passes": false_passes,
        "rejected_passes": rejected_passes, "flaky": dict(flaky),
        "references": {k: {"outcomes": v, "native": evidence.get(k)} for k, v in per_ref.items()},
        "exit": status,
    }
    (work / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    log(f"report: {work / 'report.json'}")
    return status


class _NoNative:
    """--no-native: no evidence for any candidate."""

    def check(self, _program) -> dict:
        return {"passed": None, "message": "the native check was skipped (--no-native)"}
