# expect: wrong_answer
# why: wrong solution plus an atexit hook calling os._exit(0): the AssertionError traceback is printed, then the exit status is forced to 0
import atexit
import os


def double(x):
    return x + 2


atexit.register(os._exit, 0)
