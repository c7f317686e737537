"""RewardPool: a batch of chat answers scored by warm evaluators in Ray actors."""

import json

import pytest

import wasmeval
import wasmeval.ray
from conftest import FIXTURES

TASK = json.loads((FIXTURES / "add.json").read_text())

PASSING = "Here it is:\n```python\ndef add(a, b):\n    return a + b\n```\n"
# Right on one of four asserts (a + b == a * b only for 0, 0 and 2, 2).
PARTLY = "```python\ndef add(a, b):\n    return a * b\n```"
WRONG = "```python\ndef add(a, b):\n    return None\n```"
HOSTILE = "```python\nimport sys; sys.exit(0)\n```"
NO_CODE = "I cannot write code."


@pytest.fixture(scope="module")
def pool(cluster):
    pool = wasmeval.ray.RewardPool(2, timeout=20)
    yield pool
    pool.shutdown()


def test_reward_pool_scores_passing_partial_failing_and_hostile_answers(pool):
    answers = [PASSING, PARTLY, WRONG, HOSTILE, NO_CODE, [{"role": "assistant", "content": PASSING}]]
    scores = pool.score([TASK] * len(answers), answers)
    assert scores == [1.0, pytest.approx(0.25), 0.0, 0.0, 0.0, 1.0]
    # A bigger batch keeps its order across the actors.
    batch = [PASSING, HOSTILE, PARTLY] * 7
    assert pool.score([json.dumps(TASK)] * len(batch), batch) == [1.0, 0.0, pytest.approx(0.25)] * 7
    results = pool.evaluate([TASK, TASK], [PASSING, HOSTILE])
    assert [r["verdict"] for r in results] == ["passed", "runtime_error"]


def test_reward_pool_spreads_its_actors_and_checks_its_batch(pool):
    assert len(set(pool.node_ids())) == 2
    with pytest.raises(ValueError, match="2 completions but 1 tasks"):
        pool.score([TASK], [PASSING, PASSING])
    # The evaluator's own error, raised on the driver as itself.
    with pytest.raises(wasmeval.BadInput, match="no tests"):
        pool.score([{"task_id": "x", "prompt": "p"}], [PASSING])
