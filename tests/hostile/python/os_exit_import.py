# expect: runtime_error
# why: wrong solution that calls os._exit(0) at import, skipping all cleanup and the tests; exit status 0 is not a pass
import os


def double(x):
    return x * 3


os._exit(0)
