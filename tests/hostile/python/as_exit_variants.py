# expect: runtime_error
# why: exit(0) from inside the candidate's function, after registering an atexit handler that exits 0 too: no case ends passed when the candidate's instance exits
import atexit
import os
import sys

atexit.register(lambda: os._exit(0))


def double(x):
    sys.exit(0)
