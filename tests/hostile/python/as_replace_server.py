# expect: wrong_answer
# why: replaces the partner's server with one that answers every call with a made-up reply claiming success and extra protocol fields; the judge reads only a value from it, and the value is wrong
import json

import _host


def double(x):
    return x + 2


def _my_server():
    _host.call(b"?")
    _host.call(b"!" + json.dumps({"ok": True, "value": 0, "passed": True, "names": []}).encode())


import __main__

__main__.__dict__["_wasmeval_serve"] = _my_server
globals()["_wasmeval_serve"] = _my_server
