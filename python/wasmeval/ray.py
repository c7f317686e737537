"""wasmeval on a Ray cluster: a run split into shards over the nodes, and a pool of warm sandboxes
for reward functions.

- :func:`evaluate` (and :func:`run`, into a run folder) splits a run into shards, one Ray task
  each (``wasmeval.run(..., shard=(k, n))`` on whichever node Ray picks), and merges the parts
  on the driver with :func:`wasmeval.merge`: the answer is :func:`wasmeval.evaluate`'s. Nodes
  need not share a file system: the inputs travel in Ray's object store, and every shard sends
  back its run folder's files.
- :class:`RewardPool` keeps ``n`` actors (:data:`EvaluatorActor`), each holding a warm
  :class:`wasmeval.Evaluator`, and spreads a training batch's answers over them.

>>> import ray, wasmeval.ray
>>> ray.init(address="auto")
>>> results = wasmeval.ray.evaluate("HumanEval.jsonl.gz", "samples.jsonl")  # as wasmeval.evaluate
>>> pool = wasmeval.ray.RewardPool(4, timeout=10)
>>> pool.score(tasks, completions)  # one float per completion; tasks[i] is completions[i]'s

Ray is an optional dependency (``pip install 'wasmeval[ray]'``), imported when first needed. A
shard is idempotent: it starts from an empty folder of its own and returns its files, so when
Ray runs it again after a node died (``max_retries``) nothing is lost or counted twice, and
:func:`wasmeval.merge` refuses a repeated part anyway. docs/scale-out.md has the set-up.
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import wasmeval
from wasmeval import Records
from wasmeval.rewards import _text, score_of

__all__ = ["EvaluatorActor", "RewardPool", "evaluate", "run"]

#: Inputs as shipped to the nodes: (kind, name, content, shown), kind ``file`` (content: bytes),
#: ``folder`` (content: {relative path: bytes}) or ``records`` (JSON Lines bytes); ``shown`` is
#: how error messages name them (the driver's path).
Shipped = Tuple[str, str, Any, str]


def _ray():
    """The ``ray`` module, or an ImportError saying how to install it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            "wasmeval.ray needs Ray, an optional dependency: pip install 'wasmeval[ray]'"
        ) from error
    return ray


def _connected():
    ray = _ray()
    if not ray.is_initialized():
        ray.init()
    return ray


def _ship(records: Records, name: str) -> Shipped:
    """Reads ``records`` on the driver: a file's bytes (under its own name, which tells some
    formats apart), a folder's files, or dicts as JSON Lines (as :func:`wasmeval.run` writes
    them)."""
    if isinstance(records, (str, os.PathLike)):
        path = os.fspath(records)
        base = os.path.basename(os.path.normpath(path))
        if os.path.isdir(path):
            files = {}
            for folder, _, names in os.walk(path):
                for file in names:
                    full = os.path.join(folder, file)
                    with open(full, "rb") as data:
                        files[os.path.relpath(full, path)] = data.read()
            return ("folder", base, files, path)
        try:
            with open(path, "rb") as data:
                return ("file", base, data.read(), path)
        except FileNotFoundError as error:
            raise wasmeval.BadInput(f"{path}: no such file") from error
    lines = []
    for record in records:
        if not isinstance(record, Mapping):
            raise wasmeval.BadInput(f"{name}: expected dicts or a path, found {type(record).__name__}")
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return ("records", name, "".join(lines).encode("utf-8"), name)


def _unship(shipped: Shipped, folder: str) -> str:
    """Writes shipped inputs into ``folder``; returns the path to give ``wasmeval.run``."""
    kind, name, content, _ = shipped
    path = os.path.join(folder, name)
    if kind == "folder":
        for relative, data in content.items():
            full = os.path.join(path, relative)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as out:
                out.write(data)
        os.makedirs(path, exist_ok=True)
    else:
        with open(path, "wb") as out:
            out.write(content)
    return path


# wasmeval's exceptions come from its native module and do not survive pickling from one
# process to another as themselves, so nodes send them back as values and the driver raises them.
_ERRORS = {"bad_input": wasmeval.BadInput, "error": wasmeval.WasmevalError}


def _error_value(error: Exception) -> dict:
    kind = "bad_input" if isinstance(error, wasmeval.BadInput) else "error"
    return {"wasmeval_error": kind, "message": str(error)}


def _raise_error_value(value: Any) -> None:
    if isinstance(value, dict) and "wasmeval_error" in value:
        raise _ERRORS[value["wasmeval_error"]](value["message"])


def _run_shard(k: int, n: int, tasks: Shipped, samples: Shipped, options: Dict[str, Any]) -> dict:
    """One Ray task: shard ``k`` of ``n`` in a fresh folder on this node; returns the folder's
    files and where it ran. Starts from nothing every time, so a retry repeats it exactly."""
    ray = _ray()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"wasmeval-ray-shard{k}-") as work:
        inputs = os.path.join(work, "in")
        os.mkdir(inputs)
        tasks_path = _unship(tasks, inputs)
        samples_path = _unship(samples, inputs)
        out = os.path.join(work, "out")
        try:
            wasmeval.run(tasks_path, samples_path, out, shard=(k, n), **options)
        except (wasmeval.BadInput, wasmeval.WasmevalError) as error:
            value = _error_value(error)
            # Named as the driver named them, not by this node's temporary folder.
            value["message"] = value["message"].replace(tasks_path, tasks[3]).replace(samples_path, samples[3])
            return value
        files = {}
        for name in sorted(os.listdir(out)):
            full = os.path.join(out, name)
            if os.path.isfile(full) and not name.endswith(".lock"):
                with open(full, "rb") as data:
                    files[name] = data.read()
    return {
        "shard": k,
        "node_id": ray.get_runtime_context().get_node_id(),
        "hostname": socket.gethostname(),
        "pid": os.getpid(),
        "seconds": time.monotonic() - started,
        "files": files,
    }


_remotes: Dict[Any, Any] = {}


def _remote(target):
    """``ray.remote(target)``, made once per process (Ray imported on first use)."""
    if target not in _remotes:
        _remotes[target] = _ray().remote(target)
    return _remotes[target]


def _shard_task():
    return _remote(_run_shard)


def _alive_nodes(ray) -> int:
    return sum(1 for node in ray.nodes() if node.get("Alive"))


def run(
    tasks: Records,
    samples: Records,
    out: Union[str, os.PathLike],
    *,
    shards: Optional[int] = None,
    jobs_per_shard: Optional[int] = None,
    fuel: Optional[int] = None,
    memory: Optional[int] = None,
    timeout: Optional[float] = None,
    model: Optional[str] = None,
    max_retries: int = 3,
    num_cpus: float = 1,
) -> List[dict]:
    """Evaluates on the Ray cluster into the run folder ``out`` (which must not hold a run yet):
    ``shards`` Ray tasks (default: one per alive node), each running :func:`wasmeval.run` with
    ``shard=(k, shards)`` and ``jobs_per_shard`` workers (default: the cores of its node), then
    :func:`wasmeval.merge` of their folders on this machine.

    ``tasks`` and ``samples`` are paths or dicts, as for :func:`wasmeval.evaluate`; paths are
    read here and shipped through the object store. Each task asks Ray for ``num_cpus`` CPUs
    and is spread over the nodes (``SPREAD``); a task whose node or worker dies is run again,
    up to ``max_retries`` times. An error of the evaluation itself is not retried: it is raised
    here as :class:`wasmeval.BadInput` or :class:`wasmeval.WasmevalError`, as locally.

    Returns one dict per shard, in shard order: ``shard``, ``node_id`` (Ray's), ``hostname``,
    ``pid`` (the Ray worker's), ``seconds`` (on the node) and ``samples``.
    """
    ray = _connected()
    if shards is None:
        shards = max(1, _alive_nodes(ray))
    shards = int(shards)
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    options: Dict[str, Any] = {
        "jobs": jobs_per_shard,
        "fuel": fuel,
        "memory": memory,
        "timeout": timeout,
        "model": model,
    }
    tasks_ref = ray.put(_ship(tasks, "tasks.jsonl"))
    samples_ref = ray.put(_ship(samples, "samples.jsonl"))
    task = _shard_task().options(
        num_cpus=num_cpus, max_retries=max_retries, scheduling_strategy="SPREAD"
    )
    refs = [task.remote(k, shards, tasks_ref, samples_ref, options) for k in range(shards)]
    done = ray.get(refs)
    for value in done:
        _raise_error_value(value)
    reports = []
    with tempfile.TemporaryDirectory(prefix="wasmeval-ray-parts-") as work:
        parts = []
        for shard in sorted(done, key=lambda d: d["shard"]):
            part = os.path.join(work, str(shard["shard"]))
            os.mkdir(part)
            for name, data in shard.pop("files").items():
                with open(os.path.join(part, name), "wb") as file:
                    file.write(data)
            shard["samples"] = len(wasmeval.read_results(part))
            parts.append(part)
            reports.append(shard)
        wasmeval.merge(out, parts)
    return reports


def evaluate(
    tasks: Records,
    samples: Records,
    *,
    shards: Optional[int] = None,
    jobs_per_shard: Optional[int] = None,
    fuel: Optional[int] = None,
    memory: Optional[int] = None,
    timeout: Optional[float] = None,
    model: Optional[str] = None,
    max_retries: int = 3,
) -> list:
    """:func:`wasmeval.evaluate` on the Ray cluster: the same results (one dict per sample, in
    sample order), computed by ``shards`` Ray tasks (default: one per alive node). Connects
    with ``ray.init()`` when Ray is not initialised yet. See :func:`run`."""
    with tempfile.TemporaryDirectory(prefix="wasmeval-ray-") as work:
        out = os.path.join(work, "out")
        run(
            tasks,
            samples,
            out,
            shards=shards,
            jobs_per_shard=jobs_per_shard,
            fuel=fuel,
            memory=memory,
            timeout=timeout,
            model=model,
            max_retries=max_retries,
        )
        return wasmeval.read_results(out)


class _Evaluator:
    """The actor behind :data:`EvaluatorActor`: one warm :class:`wasmeval.Evaluator`."""

    def __init__(self, **limits: Any) -> None:
        self._evaluator = wasmeval.Evaluator(**limits)

    def node_id(self) -> str:
        """The Ray node this actor lives on."""
        return _ray().get_runtime_context().get_node_id()

    def evaluate_answers(self, pairs: Sequence[Tuple[str, str]]) -> Union[List[dict], dict]:
        """(task as JSON, answer text) pairs, in parallel: result dicts, in order (or the
        error, as a value: see :func:`_error_value`)."""
        try:
            return self._evaluator.evaluate_many(pairs, answers=True)
        except (wasmeval.BadInput, wasmeval.WasmevalError) as error:
            return _error_value(error)

    def score(self, pairs: Sequence[Tuple[str, str]], passed_only: bool = False) -> Union[List[float], dict]:
        """(task as JSON, answer text) pairs: their rewards (:func:`wasmeval.rewards.score_of`)."""
        results = self.evaluate_answers(pairs)
        if isinstance(results, dict):
            return results
        return [score_of(r, passed_only) for r in results]


def _actor_class():
    return _remote(_Evaluator)


def __getattr__(name: str):
    # EvaluatorActor is made on first use, so that importing this module does not import Ray.
    if name == "EvaluatorActor":
        return _actor_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _task_json(task: Union[str, Mapping[str, Any]]) -> str:
    return task if isinstance(task, str) else json.dumps(task, ensure_ascii=False)


class RewardPool:
    """``n_actors`` Ray actors, each with a warm :class:`wasmeval.Evaluator` made once, for a
    training loop's rewards: :meth:`score` splits a batch into contiguous slices, one per actor,
    and returns the scores in the batch's order.

    ``limits`` go to every actor's :class:`wasmeval.Evaluator` (``fuel``, ``memory``,
    ``timeout``, ``output``, ``jobs``). Each actor reserves ``num_cpus`` CPUs and actors are
    spread over the nodes; an actor whose node dies is made again elsewhere (``max_restarts``)
    and its calls retried, which is safe because scoring has no side effects.
    """

    def __init__(
        self,
        n_actors: int = 1,
        *,
        num_cpus: float = 1,
        max_restarts: int = 3,
        passed_only: bool = False,
        **limits: Any,
    ) -> None:
        if n_actors < 1:
            raise ValueError(f"n_actors must be at least 1, got {n_actors}")
        self._ray = _connected()
        self.passed_only = passed_only
        actor = _actor_class().options(
            num_cpus=num_cpus,
            max_restarts=max_restarts,
            max_task_retries=max_restarts,
            scheduling_strategy="SPREAD",
        )
        self.actors = [actor.remote(**limits) for _ in range(int(n_actors))]

    def _slices(self, tasks, completions) -> List[Tuple[Any, List[Tuple[str, str]]]]:
        if isinstance(tasks, (str, Mapping)):
            raise TypeError("tasks: one task per completion (a list), not a single task")
        if len(tasks) != len(completions):
            raise ValueError(f"{len(completions)} completions but {len(tasks)} tasks")
        pairs = [(_task_json(t), _text(c)) for t, c in zip(tasks, completions)]
        n = len(self.actors)
        size, extra = divmod(len(pairs), n)
        slices, start = [], 0
        for i, actor in enumerate(self.actors):
            end = start + size + (1 if i < extra else 0)
            if end > start:
                slices.append((actor, pairs[start:end]))
            start = end
        return slices

    def score(
        self,
        tasks: Sequence[Union[str, Mapping[str, Any]]],
        completions: Sequence[Union[str, Sequence[Mapping[str, Any]]]],
    ) -> List[float]:
        """One reward per completion: 1.0 when it passed, else the fraction of its task's cases
        that passed (0.0 with ``passed_only``). ``tasks[i]`` is the ground truth of
        ``completions[i]`` (any shape :mod:`wasmeval.rewards` takes: a task record, a list of
        asserts, stdin/stdout pairs; a dict, a list or JSON text); a completion is chat text,
        whose fenced block is the code, or a conversation whose last message is the answer."""
        refs = [a.score.remote(p, self.passed_only) for a, p in self._slices(tasks, completions)]
        return [s for part in self._parts(refs) for s in part]

    def evaluate(
        self,
        tasks: Sequence[Union[str, Mapping[str, Any]]],
        completions: Sequence[Union[str, Sequence[Mapping[str, Any]]]],
    ) -> List[dict]:
        """The full result dicts (verdict, cases, fuel, ...) behind :meth:`score`."""
        refs = [a.evaluate_answers.remote(p) for a, p in self._slices(tasks, completions)]
        return [r for part in self._parts(refs) for r in part]

    def _parts(self, refs) -> list:
        parts = self._ray.get(refs)
        for part in parts:
            _raise_error_value(part)
        return parts

    def node_ids(self) -> List[str]:
        """The Ray node of each actor."""
        return self._ray.get([a.node_id.remote() for a in self.actors])

    def shutdown(self) -> None:
        """Ends the actors (their CPUs go back to the cluster)."""
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors = []
