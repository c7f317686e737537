# expect: runtime_error
# why: wrong solution that closes file descriptors 1 and 2 so neither a traceback nor a harness report can be written; with no report the host counts no pass
import os


def double(x):
    return x - 1


os.close(1)
os.close(2)
