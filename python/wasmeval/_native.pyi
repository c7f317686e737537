"""Type stubs of the native module (python/src/lib.rs)."""

from typing import Callable, Optional

__version__: str

class WasmevalError(Exception): ...
class BadInput(ValueError): ...

def run(
    argv: list[str], helper: Optional[str] = None, progress: Optional[Callable[[str], object]] = None
) -> None: ...
def report(argv: list[str]) -> str: ...

class Evaluator:
    def __init__(
        self,
        *,
        fuel: Optional[int] = None,
        memory: Optional[int] = None,
        timeout: Optional[float] = None,
        output: Optional[int] = None,
        jobs: Optional[int] = None,
        helper: Optional[str] = None,
    ) -> None: ...
    @property
    def languages(self) -> list[str]: ...
    def evaluate(self, task: str, sample: str, answer: bool = False) -> str: ...
    def evaluate_many(self, pairs: list[tuple[str, str]], answer: bool = False) -> list[str]: ...
    def run_code(self, code: str, language: str, stdin: Optional[str] = None) -> str: ...
