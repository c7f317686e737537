"""The Python API against the command line on the demo, and its errors."""

import json
import logging

import pytest

import wasmeval
from conftest import DEMO_FUEL, FIXTURES, REPO, run_cli

DEMO_TASKS = REPO / "demo/tasks.jsonl"
DEMO_SAMPLES = REPO / "demo/samples.jsonl"


def _verdicts(results):
    return [(r["index"], r["task_id"], r["verdict"], [c["verdict"] for c in r["cases"]]) for r in results]


def test_evaluate_gives_the_command_lines_verdicts(demo_run):
    results = wasmeval.evaluate(DEMO_TASKS, DEMO_SAMPLES, jobs=2, fuel=DEMO_FUEL)
    with open(demo_run / "results.jsonl") as lines:
        expected = sorted((json.loads(line) for line in lines), key=lambda r: r["index"])
    assert len(results) == 196
    assert _verdicts(results) == _verdicts(expected)
    assert [r["fuel"] for r in results] == [r["fuel"] for r in expected]


def test_evaluate_prints_nothing_and_a_missing_file_is_bad_input(capfd, tmp_path):
    # Issue 40: evaluate printed the command line's summary, naming a temporary folder it had
    # deleted, and a missing file raised WasmevalError.
    task = json.loads((FIXTURES / "add.json").read_text())
    results = wasmeval.evaluate([task], [{"task_id": "py/add", "completion": "    return a + b\n"}])
    assert [r["verdict"] for r in results] == ["passed"]
    out, err = capfd.readouterr()
    # Only a one-time notice may reach stderr (the interpreter prepared on a fresh home).
    assert out == "", out
    assert all(line.startswith("wasmeval: preparing") for line in err.splitlines()), err
    with pytest.raises(wasmeval.BadInput, match="cannot open .*missing.jsonl"):
        wasmeval.evaluate(tmp_path / "missing.jsonl", DEMO_SAMPLES)
    wasmeval.evaluate([task], [{"task_id": "py/add", "completion": "    return a + b\n"}], verbose=True)
    out, _ = capfd.readouterr()
    assert "1 samples over 1 tasks" in out, out


def test_progress_goes_to_the_wasmeval_logger_and_nowhere_by_default(caplog, capfd):
    # Issue 40: quiet by default, a logger for progress.
    task = json.loads((FIXTURES / "add.json").read_text())
    sample = {"task_id": "py/add", "completion": "    return a + b\n"}
    with caplog.at_level(logging.INFO, logger="wasmeval"):
        wasmeval.evaluate([task], [sample])
    lines = [r.getMessage() for r in caplog.records if r.name == "wasmeval" and r.levelno == logging.INFO]
    assert lines and lines[0] == "1 task in tasks (dicts), read as human-eval", lines
    assert any(line.startswith("budget per sample: ") for line in lines), lines
    assert "1 of 1 sample (100.0%)" in lines[-1] and "done in" in lines[-1], lines
    out, err = capfd.readouterr()
    assert out == "" and "1 of 1 sample" not in err, (out, err)
    # The logger at its default level (WARNING) hears nothing, and nothing is printed.
    caplog.clear()
    wasmeval.evaluate([task], [sample])
    assert [r for r in caplog.records if r.name == "wasmeval"] == []
    out, err = capfd.readouterr()
    assert out == "" and "1 of 1 sample" not in err, (out, err)


def test_an_evaluators_missing_languages_are_the_loggers_warnings_not_prints(caplog, capfd):
    with caplog.at_level(logging.WARNING, logger="wasmeval"):
        languages = wasmeval.Evaluator().languages
    warned = [r.getMessage() for r in caplog.records if r.name == "wasmeval" and r.levelno == logging.WARNING]
    # The package's home has the Python and JavaScript guests only (conftest.py).
    for language, name in [("ruby", "Ruby"), ("lua", "Lua")]:
        if language not in languages:
            assert any(m.startswith(f"no {name}: no {name} runtime") for m in warned), warned
    out, err = capfd.readouterr()
    assert out == "" and "wasmeval: no " not in err, (out, err)


def test_each_error_is_its_documented_exception_with_a_message_saying_what_to_fix(tmp_path):
    task = json.loads((FIXTURES / "add.json").read_text())
    sample = {"task_id": "py/add", "completion": "    return a + b\n"}
    with pytest.raises(wasmeval.BadInput, match="samples.jsonl: expected dicts or a path, found int"):
        wasmeval.evaluate([task], [1])
    with pytest.raises(wasmeval.BadInput, match="result dicts need their tasks"):
        wasmeval.report([{"task_id": "py/add"}])
    with pytest.raises(wasmeval.BadInput, match="not a run's output folder"):
        wasmeval.report(tmp_path)
    # A value the command line refuses, in its words.
    with pytest.raises(wasmeval.BadInput, match="`3/2`: K counts from 0 to N-1"):
        wasmeval.run([task], [sample], tmp_path / "shard", shard=(3, 2))
    with pytest.raises(wasmeval.BadInput, match="timeout: 0 is not a positive number of seconds"):
        wasmeval.Evaluator(timeout=0)
    evaluator = wasmeval.Evaluator()
    with pytest.raises(wasmeval.BadInput, match="^task: "):
        evaluator.evaluate("{not json", sample)
    with pytest.raises(wasmeval.BadInput, match="^sample: "):
        evaluator.evaluate(task, "{not json")
    # Dicts are named as given, not by the temporary files that carry them.
    with pytest.raises(wasmeval.BadInput, match=r"^samples\[1\]: ") as error:
        wasmeval.evaluate([task], [sample, {"task_id": "py/add"}])
    assert "wasmeval-" not in str(error.value), error.value
    with pytest.raises(wasmeval.BadInput, match=r"^results\[0\]: missing field `format_version`"):
        wasmeval.report([{"task_id": "py/add"}], [task])
    with pytest.raises(wasmeval.BadInput, match="--where: unknown query field `colour`; fields are: "):
        wasmeval.report(REPO / "tests/fixtures/report", where="colour=red")
    not_gzip = tmp_path / "tasks.jsonl.gz"
    not_gzip.write_text(json.dumps(task) + "\n")
    with pytest.raises(wasmeval.BadInput, match="tasks.jsonl.gz: not a whole gzip file"):
        wasmeval.evaluate(not_gzip, [sample])
    (tmp_path / "file").write_text("")
    with pytest.raises(wasmeval.BadInput, match="is a file: give a folder"):
        wasmeval.run([task], [sample], tmp_path / "file")
    # Not the input's fault but the system's: WasmevalError, with the system's reason.
    with pytest.raises(wasmeval.WasmevalError, match="cannot create .*file/out: Not a directory") as error:
        wasmeval.run([task], [sample], tmp_path / "file" / "out")
    assert not isinstance(error.value, wasmeval.BadInput)


def test_evaluate_takes_dicts():
    task = json.loads((FIXTURES / "add.json").read_text())
    samples = [
        {"task_id": "py/add", "completion": "    return a + b\n"},
        {"task_id": "py/add", "completion": "    return a - b\n"},
    ]
    results = wasmeval.evaluate([task], samples, fuel=2_000_000_000, timeout=20)
    assert [r["verdict"] for r in results] == ["passed", "wrong_answer"]


def test_shards_merged_equal_one_run(tmp_path, demo_run):
    parts = []
    for k in range(3):
        part = tmp_path / f"part{k}"
        wasmeval.run(DEMO_TASKS, DEMO_SAMPLES, part, jobs=2, shard=(k, 3), fuel=DEMO_FUEL)
        parts.append(part)
    assert 0 < len(wasmeval.read_results(parts[0])) < 196
    wasmeval.merge(tmp_path / "merged", parts)
    merged = wasmeval.read_results(tmp_path / "merged")
    with open(demo_run / "results.jsonl") as lines:
        expected = sorted((json.loads(line) for line in lines), key=lambda r: r["index"])
    assert _verdicts(merged) == _verdicts(expected)
    with pytest.raises(wasmeval.BadInput, match="part"):
        wasmeval.merge(tmp_path / "incomplete", parts[:2])


def test_report_is_the_command_lines(cli, demo_run):
    expected = json.loads(run_cli(cli, "report", str(demo_run), "--by", "model", "--format", "json", "--ci"))
    assert wasmeval.report(demo_run, by=["model"], ci=True) == expected
    # From result dicts and their tasks, as evaluate returns them.
    with open(demo_run / "results.jsonl") as lines:
        results = [json.loads(line) for line in lines]
    from_dicts = wasmeval.report(results, DEMO_TASKS, by=["model"], where="topic=strings")
    filtered = json.loads(run_cli(cli, "report", str(demo_run), "--by", "model", "--where", "topic=strings", "--format", "json"))
    assert from_dicts["groups"] == filtered["groups"]
    assert from_dicts["overall"] == filtered["overall"]


def test_run_code_runs_programs_within_limits():
    sandbox = wasmeval.Evaluator(fuel=500_000_000, timeout=20)
    assert {"python", "javascript"} <= set(sandbox.languages)
    python = sandbox.run_code("print(input()[::-1])", "python", "stressed\n")
    assert (python["status"], python["exit_code"], python["stdout"]) == ("finished", 0, "desserts\n")
    js = sandbox.run_code("console.log(6 * 7)", "javascript")
    assert js["stdout"] == "42\n"
    endless = sandbox.run_code("while True:\n    pass\n", "python")
    assert endless["status"] == "timeout"
    assert wasmeval.run_code("import sys; sys.exit(3)")["exit_code"] == 3


@pytest.mark.parametrize("open_close", [("[", "]"), ("(", ")"), ("{a:", "}"), ("Array<", ">")])
def test_regression_deeply_nested_typescript_is_a_compile_error_not_a_dead_process(open_close):
    # Issue 32: oxc's parser overflowed the Python process's stack (a segfault).
    open_, close = open_close
    if open_ == "Array<":
        code = "let x: " + open_ * 100_000 + "number" + close * 100_000 + " = 1;\nconsole.log(x);\n"
    else:
        code = "let x: any = " + open_ * 100_000 + "1" + close * 100_000 + ";\nconsole.log(x);\n"
    run = wasmeval.Evaluator(fuel=500_000_000).run_code(code, "typescript")
    assert run["status"] == "compile_error", run
    assert "stripper" in run["message"]
    assert wasmeval.run_code("console.log(1 as number);", "typescript")["stdout"] == "1\n"


def test_bad_input_is_bad_input_naming_file_and_line():
    with pytest.raises(wasmeval.BadInput) as error:
        wasmeval.evaluate(DEMO_TASKS, FIXTURES / "bad-samples.jsonl")
    assert "bad-samples.jsonl:2" in str(error.value)
    with pytest.raises(wasmeval.BadInput, match="no such"):
        wasmeval.report(REPO / "no-such-run")
    with pytest.raises(wasmeval.BadInput, match="language"):
        wasmeval.run_code("x", "cobol")
    with pytest.raises(wasmeval.BadInput, match="task_id"):
        wasmeval.Evaluator().evaluate(json.loads((FIXTURES / "add.json").read_text()), {"task_id": "other", "completion": ""})


def test_errors_pickle_as_the_packages_own():
    import pickle

    error = pickle.loads(pickle.dumps(wasmeval.BadInput("tasks.jsonl:3: bad")))
    assert isinstance(error, wasmeval.BadInput) and str(error) == "tasks.jsonl:3: bad"
    assert wasmeval.BadInput.__module__ == "wasmeval"


def test_the_package_installs_the_command_line(cli):
    assert run_cli(cli, "--version").startswith("wasmeval ")
