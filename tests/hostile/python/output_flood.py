# expect: output_limit
# why: writes about 100 MiB to stdout in 64 KiB pieces; far over the 1 MiB output cap
import sys


def double(x):
    return 2 * x


line = "spam " * 13107 + "\n"  # ~64 KiB
for _ in range(1600):  # ~100 MiB in total
    sys.stdout.write(line)
