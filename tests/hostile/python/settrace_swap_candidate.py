# expect: wrong_answer
# why: wrong solution that installs a sys.settrace hook swapping check()'s `candidate` local for a correct function; the harness must clear trace hooks
import sys


def double(x):
    return x + 2


def _tracer(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "check":
        # changes to f_locals made inside a trace function are written back
        frame.f_locals["candidate"] = lambda x: 2 * x
    return None


sys.settrace(_tracer)
