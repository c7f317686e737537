#!/usr/bin/env python3
"""A loopback reverse proxy that injects faults, for testing clients of OpenAI-compatible servers.

    python3 tests/llm/fault_proxy.py --upstream http://127.0.0.1:PORT --port 0 --state FILE

listens on 127.0.0.1 (port 0: a free one), writes its base URL to FILE once it accepts
connections (and prints it), forwards every request to the upstream and stops by itself after
--lifetime seconds (default 900), or on SIGTERM/SIGINT. Standard library only.

Control endpoints (not forwarded, not counted):

    POST /_faults   a JSON list, the script for the next requests, replacing what is left of the
                    previous one; each entry is used by one request, in arrival order, then
                    requests pass through again. An entry is an object of:
                      "delay": seconds    wait, then do the rest (pass through when nothing else)
                      "drop": true        close the connection without an answer
                      "status": code      answer with this status instead of forwarding, with
                        "retry_after": n  a Retry-After header,
                        "body": value     this body (a string as is, as text/plain, anything
                                          else as JSON; default an OpenAI-style error object),
                        "headers": {...}  and these headers (a Content-Type among them replaces
                                          the one above: malformed JSON is a string body with
                                          {"Content-Type": "application/json"})
                      {}                  pass through (to let requests go by in a script)
                    e.g. [{"status": 429, "retry_after": 1}, {"status": 500}, {"drop": true},
                          {"delay": 3.0}]
    GET  /_faults   {"pending": [...]}, the entries not used yet
    GET  /_stats    {"requests": n, "max_in_flight": n, "in_flight": n, "faults_applied": n,
                     "paths": [...], "methods": [...], "authorization": [...], "bodies": [...]}
                    one item per forwarded or faulted request, in arrival order: the path (with
                    its query), the method, the Authorization header (null when absent) and the
                    body parsed as JSON (null when empty or not JSON). In flight counts requests
                    from arrival to the end of their answer, delays included.
    POST /_reset    clears the statistics and the fault script

Answers are forwarded whole (read to the end, then sent with a Content-Length): a streamed
(text/event-stream) answer arrives at once rather than event by event.
"""

import argparse
import http.client
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Not forwarded in either direction (RFC 9110 section 7.6.1), plus the ones recomputed here.
HOP_BY_HOP = {
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
    "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
}
REASONS = {429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
           503: "Service Unavailable"}


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.faults = []
            self.requests = 0
            self.in_flight = 0
            self.max_in_flight = 0
            self.faults_applied = 0
            self.paths, self.methods, self.authorization, self.bodies = [], [], [], []

    def arrive(self, method, path, authorization, body):
        """Records a request; returns the fault entry it is to use (or None)."""
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        with self.lock:
            self.requests += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.paths.append(path)
            self.methods.append(method)
            self.authorization.append(authorization)
            self.bodies.append(parsed)
            if self.faults:
                self.faults_applied += 1
                return self.faults.pop(0)
            return None

    def leave(self):
        with self.lock:
            self.in_flight -= 1

    def stats(self):
        with self.lock:
            return {
                "requests": self.requests,
                "max_in_flight": self.max_in_flight,
                "in_flight": self.in_flight,
                "faults_applied": self.faults_applied,
                "paths": list(self.paths),
                "methods": list(self.methods),
                "authorization": list(self.authorization),
                "bodies": list(self.bodies),
            }


def check_faults(script):
    if not isinstance(script, list) or not all(isinstance(entry, dict) for entry in script):
        raise ValueError("the fault script must be a JSON list of objects")
    known = {"delay", "drop", "status", "retry_after", "body", "headers"}
    for number, entry in enumerate(script):
        unknown = set(entry) - known
        if unknown:
            raise ValueError(f"entry {number}: unknown keys {sorted(unknown)}")
        if "status" in entry and not (isinstance(entry["status"], int) and 100 <= entry["status"] <= 599):
            raise ValueError(f"entry {number}: status must be an HTTP status code")
        if "delay" in entry and not (isinstance(entry["delay"], (int, float)) and entry["delay"] >= 0):
            raise ValueError(f"entry {number}: delay must be a number of seconds")
    return script


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "wasmeval-fault-proxy"

    def log_message(self, format, *args):  # quiet: tests read /_stats
        pass

    def handle_one_request(self):
        # A client that gave up (a timeout, a dropped connection) is not the proxy's error.
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def answer(self, status, body, headers=(), content_type="application/json"):
        self.send_response(status, REASONS.get(status))
        self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def answer_json(self, status, value, headers=()):
        self.answer(status, json.dumps(value).encode(), headers)

    def handle_any(self):
        body = self.read_body()
        state = self.server.state
        route = (self.command, urllib.parse.urlsplit(self.path).path)
        if route == ("POST", "/_faults"):
            try:
                script = check_faults(json.loads(body or b"null"))
            except ValueError as error:
                return self.answer_json(400, {"error": str(error)})
            with state.lock:
                state.faults = list(script)
            return self.answer_json(200, {"pending": len(script)})
        if route == ("GET", "/_faults"):
            with state.lock:
                return self.answer_json(200, {"pending": list(state.faults)})
        if route == ("GET", "/_stats"):
            return self.answer_json(200, state.stats())
        if route == ("POST", "/_reset"):
            state.reset()
            return self.answer_json(200, {"reset": True})

        fault = state.arrive(self.command, self.path, self.headers.get("Authorization"),
                             body) or {}
        try:
            if fault.get("delay"):
                time.sleep(float(fault["delay"]))
            if fault.get("drop"):
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return
            if "status" in fault:
                return self.injected(fault)
            return self.forward(body)
        finally:
            state.leave()

    def injected(self, fault):
        status = fault["status"]
        headers = []
        if "retry_after" in fault:
            headers.append(("Retry-After", str(fault["retry_after"])))
        content_type = None
        for name, value in (fault.get("headers") or {}).items():
            if str(name).lower() == "content-type":
                content_type = str(value)
            else:
                headers.append((str(name), str(value)))
        body = fault.get("body")
        if body is None:
            body = {"error": {"message": f"injected fault: HTTP {status}",
                              "type": "injected_fault", "code": status}}
        if isinstance(body, str):
            return self.answer(status, body.encode(), headers, content_type or "text/plain")
        return self.answer(status, json.dumps(body).encode(), headers, content_type or "application/json")

    def forward(self, body):
        upstream = self.server.upstream
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        headers["Host"] = upstream.netloc
        if body or self.command in ("POST", "PUT", "PATCH"):
            headers["Content-Length"] = str(len(body))
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port or 80,
                                                timeout=self.server.upstream_timeout)
        try:
            connection.request(self.command, upstream.path.rstrip("/") + self.path, body or None, headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            return self.answer_json(502, {"error": {"message": f"fault proxy: upstream failed: {error}",
                                                    "type": "upstream_error", "code": 502}})
        finally:
            connection.close()
        self.send_response(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="base URL of the server, http://host:port")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--state", help="file to write the proxy's URL to once it listens")
    parser.add_argument("--lifetime", type=float, default=900, help="seconds before it stops by itself")
    parser.add_argument("--upstream-timeout", type=float, default=600, help="seconds to wait for the upstream")
    args = parser.parse_args()
    upstream = urllib.parse.urlsplit(args.upstream)
    if upstream.scheme != "http" or not upstream.hostname:
        parser.error("--upstream must be an http:// URL")

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.state = State()
    server.upstream = upstream
    server.upstream_timeout = args.upstream_timeout

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    timer = threading.Timer(args.lifetime, stop)
    timer.daemon = True
    timer.start()

    url = f"http://127.0.0.1:{server.server_address[1]}"
    if args.state:
        partial = f"{args.state}.partial"
        with open(partial, "w") as file:
            file.write(url + "\n")
        os.replace(partial, args.state)
    print(url, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
