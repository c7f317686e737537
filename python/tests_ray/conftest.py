"""The cluster the tests share: a head and two worker nodes on 127.0.0.1 (cluster.py), started
once per session, and the demo evaluated without Ray as the reference.

Ray 2.60 replaces `--node-ip-address=127.0.0.1` by the machine's outward address when it has
one, and then listens on every interface; in a network namespace whose only interface is
loopback it keeps 127.0.0.1 and binds there. scripts/test-ray runs these tests in such a
namespace (`unshare --net`), and the cluster fixture refuses to start anywhere else.
"""

import os
import shutil
from pathlib import Path

import pytest

from cluster import Cluster, fresh_home, loopback_only_error, new_root

REPO = Path(__file__).resolve().parents[2]
DEMO_TASKS = REPO / "demo/tasks.jsonl"
DEMO_SAMPLES = REPO / "demo/samples.jsonl"
FIXTURES = REPO / "python/tests/fixtures"
# Every demo run here, the reference included, gets this budget: the demo's endless loops end
# ten times sooner than at the default 1e10, and equal budgets keep the runs comparable.
DEMO_FUEL = 10**9


@pytest.fixture(scope="session")
def cluster():
    error = loopback_only_error()
    if error:
        pytest.fail(error, pytrace=False)
    import ray

    root = new_root()
    os.environ["WASMEVAL_HOME"] = str(fresh_home(root, "home-driver"))
    nodes = Cluster(root)
    try:
        nodes.start_node("head", head=True)
        nodes.start_node("n1")
        nodes.start_node("n2")
        ray.init(address=nodes.address, log_to_driver=False)
        nodes.wait_alive(3)
        yield nodes
    finally:
        ray.shutdown()
        nodes.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def demo_reference(cluster):
    """The demo evaluated by `wasmeval.evaluate` in this process: what Ray must reproduce."""
    import wasmeval

    return wasmeval.evaluate(DEMO_TASKS, DEMO_SAMPLES, fuel=DEMO_FUEL)


def verdicts(results) -> list:
    """What two runs must agree on: sample, verdict, the cases' verdicts, fuel."""
    return [
        (r["index"], r["task_id"], r["verdict"], [c["verdict"] for c in r["cases"]], r["fuel"])
        for r in results
    ]
