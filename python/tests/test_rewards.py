"""Reward functions on passing, failing and hostile answers."""

import json

import pytest

from conftest import FIXTURES
from wasmeval import rewards

TASK = json.loads((FIXTURES / "add.json").read_text())


def test_verl_compute_score_scores_the_cases_that_pass():
    right = "Here it is:\n```python\ndef add(a, b):\n    return a + b\n```\n"
    assert rewards.compute_score("humaneval", right, TASK) == 1.0
    # Wrong on three of four asserts: a + b == a * b only for 0, 0 (and 2, 2).
    partly = "```python\ndef add(a, b):\n    return a * b\n```"
    assert rewards.compute_score("humaneval", partly, json.dumps(TASK)) == pytest.approx(0.25)
    assert rewards.compute_score("humaneval", partly, TASK, {"wasmeval_passed_only": True}) == 0.0
    details = rewards.compute_score("humaneval", partly, TASK, {"wasmeval_details": True})
    assert details["verdict"] == "wrong_answer"
    assert (details["cases_passed"], details["cases"]) == (1, 4)
    # A completion of the prompt (no definition of the entry point) is appended to it.
    assert rewards.compute_score("humaneval", "    return a + b\n", TASK) == 1.0


@pytest.mark.parametrize(
    "hostile",
    [
        "```python\nimport sys\nsys.exit(0)\n```",
        "```python\nimport os\nos._exit(0)\n```",
        "```python\ndef add(a, b):\n    while True:\n        pass\n```",
        "```python\nraise SystemExit(0)\n```",
        "```python\nimport builtins\nbuiltins.__import__ = None\n```",
        "I cannot write code.",
    ],
)
def test_hostile_or_empty_answers_score_zero(hostile):
    assert rewards.compute_score("humaneval", hostile, TASK) == 0.0


def test_trl_reward_scores_plain_and_conversational_completions():
    completions = [
        "```python\ndef add(a, b):\n    return a + b\n```",
        [{"role": "assistant", "content": "```python\ndef add(a, b):\n    return b + a\n```"}],
        "```python\nimport sys; sys.exit(0)\n```",
    ]
    scores = rewards.trl_reward(
        prompts=["p"] * 3, completions=completions, task=[TASK] * 3, completion_ids=None
    )
    assert scores == [1.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="column `task`"):
        rewards.trl_reward(completions=completions)
