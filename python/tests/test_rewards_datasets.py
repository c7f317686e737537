"""Reward functions on what RL datasets hold (issue 33): MBPP rows (original and sanitized) and
their bare asserts, APPS's stdin/stdout pairs and `fn_name` call tests, verl rows. Each shape: the
dataset's own reference solution scores 1.0, fenced and plain, and a wrong one 0.0. Real runs
through the built package."""

import gzip
import json
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO
from wasmeval import BadInput, rewards

MBPP_ROWS = [json.loads(line) for line in (FIXTURES / "mbpp-rows.jsonl").read_text().splitlines()]
SANITIZED_ROWS = json.loads((FIXTURES / "sanitized-mbpp-rows.json").read_text())
WRONG = json.loads((FIXTURES / "wrong-answers.json").read_text())
APPS_STDIN = json.loads((FIXTURES / "apps-stdin-row.json").read_text())
APPS_FN_NAME = json.loads((FIXTURES / "apps-fn-name-row.json").read_text())
VERL_FN_NAME = json.loads((FIXTURES / "verl-fn-name-row.json").read_text())

DATASETS = REPO.parent / "shared" / "datasets" / "mbpp"


def fenced(code: str) -> str:
    return f"Here is my solution:\n\n```python\n{code}\n```\n\nIt runs in O(n)."


def score(answer, ground_truth, extra_info=None):
    details = rewards.compute_score("dataset", answer, ground_truth, {**(extra_info or {}), "wasmeval_details": True})
    return details["score"], details


def assert_scores(answer, ground_truth, expected, extra_info=None):
    got, details = score(answer, ground_truth, extra_info)
    assert got == expected, details


# --- MBPP: the row, as a dict or JSON text; the reference plain or fenced -------------------------


@pytest.mark.parametrize("row", MBPP_ROWS + SANITIZED_ROWS, ids=lambda r: str(r["task_id"]))
@pytest.mark.parametrize("as_json", [False, True], ids=["dict", "json"])
@pytest.mark.parametrize("wrap", [lambda c: c, fenced], ids=["plain", "fenced"])
def test_regression_mbpp_reference_scores_one_against_its_row(row, as_json, wrap):
    # Issue 33 item 6: the code was appended to MBPP's English `text` and scored 0.0
    # ("SyntaxError (program.py, line 1)").
    ground_truth = json.dumps(row) if as_json else row
    assert_scores(wrap(row["code"]), ground_truth, 1.0)


@pytest.mark.parametrize("row", MBPP_ROWS + SANITIZED_ROWS, ids=lambda r: str(r["task_id"]))
def test_a_wrong_mbpp_answer_scores_zero(row):
    wrong = {**WRONG["mbpp"], **WRONG["sanitized"]}[str(row["task_id"])]
    assert_scores(fenced(wrong), row, 0.0)
    assert_scores(wrong, json.dumps(row), 0.0)


@pytest.mark.parametrize("row", MBPP_ROWS + SANITIZED_ROWS, ids=lambda r: str(r["task_id"]))
def test_regression_bare_asserts_are_a_ground_truth(row):
    # Issue 33 item 6: a list of asserts was refused ("not a JSON object" / "looks like CSV").
    # The setup and imports the asserts need come beside them, in verl's `extra_info`.
    beside = {k: row[k] for k in ("test_setup_code", "test_imports") if row.get(k)}
    asserts = row["test_list"]
    for ground_truth in (asserts, json.dumps(asserts)):
        assert_scores(fenced(row["code"]), ground_truth, 1.0, beside)
    wrong = {**WRONG["mbpp"], **WRONG["sanitized"]}[str(row["task_id"])]
    assert_scores(wrong, asserts, 0.0, beside)
    # The same as an object holding them.
    assert_scores(row["code"], {"test_list": asserts, **beside}, 1.0)


class Array:
    """What verl hands over for a parquet row's list: a numpy array (`tolist()`, no truth value)."""

    def __init__(self, items):
        self.items = list(items)

    def tolist(self):
        return list(self.items)

    def __len__(self):
        return len(self.items)

    def __bool__(self):
        raise ValueError("The truth value of an array with more than one element is ambiguous")


def test_verl_arrays_are_read_as_lists():
    row = SANITIZED_ROWS[1]
    extra_info = {"test_imports": Array(row["test_imports"]), "index": 3}
    assert_scores(fenced(row["code"]), Array(row["test_list"]), 1.0, extra_info)
    assert_scores(row["code"], {**row, "test_list": Array(row["test_list"])}, 1.0)


def test_trl_reads_the_ground_truth_from_the_rows_own_columns():
    rows = MBPP_ROWS + SANITIZED_ROWS
    columns = {key: [row.get(key) for row in rows] for key in {k for row in rows for k in row}}
    wrong = {**WRONG["mbpp"], **WRONG["sanitized"]}
    completions = [fenced(row["code"]) for row in rows] + [wrong[str(row["task_id"])] for row in rows]
    doubled = {key: values * 2 for key, values in columns.items()}
    scores = rewards.trl_reward(
        prompts=["p"] * len(completions), completions=completions, completion_ids=None, **doubled
    )
    assert scores == [1.0] * len(rows) + [0.0] * len(rows)
    # A `task` column of bare asserts, with the setup columns beside it.
    scores = rewards.trl_reward(
        completions=[row["code"] for row in MBPP_ROWS],
        task=[row["test_list"] for row in MBPP_ROWS],
        test_setup_code=[row["test_setup_code"] for row in MBPP_ROWS],
    )
    assert scores == [1.0] * len(MBPP_ROWS)


# --- APPS and verl: stdin/stdout pairs and `fn_name` call tests ---------------------------------


def apps_ground_truths(row):
    pairs = row["input_output"]
    return {"row": row, "row as JSON": json.dumps(row), "input_output": json.loads(pairs), "input_output as JSON": pairs}


@pytest.mark.parametrize("row", [APPS_STDIN, APPS_FN_NAME], ids=["stdin", "fn_name"])
def test_apps_references_score_one_and_a_wrong_answer_zero(row):
    references = json.loads(row["solutions"])
    for name, ground_truth in apps_ground_truths(row).items():
        for reference in references:
            for answer in (reference, fenced(reference)):
                got, details = score(answer, ground_truth)
                assert got == 1.0, (name, answer, details)
    wrong = {
        "own-stdin-sum": "t = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(a - b)\n",
        "own-two-sum": "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 0]\n",
    }[row["problem_id"]]
    for name, ground_truth in apps_ground_truths(row).items():
        got, details = score(fenced(wrong), ground_truth)
        assert got == 0.0, (name, details)


def test_fn_name_calls_a_top_level_function_and_reads_prime_and_verl_rows():
    reference = VERL_FN_NAME["extra_info"]["reference"]
    ground_truth = VERL_FN_NAME["reward_model"]["ground_truth"]
    # PRIME's and verl's shape: one JSON value per line, outputs as JSON text.
    assert_scores(reference, ground_truth, 1.0)
    assert_scores(fenced(reference), VERL_FN_NAME, 1.0)
    assert_scores("def digit_sum(n):\n    return n + 1\n", ground_truth, 0.0)
    # APPS's shape of the same tests: argument lists, outputs wrapped in a list; a returned
    # `x` or `[x]` both pass, as in APPS's checker, and a tuple is a list.
    apps = {"fn_name": "digit_sum", "inputs": [[123], [0], [99999]], "outputs": [[6], [0], [45]]}
    assert_scores(reference, apps, 1.0)
    assert_scores("def digit_sum(n):\n    return [sum(map(int, str(n)))]\n", apps, 1.0)
    pair = {"fn_name": "pair", "inputs": [[1], [2]], "outputs": [[[1, 2]], [2, 4]]}
    assert_scores("def pair(n):\n    return (n, 2 * n)\n", pair, 1.0)
    assert_scores("def pair(n):\n    return (n, n)\n", pair, 0.0)
    # Neither the function nor a Solution class: a runtime error that says so.
    _, details = score("def other(n):\n    return n\n", apps)
    assert details["verdict"] == "runtime_error"
    assert "no function `digit_sum`" in details["message"], details


def test_trl_reads_apps_rows_from_their_columns():
    rows = [APPS_STDIN, APPS_FN_NAME]
    columns = {key: [row[key] for row in rows] for key in rows[0]}
    completions = [fenced(json.loads(row["solutions"])[0]) for row in rows]
    assert rewards.trl_reward(completions=completions, **columns) == [1.0, 1.0]


def test_a_humaneval_completion_is_still_appended_to_its_prompt():
    task = json.loads((FIXTURES / "add.json").read_text())
    assert_scores("    return a + b\n", task, 1.0)
    assert_scores("```python\n    return a + b\n```", json.dumps(task), 1.0)
    assert_scores("```python\ndef add(a, b):\n    return a + b\n```", task, 1.0)


@pytest.mark.parametrize(
    "ground_truth",
    ["assert f(1) == 2", "task_id,completion\nH/0,x", 42, [], {"question": "q"}, [1, 2]],
    ids=["assert-text", "csv", "number", "empty-list", "no-tests", "numbers"],
)
def test_an_unusable_ground_truth_names_the_accepted_shapes(ground_truth):
    with pytest.raises(BadInput) as error:
        rewards.compute_score("dataset", "print(1)", ground_truth)
    message = str(error.value)
    assert message.startswith("ground truth: "), message
    for shape in ("a list of assert strings (MBPP's `test_list`)", '{"inputs": [...], "outputs": [...]}', "`fn_name`"):
        assert shape in message, message


# --- The datasets themselves, when ../shared/datasets is beside the project ----------------------

# The first rows of each file: every reference scores 1.0 (the whole sets are measured by
# `python/tests/score_mbpp_references.py`; see docs/python.md).
FIRST_ROWS = 12


def _dataset_rows(name):
    path = DATASETS / name
    if not path.is_file():
        pytest.skip(f"{path} is absent: the public MBPP data lives in ../shared/datasets (its README)")
    with gzip.open(path, "rt", encoding="utf-8") as text:
        if name.endswith(".jsonl.gz"):
            return [json.loads(line) for line in text if line.strip()]
        return json.load(text)


@pytest.mark.parametrize("name", ["mbpp.jsonl.gz", "sanitized-mbpp.json.gz"])
def test_mbpp_dataset_references_score_one(name):
    rows = _dataset_rows(name)[:FIRST_ROWS]
    scores = rewards.trl_reward(
        completions=[fenced(row["code"]) for row in rows] + [row["code"] for row in rows],
        task=rows + [json.dumps(row) for row in rows],
    )
    failed = [(rows[i % len(rows)]["task_id"], s) for i, s in enumerate(scores) if s != 1.0]
    assert failed == []
    # A wrong answer, the same for every task, scores 0 on each.
    assert rewards.trl_reward(completions=["def f():\n    return None\n"] * len(rows), task=rows) == [0.0] * len(rows)
