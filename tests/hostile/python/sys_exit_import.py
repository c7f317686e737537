# expect: runtime_error
# why: wrong solution that calls sys.exit(0) at import, hoping a clean exit code reads as success; the tests never ran
import sys


def double(x):
    return x + 2


sys.exit(0)
