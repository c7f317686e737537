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


# A fresh process: the shared evaluator and sandbox are made by whichever thread comes first.
_THREADS_SCRIPT = """
import json, sys, threading
from wasmeval import rewards
task = json.loads(sys.argv[1])
right = "```python\\ndef add(a, b):\\n    return a + b\\n```"
scores, errors = [], []
def score():
    try:
        scores.append(rewards.compute_score("humaneval", right, task))
    except Exception as error:  # noqa: BLE001 - every failure is reported
        errors.append(repr(error))
threads = [threading.Thread(target=score) for _ in range(32)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"scores": scores, "errors": errors}))
"""


def test_regression_32_threads_in_a_fresh_process_all_score():
    # Issue 32: 16 threads raised "maximum concurrent limit of 10", and later calls failed.
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", _THREADS_SCRIPT, json.dumps(TASK)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout.strip().splitlines()[-1])
    assert outcome["errors"] == []
    assert outcome["scores"] == [1.0] * 32


@pytest.mark.parametrize(
    "answer",
    [
        "```python\ndef add(a, b):\n    return '\ud800'\n```",
        "```python\ndef add(a, b):\n    return a\x00 + b\n```",
        "\ud800\udfff\ud800",
    ],
    ids=["lone-surrogate", "nul", "only-surrogates"],
)
def test_regression_any_str_answer_scores_zero_instead_of_raising(answer):
    # Issue 32: a lone surrogate raised UnicodeEncodeError.
    assert rewards.compute_score("humaneval", answer, TASK) == 0.0


def test_a_ten_megabyte_answer_is_judged_like_any_other():
    answer = "```python\n# " + "x" * (10 << 20) + "\ndef add(a, b):\n    return a + b\n```"
    assert rewards.compute_score("humaneval", answer, TASK) == 1.0
