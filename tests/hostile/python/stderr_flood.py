# expect: output_limit
# why: writes to stderr forever (flushing each time); stderr counts toward the 1 MiB output cap too
import sys


def double(x):
    return 2 * x


while True:
    sys.stderr.write("warning: still thinking about it\n")
    sys.stderr.flush()
