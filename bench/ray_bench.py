#!/usr/bin/env python3
"""wasmeval.ray on a Ray cluster of 1, 2 and 3 nodes on this machine: the wall time of the demo
(196 samples) through `wasmeval.ray.evaluate` (one shard per node) against `wasmeval.evaluate`
without Ray, and the cost of a reward call through `wasmeval.ray.RewardPool` against the same
call on a local `wasmeval.Evaluator`. Prints figures; does not fail on them.

The nodes are the tests' (python/tests_ray/cluster.py: `ray start`, one CPU each, on 127.0.0.1),
so they share this machine's cores: more nodes mean more processes on the same cores, not more
cores. Like scripts/test-ray, it runs in a loopback-only network namespace (it re-executes
itself under `unshare` when it is not in one). Run after scripts/test-ray (which installs Ray):

    target/python-venv/bin/python bench/ray_bench.py              # 3 runs each, 200 reward calls
    target/python-venv/bin/python bench/ray_bench.py --repeat 1 --calls 50

Wall times are the median (and the fastest) of --repeat runs after one untimed warm-up run (the
first run on a node lays out the guests in its WASMEVAL_HOME and starts Ray's workers). The load
average is printed before and after: other work on the machine shows up in the figures.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python/tests_ray"))

from cluster import Cluster, fresh_home, loopback_only_error, new_root  # noqa: E402

DEMO_TASKS = REPO / "demo/tasks.jsonl"
DEMO_SAMPLES = REPO / "demo/samples.jsonl"
TASK = json.loads((REPO / "python/tests/fixtures/add.json").read_text())
ANSWER = "```python\ndef add(a, b):\n    return a + b\n```"


def in_namespace() -> None:
    """Runs this script again in new network, PID and mount namespaces with loopback up."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        sys.exit("ray_bench: needs unshare and ip (util-linux, iproute2)")
    script = 'ip link set lo up && exec "$0" "$@"'
    as_root = [] if os.geteuid() == 0 else ["--map-root-user"]
    argv = ["unshare", *as_root, "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "sh", "-c", script]
    sys.exit(subprocess.call(argv + [sys.executable, *sys.argv]))


def timed(function, *args, **kwargs):
    started = time.perf_counter()
    value = function(*args, **kwargs)
    return time.perf_counter() - started, value


def repeated(times, function, *args):
    """``function(*args)`` once untimed, then ``times`` times: (median, fastest, last value)."""
    with quiet():
        value = function(*args)
        seconds = []
        for _ in range(times):
            took, value = timed(function, *args)
            seconds.append(took)
    return statistics.median(seconds), min(seconds), value


class quiet:
    """Sends this process's stdout and stderr (the runs' summaries and progress, Ray's
    warnings) to /dev/null for a while."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.saved = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *_):
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="reward calls, one answer each")
    parser.add_argument("--actors", type=int, default=2, help="actors in the reward pool")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of the demo per cluster size")
    options = parser.parse_args()
    if loopback_only_error():
        in_namespace()

    import ray

    import wasmeval
    import wasmeval.ray

    root = new_root()
    os.environ["WASMEVAL_HOME"] = str(fresh_home(root, "home-driver"))
    print(f"wasmeval {wasmeval.__version__}, Ray {ray.__version__}, {os.cpu_count()} cores, load {load()}")
    median, fastest, local = repeated(options.repeat, wasmeval.evaluate, DEMO_TASKS, DEMO_SAMPLES)
    print(f"demo without Ray (wasmeval.evaluate, {len(local)} samples): {median:.1f} s (fastest {fastest:.1f} s)")

    nodes = Cluster(root)
    try:
        for count, name in enumerate(["head", "n1", "n2"], start=1):
            started, _ = timed(nodes.start_node, name, head=name == "head")
            if count == 1:
                with quiet():
                    ray.init(address=nodes.address, log_to_driver=False)
            nodes.wait_alive(count)
            median, fastest, results = repeated(options.repeat, wasmeval.ray.evaluate, DEMO_TASKS, DEMO_SAMPLES)
            same = [r["verdict"] for r in results] == [r["verdict"] for r in local]
            print(
                f"demo on {count} node(s), {count} shard(s): {median:.1f} s (fastest {fastest:.1f} s; "
                f"node started in {started:.1f} s; verdicts {'equal' if same else 'DIFFER'})"
            )

        with quiet():
            evaluator = wasmeval.Evaluator()
            evaluator.evaluate_answer(TASK, ANSWER)
            seconds, _ = timed(lambda: [evaluator.evaluate_answer(TASK, ANSWER) for _ in range(options.calls)])
            local_call = seconds / options.calls
            made, pool = timed(wasmeval.ray.RewardPool, options.actors)
            first, _ = timed(pool.score, [TASK] * options.actors, [ANSWER] * options.actors)
            seconds, scores = timed(lambda: [pool.score([TASK], [ANSWER]) for _ in range(options.calls)])
            pool_call = seconds / options.calls
            batch = [TASK] * options.calls, [ANSWER] * options.calls
            local_batch, _ = timed(evaluator.evaluate_many, list(zip(*batch)), answers=True)
            pool_batch, batch_scores = timed(pool.score, *batch)
        assert all(s == [1.0] for s in scores) and set(batch_scores) == {1.0}
        print(
            f"reward pool of {options.actors} actors: made in {made:.2f} s, first batch "
            f"{first:.2f} s (each actor's evaluator warms up)"
        )
        print(
            f"{options.calls} calls of one answer: {pool_call * 1000:.1f} ms per call through the "
            f"pool, {local_call * 1000:.1f} ms on a local Evaluator: "
            f"{(pool_call - local_call) * 1000:.1f} ms of Ray per call"
        )
        print(
            f"one batch of {options.calls} answers: {pool_batch:.2f} s through the pool, "
            f"{local_batch:.2f} s on a local Evaluator (evaluate_many)"
        )
        pool.shutdown()
        print(f"load {load()}")
    finally:
        ray.shutdown()
        nodes.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
