"""Reward functions for code RL: a completion scored by running it against its task's tests in
the sandbox.

Two shapes, as the trainers document them:

- verl (``custom_reward_function`` in verl 0.5's trainer config; its reward managers call
  ``compute_score(data_source, solution_str, ground_truth, extra_info)``): :func:`compute_score`.
  Put the task (any format ``wasmeval run`` reads, as a dict or JSON text) in the dataset's
  ``reward_model.ground_truth``.
- TRL (``GRPOTrainer(reward_funcs=...)`` in TRL 0.26: called with ``prompts``, ``completions``
  and every dataset column as keyword arguments, returning one float per completion):
  :func:`trl_reward`, which reads the task from the dataset column ``task``.

A score is the fraction of the task's test cases that passed (``passed_only=True``: 1.0 or 0.0).
A completion that is not code, does not build, loops or tries to escape scores 0: the sandbox
decides, and a candidate can never forge a pass (see the project's ARCHITECTURE.md).

Both share one warm :class:`wasmeval.Evaluator` per process (made on first use), with the
limits of ``WASMEVAL_REWARD_FUEL`` / ``WASMEVAL_REWARD_TIMEOUT`` when set.
"""

from __future__ import annotations

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


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Union[str, Mapping[str, Any]],
    extra_info: Optional[Mapping[str, Any]] = None,
    **_: Any,
) -> Union[float, dict]:
    """verl's custom reward function. ``ground_truth`` is the task (dict or JSON text);
    ``solution_str`` the model's answer (its first fenced block, else all of it, is the code).

    Returns the score; with ``extra_info={"wasmeval_details": True}`` a dict with ``score``,
    ``verdict``, ``message`` and ``cases_passed``/``cases`` (verl logs a dict's other keys).
    """
    extra_info = extra_info or {}
    result = evaluator().evaluate_answer(ground_truth, solution_str)
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


def trl_reward(
    completions: Sequence[Union[str, Sequence[Mapping[str, Any]]]],
    task: Optional[Sequence[Union[str, Mapping[str, Any]]]] = None,
    passed_only: bool = False,
    **_: Any,
) -> list:
    """TRL's reward function: one float per completion, evaluated in parallel. The dataset needs
    a ``task`` column holding each prompt's task (dict or JSON text)."""
    if task is None:
        raise ValueError(
            "trl_reward needs the dataset column `task` (each prompt's task, as a dict or JSON)"
        )
    if len(task) != len(completions):
        raise ValueError(f"{len(completions)} completions but {len(task)} tasks")
    results = evaluator().evaluate_many(
        [(t, _text(c)) for t, c in zip(task, completions)], answers=True
    )
    return [score_of(r, passed_only) for r in results]
