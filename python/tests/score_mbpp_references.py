"""Scores every reference solution of MBPP (974, original) and sanitized MBPP (427) through
`wasmeval.rewards.compute_score` (from a thread pool, as verl's reward managers call it), each
against its own dataset row, as a plain and as a fenced answer, and prints the counts and every
reference that did not score 1.0 with the reason. Not a pytest module (the whole sets take
minutes); run from the package's venv:

    target/python-venv/bin/python python/tests/score_mbpp_references.py [../shared/datasets/mbpp]
"""

import gzip
import json
import sys
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from wasmeval import rewards


def rows(path: Path) -> list:
    with gzip.open(path, "rt", encoding="utf-8") as text:
        if path.name.endswith(".jsonl.gz"):
            return [json.loads(line) for line in text if line.strip()]
        return json.load(text)


def score(row: dict, answer: str) -> dict:
    return rewards.compute_score("mbpp", answer, row, {"wasmeval_details": True})


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[3] / "shared/datasets/mbpp")
    failures = 0
    answers = {"plain": lambda code: code, "fenced": lambda code: f"Solution:\n```python\n{code}\n```\n"}
    for name in ("mbpp.jsonl.gz", "sanitized-mbpp.json.gz"):
        dataset = rows(folder / name)
        for style, answer in answers.items():
            started = time.monotonic()
            with ThreadPoolExecutor(os.cpu_count()) as pool:
                results = list(pool.map(lambda row: score(row, answer(row["code"])), dataset))
            seconds = time.monotonic() - started
            failed = [(row, r) for row, r in zip(dataset, results) if r["score"] != 1.0]
            print(f"{name}, {style}: {len(dataset) - len(failed)} of {len(dataset)} references score 1.0 ({seconds:.0f} s)")
            for row, r in failed:
                print(
                    f"  task {row['task_id']}: {r['score']:.2f} ({r['cases_passed']}/{r['cases']} cases), "
                    f"{r['verdict']}: {r['message'][:200]}"
                )
            failures += len(failed)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
