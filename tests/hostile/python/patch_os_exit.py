# expect: wrong_answer
# why: wrong solution that rebinds os._exit/sys.exit to always exit with status 0, defeating a harness that reports the verdict through them
import os
import sys

_real_exit = os._exit


def double(x):
    return x + 2


os._exit = lambda status=0: _real_exit(0)
sys.exit = lambda status=None: _real_exit(0)
