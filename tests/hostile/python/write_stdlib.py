# expect: runtime_error
# why: tries to append to the stdlib's os.py, which is mounted read-only; open() raises
import os


def double(x):
    return 2 * x


with open(os.__file__, "a") as f:
    f.write("\nprint('backdoor')\n")
