# expect: wrong_answer
# why: a wrong solution that makes the test's tools lie: AssertionError swallowed, math.isclose and abs always true, sys.monitoring's hook removal a no-op and a trace hook swapping the candidate; all of it happens in the candidate's interpreter, the test's run in another
import builtins
import math
import sys


def double(x):
    return x + 2


class _Quiet(Exception):
    pass


builtins.AssertionError = _Quiet
builtins.abs = lambda value: 0
math.isclose = lambda *args, **kwargs: True
if hasattr(sys, "monitoring"):
    sys.monitoring.get_tool = lambda tool: None
    sys.monitoring.free_tool_id = lambda tool: None


def _tracer(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "check":
        frame.f_locals["candidate"] = lambda x: 2 * x
    return None


sys.settrace(_tracer)
