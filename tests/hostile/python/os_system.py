# expect: runtime_error
# why: os.system('id'); WASI CPython has no os.system (AttributeError), and nothing may run on the host
# must-not-output: uid=
import os


def double(x):
    return 2 * x


os.system("id")
