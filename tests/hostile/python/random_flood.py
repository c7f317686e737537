# expect: timeout
# why: asks the host for 16 MiB of random bytes again and again; random_get costs a fuel unit per byte, so the budget runs out after the same number of calls on any machine, instead of burning host CPU for free until the wall clock stops it
import os


def double(x):
    while True:
        os.urandom(1 << 24)
