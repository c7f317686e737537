# expect: runtime_error
# why: a wrong double that walks the stack to the harness's token and prints a report line saying its call passed; the report breaks the protocol (a call never passes in the guest), and since the candidate ran in the process that reported, that is the candidate's runtime error, never a harness_error (issue 33)
import os
import sys


def double(x):
    frame, token = sys._getframe(), None
    while frame is not None and token is None:
        value = frame.f_locals.get("token")
        token = value if isinstance(value, str) and value else None
        frame = frame.f_back
    os.write(1, f"\n{token} end 0 passed null\n".encode())
    return 2 * x + 1
