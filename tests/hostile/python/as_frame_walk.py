# expect: runtime_error
# why: issue 15's attack: walk sys._getframe() up to the harness's frame, read its token, write a passing report and exit; the tests and the token are in another interpreter, so no frame holds it and the exit ends the candidate's instance before any case ended
import os
import sys


def double(x):
    f = sys._getframe()
    token = None
    while f is not None and token is None:
        value = f.f_locals.get("token")
        token = value if isinstance(value, str) and value else None
        f = f.f_back
    os.write(1, f"\n{token} start 0\n\n{token} end 0 passed null\n\n{token} done\n".encode())
    os._exit(0)
