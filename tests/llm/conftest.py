"""Fixtures of the tests of `wasmeval generate` and `grade` against a real model server.

scripts/test-llm starts llama-server (scripts/llm-server) and sets WASMEVAL_LLM_URL; each test
gets its own tests/llm/fault_proxy.py in front of it, so it can script faults and read what the
client sent. WASMEVAL_BIN names the wasmeval executable (scripts/test-llm passes the release build).
"""

import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.request

import pytest

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"


def _required_env(name, hint):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: {hint}", pytrace=False)
    return value


@pytest.fixture(scope="session")
def server_url():
    return _required_env("WASMEVAL_LLM_URL", "run these tests through scripts/test-llm")


@pytest.fixture(scope="session")
def wasmeval_bin():
    path = _required_env("WASMEVAL_BIN", "run these tests through scripts/test-llm")
    assert pathlib.Path(path).exists(), path
    return path


class Proxy:
    """A running fault_proxy.py: its URL, and its control endpoints."""

    def __init__(self, url):
        self.url = url

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read() or b"null")

    def faults(self, script):
        self._call("POST", "/_faults", script)

    def stats(self):
        return self._call("GET", "/_stats")

    def reset(self):
        self._call("POST", "/_reset", {})


@pytest.fixture
def proxy(server_url, tmp_path):
    state = tmp_path / "proxy-url"
    process = subprocess.Popen(
        [sys.executable, str(HERE / "fault_proxy.py"), "--upstream", server_url, "--port", "0",
         "--state", str(state), "--lifetime", "600"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not (state.exists() and state.read_text().strip()):
            assert process.poll() is None, "fault_proxy.py exited"
            assert time.monotonic() < deadline, "fault_proxy.py did not start in 20 s"
            time.sleep(0.05)
        yield Proxy(state.read_text().strip())
    finally:
        process.terminate()
        process.wait(timeout=10)


def read_jsonl(path):
    return [json.loads(line) for line in pathlib.Path(path).read_text().splitlines() if line]


def grammar_body(name):
    """`--extra-body` JSON forcing the answer with a grammar file of the fixtures."""
    return json.dumps({"grammar": (FIXTURES / name).read_text().strip()})
