"""wasmeval.ray on a three-node Ray cluster: shards spread over nodes and merged equal one run,
a node killed mid-run loses and repeats nothing, and every socket stays on loopback."""

import threading
import time

import pytest

import wasmeval
import wasmeval.ray
from cluster import TCP_ESTABLISHED, TCP_LISTEN, processes_of, sockets_of
from conftest import DEMO_FUEL, DEMO_SAMPLES, DEMO_TASKS, FIXTURES, verdicts


def _in_background(function, *args, **kwargs):
    """Runs ``function`` in a thread; returns the thread and a dict that gets ``value`` or
    ``error``."""
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


def _joined(thread, outcome, seconds):
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _running_shards(cluster, *names):
    """Processes of the named nodes running a shard (Ray names a busy worker after its task)."""
    return {p for p in cluster.pids(*names) if _title(p).startswith("ray::_run_shard")}


def _title(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def _wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.05)


def test_shards_run_on_several_nodes_and_merge_into_the_single_run(cluster, demo_reference, tmp_path):
    reports = wasmeval.ray.run(DEMO_TASKS, DEMO_SAMPLES, tmp_path / "out", shards=3, fuel=DEMO_FUEL)
    assert [r["shard"] for r in reports] == [0, 1, 2]
    nodes = {r["node_id"] for r in reports}
    assert len(nodes) >= 2, reports
    assert nodes <= {cluster.node_id(n) for n in ("head", "n1", "n2")}
    assert sum(r["samples"] for r in reports) == 196
    merged = wasmeval.read_results(tmp_path / "out")
    assert len(merged) == 196
    assert verdicts(merged) == verdicts(demo_reference)
    # 98 at the default budget; one passing sample needs 1.24e9 fuel, more than DEMO_FUEL.
    assert sum(r["verdict"] == "passed" for r in merged) == 97


def test_evaluate_takes_dicts_and_reports_bad_input_by_the_drivers_names(cluster):
    import json

    task = json.loads((FIXTURES / "add.json").read_text())
    samples = [{"task_id": "py/add", "completion": c} for c in ("    return a + b\n", "    return a - b\n")] * 3
    results = wasmeval.ray.evaluate([task], samples, timeout=20)
    assert [r["verdict"] for r in results] == ["passed", "wrong_answer"] * 3
    with pytest.raises(wasmeval.BadInput) as error:
        wasmeval.ray.evaluate(DEMO_TASKS, FIXTURES / "bad-samples.jsonl", shards=2)
    assert f"{FIXTURES / 'bad-samples.jsonl'}:2" in str(error.value)


def test_a_node_killed_mid_run_loses_and_repeats_no_sample(cluster, demo_reference, tmp_path):
    victim = "n2"
    victim_id = cluster.node_id(victim)
    # One job per shard keeps the victim's shard running for seconds, long enough to be killed.
    thread, outcome = _in_background(wasmeval.ray.run, DEMO_TASKS, DEMO_SAMPLES, tmp_path / "out",
                                     shards=3, jobs_per_shard=1, fuel=DEMO_FUEL)
    _wait_for(lambda: _running_shards(cluster, victim), 120, f"shard running on {victim}")
    cluster.kill_node(victim)
    try:
        reports = _joined(thread, outcome, 240)
        # Ray ran the victim's shard again elsewhere: every shard once, none on the dead node.
        assert [r["shard"] for r in reports] == [0, 1, 2]
        assert victim_id not in {r["node_id"] for r in reports}
        merged = wasmeval.read_results(tmp_path / "out")
        assert verdicts(merged) == verdicts(demo_reference)
        cluster.wait_alive(2)
    finally:
        # The other tests get three nodes again.
        cluster.start_node(f"{victim}-again")
        cluster.wait_alive(3)


def test_every_socket_of_the_cluster_is_on_loopback(cluster, tmp_path):
    import os

    thread, outcome = _in_background(wasmeval.ray.run, DEMO_TASKS, DEMO_SAMPLES, tmp_path / "out",
                                     shards=3, fuel=DEMO_FUEL)
    seen = []
    try:
        _wait_for(lambda: _running_shards(cluster), 120, "shard running")
        while thread.is_alive() or not seen:
            seen += sockets_of(cluster.pids() | {os.getpid()})
            time.sleep(0.5)
    finally:
        _joined(thread, outcome, 240)
    seen += sockets_of(cluster.pids() | {os.getpid()})
    listening = {(s[3], s[4]) for s in seen if s[1].startswith("tcp") and s[2] == TCP_LISTEN}
    # The GCS, two servers per raylet, the workers' and the driver's own.
    assert len(listening) >= 8, listening
    assert any(port == cluster.port for _, port in listening)
    for pid, protocol, state, local, port, remote, _ in seen:
        assert local.is_loopback, f"{protocol} {local}:{port} of pid {pid} is not on loopback"
        if state == TCP_ESTABLISHED and protocol.startswith("tcp"):
            assert remote.is_loopback, f"pid {pid} is connected to {remote}"
    assert {s[0] for s in seen} & processes_of([cluster.folders["head"]])
