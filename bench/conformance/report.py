"""Comparing the doors' outcomes, classifying each failure with the native evidence, and printing
the report (a table of passed/total per dataset, language and door; every disagreement; every
failure, grouped by cause)."""

from __future__ import annotations

import re
from collections import defaultdict

from .doors import CASE_DOORS, DOORS

#: Doors whose verdict names are wasmeval's own (compared verdict for verdict with `run`'s).
VERDICT_DOORS = {"run", "api", "submit", "evaluate", "compute_score", "browser"}


def expected_score(base: dict) -> float:
    """`rewards.score_of` of run's outcome: 1.0 when passed, else the fraction of cases passed."""
    if base["passed"]:
        return 1.0
    cases = base.get("cases") or []
    return sum(c == "passed" for c in cases) / len(cases) if cases else 0.0


def differs(door: str, base: dict, other: dict) -> str | None:
    """Why `other` (a door's outcome) is not `base` (run's), or None when they agree."""
    if base["error"] or other["error"]:
        if base["error"] and other["error"]:
            return None
        return "one door could not evaluate the sample"
    if base["verdict"] == "timeout" and other["passed"] and door in ("submit", "run_code"):
        return "budget: run's default fuel ran out, SandboxFusion's default (10 s a run) did not"
    if door in VERDICT_DOORS and other["verdict"] is not None and base["verdict"] is not None:
        if other["verdict"] != base["verdict"]:
            return "verdict"
        if door in CASE_DOORS and other["cases"] is not None and base["cases"] is not None \
                and other["cases"] != base["cases"]:
            if len(other["cases"]) != len(base["cases"]):
                return f"{len(base['cases'])} cases in run, {len(other['cases'])} here"
            return "case verdicts: " + ", ".join(f"{i + 1}: {a} / {b}" for i, (a, b)
                                                   in enumerate(zip(base["cases"], other["cases"])) if a != b)[:120]
    elif other["passed"] != base["passed"]:
        return "passed"
    if door in ("compute_score", "trl_reward") and other["score"] is not None:
        if abs(other["score"] - expected_score(base)) > 1e-9:
            return f"score {other['score']:.3f}, expected {expected_score(base):.3f}"
    return None


def short_verdict(o: dict | None) -> str:
    if o is None:
        return "-"
    if o["error"]:
        return "error"
    if o["verdict"] is None:
        return "passed" if o["passed"] else "failed"
    return o["verdict"]


def pattern(message: str) -> str:
    """A message with its particulars taken out, so that failures of one cause group together."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", message or "")
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    text = re.sub(r"(/[\w.-]+)+", "PATH", text)
    return text.strip()[:160]


def classify(ref_key: str, outcomes: dict, native: dict | None) -> dict | None:
    """The failure of one reference: which doors fail it, and whose fault it is."""
    failing = [d for d in DOORS if d in outcomes and not outcomes[d]["passed"]]
    if not failing:
        return None
    if native is None:
        kind, evidence = "evidence missing", "the native check was not run (--no-native)"
    elif native.get("passed") is False:
        kind, evidence = "dataset defect", f"fails natively ({native.get('tool', '?')}): {native['message']}"
    elif native.get("passed") is True and native.get("flaky"):
        kind, evidence = "dataset defect", f"flaky natively ({native.get('tool', '?')}): {native['flaky']}"
    elif native.get("passed") is True:
        kind, evidence = "wasmeval bug", f"passes natively ({native.get('tool', '?')}, {native.get('seconds', 0)} s)"
    else:
        kind, evidence = "evidence missing", native.get("message", "")
    if kind == "dataset defect" and len(failing) < len(outcomes):
        # Some door passes a program that fails natively: that door is wrong.
        kind = "wasmeval bug"
        passing = [d for d in outcomes if outcomes[d]["passed"]]
        evidence += f"; yet passed by {', '.join(passing)}"
    first = outcomes[failing[0]]
    return {"key": ref_key, "kind": kind, "evidence": evidence, "failing": failing,
            "verdicts": {d: short_verdict(outcomes[d]) for d in failing},
            "message": first["message"], "pattern": pattern(first["message"])}


def table(headers: list, rows: list) -> list:
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]


def cluster(items: list, key) -> list:
    groups = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), str(kv[0])))


def ids(keys: list, limit: int = 8) -> str:
    """The task ids of `keys`, each with its task file's name when they come from several."""
    groups = {k.split("|", 1)[0] for k in keys}
    names = [k.split("|", 1)[1] if len(groups) == 1 else k.replace("|", ":") for k in keys]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more
