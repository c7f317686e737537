# expect: runtime_error
# why: os.fork() to escape the time limit in a child; WASI has no fork, so AttributeError/OSError propagates
import os


def double(x):
    return 2 * x


pid = os.fork()
if pid == 0:
    while True:
        pass
