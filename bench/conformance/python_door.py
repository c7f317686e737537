"""The Python package's doors, run by the venv's interpreter (target/python-venv, scripts/build-python):
`Evaluator.evaluate(task, sample)`, verl's `rewards.compute_score` and TRL's `rewards.trl_reward`,
with the dataset's own record as the task (wasmeval's reading of it where the dataset has no
record, as PSB2's folder).

    python python_door.py REQUESTS.jsonl OUT.jsonl JOBS

REQUESTS: one {key, task, sample, answer, data_source} a line. OUT: one {key, evaluate,
compute_score, trl_reward} a line, each a result, or {"error": message} when the call raised.
Progress on stderr.
"""

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor


def log(message: str) -> None:
    print(f"[conformance/python] {message}", file=sys.stderr, flush=True)


def main() -> None:
    requests_path, out_path, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    import wasmeval
    from wasmeval import rewards

    with open(requests_path, encoding="utf-8") as f:
        requests = [json.loads(line) for line in f if line.strip()]
    started = time.monotonic()
    evaluator = wasmeval.Evaluator(jobs=jobs)
    log(f"Evaluator ready in {time.monotonic() - started:.1f} s ({wasmeval.__version__}, "
        f"{wasmeval.__file__}); {len(requests)} samples, {jobs} threads")

    results = {r["key"]: {"key": r["key"]} for r in requests}
    done = [0]
    lock = threading.Lock()

    def guarded(call):
        try:
            return call()
        except Exception as e:  # noqa: BLE001 - a door's failure is what we report
            return {"error": f"{type(e).__name__}: {e}"}

    def one(r):
        results[r["key"]]["evaluate"] = guarded(lambda: evaluator.evaluate(r["task"], r["sample"]))
        results[r["key"]]["compute_score"] = guarded(
            lambda: rewards.compute_score(r["data_source"], r["answer"], r["task"], {"wasmeval_details": True})
        )
        with lock:
            done[0] += 1
            if done[0] % 100 == 0 or done[0] == len(requests):
                log(f"evaluate + compute_score: {done[0]}/{len(requests)} "
                    f"({time.monotonic() - started:.0f} s)")

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, requests))

    # TRL's shape: one call per batch of one dataset's completions, with its `task` column.
    batch = 64
    by_source: dict = {}
    for r in requests:
        by_source.setdefault(r.get("group", r["data_source"]), []).append(r)
    for rows in by_source.values():
        for at in range(0, len(rows), batch):
            part = rows[at:at + batch]
            scores = guarded(lambda: rewards.trl_reward([r["answer"] for r in part], task=[r["task"] for r in part]))
            for i, r in enumerate(part):
                results[r["key"]]["trl_reward"] = scores if isinstance(scores, dict) else {"score": scores[i]}
    log(f"trl_reward: {len(requests)} in {time.monotonic() - started:.0f} s")

    with open(out_path, "w", encoding="utf-8") as out:
        for r in requests:
            out.write(json.dumps(results[r["key"]]) + "\n")


if __name__ == "__main__":
    main()
